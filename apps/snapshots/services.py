"""Collecting and storing samples: one collection run of one target.

`manage.py collect <target>`, the scheduled task and the "collect now" button
all end in :func:`snapshot_collect`.
"""

from __future__ import annotations

import datetime as dt
import logging
import zlib
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction
from django.utils import timezone

from apps.core.config import get_config
from apps.snapshots import store
from apps.snapshots.codec import sample_from_json, sample_to_json
from apps.snapshots.models import CollectionRun, RollupDay, SampleState, Snapshot
from apps.targets.base import CollectState, SourceError
from apps.targets.models import Target
from apps.targets.rows import Collection

logger = logging.getLogger(__name__)

#: The snapshot kind a live source's own snapshots are stored under.
PRIMARY_KIND = {"awr": "awr", "nopack": "awr", "demo": "demo"}
# Advisory-lock namespace so our keys never collide with another application's.
_LOCK_NAMESPACE = zlib.crc32(b"tierscope.collect") & 0x7FFFFFFF


class CollectionBusy(Exception):
    """Another collection of the same target holds the lock."""


class CollectRetryable(Exception):
    """A transient failure with retries left: the caller retries the same run later."""

    def __init__(self, message: str, *, run_id: int) -> None:
        super().__init__(message)
        self.run_id = run_id


@contextmanager
def target_lock(target_id: int) -> Iterator[None]:
    """One collection per target at a time, across workers and `manage.py collect`.

    A session-level PostgreSQL advisory lock: it is released when the session
    ends, so a killed worker never leaves it behind.
    """
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_LOCK_NAMESPACE, target_id])
        (acquired,) = cursor.fetchone()
    if not acquired:
        raise CollectionBusy
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_LOCK_NAMESPACE, target_id])


def run_enqueue(*, target: Target, trigger: str) -> CollectionRun:
    """Record a queued run and send the task once the row is committed."""
    from apps.snapshots.tasks import snapshot_collect as snapshot_collect_task

    run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=timezone.now())
    transaction.on_commit(lambda: snapshot_collect_task.delay(target.id, run.id))
    return run


def _run_start(*, target: Target, run_id: int | None, trigger: str) -> CollectionRun:
    now = timezone.now()
    if run_id is not None:
        run = CollectionRun.objects.get(pk=run_id)
    else:
        run = CollectionRun.objects.create(target=target, trigger=trigger, queued_at=now)
    run.status = CollectionRun.Status.RUNNING
    run.started_at = now
    run.attempts += 1
    run.save(update_fields=["status", "started_at", "attempts"])
    return run


def _run_finish(run: CollectionRun, *, status: str, error: str = "", notes: str = "") -> None:
    run.status = status
    run.finished_at = timezone.now()
    run.error = error
    run.notes = notes
    run.save(update_fields=["status", "finished_at", "error", "notes", "snapshots_added", "rows_added"])


def _reap_dead_runs(target: Target, current: CollectionRun) -> None:
    # We hold the target's lock, so any other "running" run of it belongs to a worker that died.
    CollectionRun.objects.filter(target=target, status=CollectionRun.Status.RUNNING).exclude(pk=current.pk).update(
        status=CollectionRun.Status.FAILED,
        finished_at=timezone.now(),
        error="The worker running this collection stopped before it finished; nothing partial was kept.",
    )


def collect_state_build(*, target: Target, now: dt.datetime) -> CollectState:
    kind = PRIMARY_KIND.get(target.mode, target.mode)
    previous = {s.instance_number: sample_from_json(s.payload) for s in SampleState.objects.filter(target=target)}
    return CollectState(
        now=now,
        history_start_at=now - dt.timedelta(days=get_config()["HISTORY_DAYS"]),
        last_snap_ids=store.last_snap_ids(target_id=target.id, kinds=[kind]),
        previous_samples=previous,
    )


def collection_store(*, target: Target, collection: Collection, kind: str, state: CollectState) -> store.StoreResult:
    """Write everything a source returned; each snapshot atomically, re-runs add nothing."""
    from apps.targets.deltas import sample_interval

    now = collection.collected_at or state.now
    segment_ids = store.segments_upsert(target_id=target.id, collection=collection, seen_at=now)
    ordered = sorted(collection.snapshots, key=lambda s: (s.end_at, s.instance_number))
    result = store.snapshots_store(target_id=target.id, kind=kind, snapshots=ordered, segment_ids=segment_ids)
    for sample in collection.samples:
        interval = sample_interval(
            state.previous_samples.get(sample.instance_number), sample, dbid=collection.database.dbid
        )
        with transaction.atomic():
            if interval is not None:
                added = store.snapshots_store(target_id=target.id, kind="sample", snapshots=[interval],
                                              segment_ids=segment_ids)
                result.snapshots_added += added.snapshots_added
                result.rows_added += added.rows_added
            store.sample_state_save(
                target_id=target.id, instance_number=sample.instance_number, startup_at=sample.startup_at,
                sampled_at=sample.sampled_at, payload=sample_to_json(sample),
            )
    if collection.residency:
        mapping = store.dataobj_map(target_id=target.id, keys_to_ids=segment_ids, collection=collection)
        result.rows_added += store.residency_store(
            target_id=target.id, collected_at=now, rows=collection.residency, dataobj_to_segment=mapping
        )
    return result


