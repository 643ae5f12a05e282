"""Collecting and storing samples: one collection run of one target.

`manage.py collect <target>`, the scheduled task and the "collect now" button
all end in :func:`snapshot_collect`. The run's lifecycle (queued, running,
ended; reaped when its process died) is apps.snapshots.runs, shared with the
imports; once a run succeeds, :data:`apps.snapshots.signals.run_succeeded`
tells the recommendations to refresh, as a task of their own.
"""

from __future__ import annotations

import datetime as dt
import logging

from django.conf import settings
from django.db import DatabaseError, InterfaceError, OperationalError, transaction
from django.db.models import Max, Q
from django.utils import timezone
from django_celery_beat.models import IntervalSchedule, PeriodicTask

from apps.core.config import get_config
from apps.core.db import connection_reset
from apps.core.errors import first_line
from apps.snapshots import store
from apps.snapshots.codec import sample_from_json, sample_to_json
from apps.snapshots.models import CollectionRun, SampleState, Snapshot, TablespaceSpace
from apps.snapshots.partitions import partitions_drop, partitions_droppable
from apps.snapshots.runs import (
    BrokerUnavailable,
    CollectionBusy,
    RunEnded,
    run_enqueue,
    run_finish,
    run_lifecycle,
    run_succeed,
)
from apps.snapshots.sqlstats.services import segment_sql_prune, segment_sql_store
from apps.snapshots.storage_map import datafiles_store
from apps.targets.base import CollectState, SourceError
from apps.targets.deltas import sample_interval
from apps.targets.models import Target
from apps.targets.rows import Collection
from apps.targets.services import source_for

logger = logging.getLogger(__name__)

#: The snapshot kind a live source's own snapshots are stored under.
PRIMARY_KIND = {"awr": "awr", "nopack": "awr", "demo": "demo"}


class CollectRetryable(Exception):
    """A transient failure with retries left: the caller retries the same run later."""

    def __init__(self, message: str, *, run_id: int) -> None:
        super().__init__(message)
        self.run_id = run_id


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
    if collection.tablespaces:
        store.tablespace_space_store(target_id=target.id, collected_at=now, rows=collection.tablespaces)
    if collection.datafiles:
        datafiles_store(target_id=target.id, collected_at=now, rows=collection.datafiles,
                        disk_groups=collection.disk_groups)
    segment_sql_store(target=target, collection=collection, segment_ids=segment_ids, collected_at=now)
    if collection.residency:
        mapping = store.dataobj_map(target_id=target.id, keys_to_ids=segment_ids, collection=collection)
        result.rows_added += store.residency_store(
            target_id=target.id, collected_at=now, rows=collection.residency, dataobj_to_segment=mapping
        )
    return result


def snapshot_collect(*, target_id: int, run_id: int | None = None, trigger: str = "schedule") -> CollectionRun:
    """Collect one target now: read its source and store what is new.

    Raises CollectRetryable only for transient failures with retries left (the
    task retries the same run): a network error or timeout of the target, and
    PostgreSQL going away mid-run. Raises RunEnded when the run was ended
    meanwhile (a late redelivery) or its run or target was deleted. Every other outcome is recorded on the
    returned run; a success is announced (run_succeeded) once committed.
    """
    target = Target.objects.filter(pk=target_id).first()
    if target is None:  # deleted with its runs while this one's task was queued
        raise RunEnded(f"target {target_id} no longer exists (deleted)")
    try:
        with run_lifecycle(target=target, run_id=run_id, trigger=trigger) as run:
            return _collect(target, run)
    except CollectionBusy as busy:
        if busy.redelivered:
            # The dead delivery's session may hold the lock a few seconds more (PostgreSQL ends it when it
            # notices the client is gone): this run is the one to finish, so it waits and retries.
            return _run_failed(busy.run, target, "The target's lock was still held by the session of the attempt "
                               "that died; retrying.", retry=True)
        return busy.run


def _collect(target: Target, run: CollectionRun) -> CollectionRun:
    """Read the target's source and store what is new, under its lock; ``run`` ended with the outcome."""
    try:
        now = timezone.now()
        state = collect_state_build(target=target, now=now)
        collection = source_for(target).collect(state)
        result = collection_store(target=target, collection=collection, kind=PRIMARY_KIND[target.mode], state=state)
        run.snapshots_added, run.rows_added = result.snapshots_added, result.rows_added
        notes = [*_target_after_collect(target, collection, now), *collection.notes]
    except SourceError as exc:
        return _run_failed(run, target, str(exc), retry=not exc.permanent)
    except (OperationalError, InterfaceError) as exc:
        # PostgreSQL went away (restart, failover, network): what was committed is whole; retry like a
        # network error of the target. The run's row may be unreachable too: recorded when it can be.
        connection_reset()
        return _run_failed(run, target, f"PostgreSQL was unreachable: {first_line(exc)}", retry=True)
    except Exception as exc:
        logger.exception("collection of target %s failed", target.name)
        run_finish(run, status=CollectionRun.Status.FAILED, error=f"Internal error: {type(exc).__name__}: {exc}")
        _target_push_next(target)
        raise
    run_succeed(run, notes="\n".join(notes))
    return run


def _run_failed(run: CollectionRun, target: Target, error: str, *, retry: bool) -> CollectionRun:
    retry = retry and run.attempts <= get_config()["COLLECT_MAX_RETRIES"]
    try:
        run_finish(run, status=CollectionRun.Status.QUEUED if retry else CollectionRun.Status.FAILED, error=error)
        _target_push_next(target)
    except DatabaseError as exc:  # still unreachable: the retry (or the reaper) records it later
        connection_reset()
        logger.warning("run %s of target %s: could not record %r: %s", run.id, target.name, error, exc)
    if retry:
        raise CollectRetryable(error, run_id=run.id)
    return run


