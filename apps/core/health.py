"""Liveness of the two services tierscope cannot work without, and of its worker and beat (their heartbeats)."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.db.utils import DatabaseError

from apps.core.errors import first_line
from apps.core.heartbeat import heartbeat_read


def health_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return False, first_line(exc)
    return True, "ok"


def health_broker() -> tuple[bool, str]:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        return False, str(exc)
    finally:
        client.close()
    return True, "ok"


def health_heartbeat(*, process: str) -> dict[str, object]:
    """Age of the last heartbeat of ``process`` (worker or beat); not ok when missing or stale."""
    beat = heartbeat_read(process=process, stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
    return {"ok": beat.ok, "age_s": beat.age_s, "detail": beat.detail}


def health_queues() -> dict[str, object]:
    """Each group's queue (a target's collect_queue, or a run still waiting on one): ok when a worker
    consuming it has a fresh heartbeat; not ok names the queue and the runs waiting on it."""
    from django.db.models import Count

    from apps.core.heartbeat import queue_process
    from apps.snapshots.models import CollectionRun
    from apps.targets.models import Target

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


def health_replica() -> dict[str, object]:
    """The read replica's state (ok / lagging / down / not configured) and lag; reported, never a failure."""
    from apps.core.replica import replica_state

    state = replica_state()
    return {"state": state.state, "lag_s": state.lag_s, "detail": state.detail}