def snapshot_collect(*, target_id: int, run_id: int | None = None, trigger: str = "schedule") -> CollectionRun:
    """Collect one target now: read its source, store what is new, refresh recommendations.

    Raises CollectRetryable only for transient failures with retries left (the
    task retries the same run); every other outcome is recorded on the returned run.
    """
    from apps.targets.services import source_for
    from apps.tiering.services import recommendation_refresh

    target = Target.objects.get(pk=target_id)
    run = _run_start(target=target, run_id=run_id, trigger=trigger)
    try:
        with target_lock(target.id):
            _reap_dead_runs(target, run)
            now = timezone.now()
            state = collect_state_build(target=target, now=now)
            collection = source_for(target).collect(state)
            result = collection_store(target=target, collection=collection, kind=PRIMARY_KIND[target.mode], state=state)
            run.snapshots_added, run.rows_added = result.snapshots_added, result.rows_added
            _target_after_collect(target, collection, now)
            recommendation_refresh(target_id=target.id, now=now)
    except CollectionBusy:
        _run_finish(run, status=CollectionRun.Status.SKIPPED,
                    error="Another collection of this target was running; this one did nothing.")
        return run
    except SourceError as exc:
        retry = not exc.permanent and run.attempts <= get_config()["COLLECT_MAX_RETRIES"]
        _run_finish(run, status=CollectionRun.Status.QUEUED if retry else CollectionRun.Status.FAILED,
                    error=str(exc))
        _target_push_next(target)
        if retry:
            raise CollectRetryable(str(exc), run_id=run.id) from exc
        return run
    except Exception as exc:
        logger.exception("collection of target %s failed", target.name)
        _run_finish(run, status=CollectionRun.Status.FAILED, error=f"Internal error: {type(exc).__name__}: {exc}")
        _target_push_next(target)
        raise
    _run_finish(run, status=CollectionRun.Status.SUCCEEDED, notes="\n".join(collection.notes))
    return run


def _target_after_collect(target: Target, collection: Collection, now: dt.datetime) -> None:
    db = collection.database
    target.capabilities = {
        **target.capabilities,
        "dbid": db.dbid, "db_name": db.db_name, "release": db.release, "rac": db.is_rac,
        "instances": list(db.instances), "pack_access": db.pack_access, "block_size_bytes": db.block_size_bytes,
    }
    target.next_collect_at = now + dt.timedelta(minutes=target.interval_minutes)
    target.save(update_fields=["capabilities", "next_collect_at"])


def _target_push_next(target: Target) -> None:
    # A failing target must not be retried by the scheduler every tick.
    Target.objects.filter(pk=target.pk).update(
        next_collect_at=timezone.now() + dt.timedelta(minutes=target.interval_minutes)
    )


def targets_due(*, now: dt.datetime) -> list[int]:
    """Claim the enabled live targets whose next collection is due (conditional UPDATE per target)."""
    from django.db.models import Q

    claimed = []
    for target in Target.objects.enabled().filter(
        Q(next_collect_at__isnull=True) | Q(next_collect_at__lte=now), mode__in=list(PRIMARY_KIND)
    ):
        # Claim: move next_collect_at forward only if nobody else did meanwhile.
        updated = Target.objects.filter(pk=target.pk, next_collect_at=target.next_collect_at).update(
            next_collect_at=now + dt.timedelta(minutes=target.interval_minutes)
        )
        if updated == 1:
            claimed.append(target.id)
    return claimed


def snapshot_collect_due(*, now: dt.datetime) -> int:
    """Fan out: one queued run + task per due target. Does no Oracle I/O itself."""
    count = 0
    for target_id in targets_due(now=now):
        with transaction.atomic():
            run_enqueue(target=Target.objects.get(pk=target_id), trigger="schedule")
        count += 1
    return count


def snapshot_prune(*, now: dt.datetime) -> int:
    """Delete raw snapshots older than RETENTION_DAYS before each target's latest snapshot.

    The horizon is per target, not "now": an imported old AWR report is the
    only data of a report-only target and must outlive the retention period.
    Recommendations (with their history) stay. The daily rollups of the days
    touched go with the snapshots (the delete trigger of snapshots migration
    0009): a day wholly before the horizon is gone, the day it cuts is rolled
    up again from what is left.
    """
    from django.db.models import Max

    keep = dt.timedelta(days=get_config()["RETENTION_DAYS"])
    deleted = 0
    latest_by_target = Snapshot.objects.values("target_id").annotate(latest=Max("end_at")).order_by()
    for row in latest_by_target:
        horizon = min(row["latest"], now) - keep
        count, _ = Snapshot.objects.filter(target_id=row["target_id"], end_at__lt=horizon).delete()
        deleted += count
    return deleted


def schedule_install() -> list[str]:
    """Write the beat schedule (config/settings/celery.py) into django-celery-beat's tables."""
    from django.conf import settings
    from django_celery_beat.models import IntervalSchedule, PeriodicTask

    lines = []
    for name, entry in settings.TIERSCOPE_BEAT_SCHEDULE.items():
        interval, _ = IntervalSchedule.objects.get_or_create(every=entry["every_seconds"], period=IntervalSchedule.SECONDS)
        _, created = PeriodicTask.objects.update_or_create(
            name=name, defaults={"task": entry["task"], "interval": interval, "enabled": True}
        )
        if created:
            lines.append(f"scheduled {name} every {entry['every_seconds']} s")
    return lines