def _target_after_collect(target: Target, collection: Collection, now: dt.datetime) -> list[str]:
    """Record what the collection says about the database; returns the notes for the run."""
    db = collection.database
    notes = database_change_notes(target=target, dbid=db.dbid, db_name=db.db_name, now=now)
    target.capabilities = {
        **target.capabilities,
        "dbid": db.dbid, "db_name": db.db_name, "release": db.release, "rac": db.is_rac,
        "instances": list(db.instances), "pack_access": db.pack_access, "block_size_bytes": db.block_size_bytes,
    }
    target.next_collect_at = now + dt.timedelta(minutes=target.interval_minutes)
    target.save(update_fields=["capabilities", "next_collect_at"])
    return notes


def database_change_notes(*, target: Target, dbid: int, db_name: str, now: dt.datetime) -> list[str]:
    """A new DBID (the database was recreated, or the DSN now reaches another one): noted on the run and
    kept in the target's capabilities (``database_changes``); the caller saves the target.

    Snapshots are keyed by DBID, and windows read the current DBID's only (apps.snapshots.windows), so
    the history before the change is kept apart, not mixed.
    """
    known = target.capabilities.get("dbid")
    if known is None or int(known) == dbid:
        return []
    changes = [*target.capabilities.get("database_changes", []),
               {"at": now.isoformat(), "from_dbid": int(known), "to_dbid": dbid, "db_name": db_name}]
    target.capabilities = {**target.capabilities, "database_changes": changes}
    logger.warning("target %s: DBID changed from %s to %s", target.name, known, dbid)
    return [f"Database recreated: {db_name} now has DBID {dbid} (was {known}). Figures from now on use the new "
            "database's snapshots only; the history before it is kept apart."]


def _target_push_next(target: Target) -> None:
    # A failing target must not be retried by the scheduler every tick.
    Target.objects.filter(pk=target.pk).update(
        next_collect_at=timezone.now() + dt.timedelta(minutes=target.interval_minutes)
    )


def targets_due(*, now: dt.datetime) -> list[int]:
    """Claim the enabled live targets whose next collection is due (conditional UPDATE per target)."""
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
    """Fan out: one queued run + task per due target. Does no Oracle I/O itself.

    A target whose task cannot be sent (the broker went away meanwhile) stays due: its run is
    failed with the message, and the next tick sends it again.
    """
    count = 0
    for target_id in targets_due(now=now):
        try:
            with transaction.atomic():
                run_enqueue(target=Target.objects.get(pk=target_id), trigger="schedule")
        except BrokerUnavailable:
            Target.objects.filter(pk=target_id).update(next_collect_at=now)
            continue
        count += 1
    return count


def snapshot_prune(*, now: dt.datetime) -> int:
    """Delete raw snapshots older than RETENTION_DAYS before each target's latest snapshot.

    The horizon is per target, not "now": an imported old AWR report is the
    only data of a report-only target and must outlive the retention period.
    Recommendations (with their history) stay. The daily rollups of the days
    touched go with the snapshots (the delete trigger of the snapshots
    migration): a day wholly before the horizon is gone, the day it cuts is rolled
    up again from what is left. A day no target needs has its segment-stat
    partition dropped (apps.snapshots.partitions) rather than its rows deleted.
    """
    keep = dt.timedelta(days=get_config()["RETENTION_DAYS"])
    latest_by_target = Snapshot.objects.values("target_id").annotate(latest=Max("end_at")).order_by()
    horizons = {row["target_id"]: min(row["latest"], now) - keep for row in latest_by_target}
    # Whole days no target needs any more go by dropping their segment-stat partition; what is left past a
    # horizon (the day a horizon cuts, days another target still needs) by deleting rows.
    deleted = partitions_drop(partitions_droppable(horizons=horizons))
    for target_id, horizon in horizons.items():
        count, _ = Snapshot.objects.filter(target_id=target_id, end_at__lt=horizon).delete()
        deleted += count
    tablespace_space_prune(keep=keep)
    segment_sql_prune(keep=keep)
    return deleted


def tablespace_space_prune(*, keep: dt.timedelta) -> int:
    """Delete the room per tablespace of collections older than ``keep`` before each target's latest one. Only
    the latest is read (plans, the target page); the older ones say how the room changed over the same
    horizon the snapshots keep, and past it a row per tablespace per collection would only pile up."""
    deleted = 0
    for row in TablespaceSpace.objects.values("target_id").annotate(latest=Max("collected_at")).order_by():
        count, _ = TablespaceSpace.objects.filter(target_id=row["target_id"],
                                                  collected_at__lt=row["latest"] - keep).delete()
        deleted += count
    return deleted


def schedule_install() -> list[str]:
    """Write the beat schedule (config/settings/celery.py) into django-celery-beat's tables."""
    lines = []
    for name, entry in settings.TIERSCOPE_BEAT_SCHEDULE.items():
        interval, _ = IntervalSchedule.objects.get_or_create(every=entry["every_seconds"], period=IntervalSchedule.SECONDS)
        _, created = PeriodicTask.objects.update_or_create(
            name=name, defaults={"task": entry["task"], "interval": interval, "enabled": True}
        )
        if created:
            lines.append(f"scheduled {name} every {entry['every_seconds']} s")
    return lines
