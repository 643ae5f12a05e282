"""Which group queues have a worker: /healthz's "queues" entry (docs/scaling.md, "Queues per target group")."""

from __future__ import annotations

from django.conf import settings
from django.db import DatabaseError
from django.db.models import Count

from apps.core.errors import first_line
from apps.core.heartbeat import heartbeat_read, queue_process
from apps.snapshots.models import CollectionRun
from apps.targets.models import Target


def health_queues() -> dict[str, object]:
    """Each group's queue (a target's collect_queue, or a run still waiting on one): ok when a worker
    consuming it has a fresh heartbeat; not ok names the queue and the runs waiting on it."""
    try:
        named = set(Target.objects.enabled().exclude(collect_queue="").values_list("collect_queue", flat=True))
        waiting = dict(CollectionRun.objects.filter(status=CollectionRun.Status.QUEUED).exclude(queue="")
                       .values_list("queue").annotate(n=Count("id")).values_list("queue", "n"))
    except DatabaseError as exc:
        return {"ok": True, "detail": f"not checked: {first_line(exc)}", "queues": {}}
    queues: dict[str, dict[str, object]] = {}
    for queue in sorted(named | set(waiting)):
        beat = heartbeat_read(process=queue_process(queue), stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
        runs = waiting.get(queue, 0)
        detail = "ok" if beat.ok else (f"{runs} run(s) waiting on queue {queue}, no worker consuming it "
                                       f"({beat.detail}): start one with celery -A config worker -Q {queue}")
        queues[queue] = {"ok": beat.ok, "age_s": beat.age_s, "waiting_runs": runs, "detail": detail}
    down = [name for name, entry in queues.items() if not entry["ok"]]
    detail = "ok" if not down else "no worker consuming: " + ", ".join(down)
    return {"ok": not down, "detail": detail, "queues": queues}
