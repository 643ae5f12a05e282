"""Deleting a target: hidden at once, its data removed by a worker in short transactions, then its row.

A target of 100k segments took 25 s to delete in the web request, in one transaction, with one day of
statistics, and would take minutes with a month of them (docs/limitations.md). So the request only marks it
(``target_delete_request``): from its commit the target is gone from ``Target.objects`` (every page, list,
schedule, alert and task: they treat it as deleted), its name is free for a new target, and a task removes
what belongs to it (``target_purge``). The purge goes through Target's relations as Django's delete does
(on_delete, signals, cascades), a batch of rows a transaction, the batch sized from what the last one removed
with its cascades (about PURGE_ROWS_PER_TRANSACTION rows): a snapshot of 100k statistics one at a time, a
target's small rows up to PURGE_BATCH_MAX at a time. It is idempotent and resumable: a purge that died is sent again
by ``target_purges_resume`` (beat), and goes on where the last one stopped; one purge of a target runs at a time
(LockSpace.TARGET_PURGE).
"""

from __future__ import annotations

import datetime as dt
import logging

from auditlog.context import disable_auditlog
from auditlog.receivers import log_delete
from django.db import models, transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from apps.core.locks import LockSpace, lock_release, lock_try
from apps.targets.models import Target

logger = logging.getLogger(__name__)

#: About how many rows (with their cascades) one transaction of a purge deletes.
PURGE_ROWS_PER_TRANSACTION = 200_000
#: The most parent rows one transaction deletes, however few rows each brings.
PURGE_BATCH_MAX = 5_000
#: A purge not finished after this long is sent again (its worker died, or the broker was down).
PURGE_RESEND_AFTER = dt.timedelta(minutes=10)


def tombstone_name(target: Target) -> str:
    """The name a target being deleted carries: "~" is refused in target names, so it never clashes with one."""
    return f"~{target.pk}~{target.name}"[: Target._meta.get_field("name").max_length]


def target_delete_request(*, target: Target, now: dt.datetime | None = None) -> None:
    """Hide ``target`` and free its name now; its purge is sent once this transaction commits.

    The audit log records the delete here, by whoever asked for it, under the target's name: the entry Django's
    delete would have written (auditlog's own receiver); the purge, a worker's, writes none.
    """
    marked = Target.all_objects.filter(pk=target.pk, deleting_since__isnull=True).update(
        deleting_since=now or timezone.now(), enabled=False, name=tombstone_name(target))
    if marked:  # not when asked twice (a stale instance): the first ask logged it and sent the purge
        log_delete(Target, instance=target)
        transaction.on_commit(lambda: _purge_send(target.pk))


def target_purge(*, target_id: int) -> dict[str, int]:
    """Delete a target marked for deletion and everything of it, a batch a transaction; rows deleted by model.

    A target not marked (or gone) is left alone: {}; so is one whose purge another worker runs (sent again by beat
    while a long one still goes on).
    """
    if not lock_try(LockSpace.TARGET_PURGE, target_id):
        logger.info("target %s: another worker is purging it; this purge leaves it to that one", target_id)
        return {}
    try:
        return _purge(target_id)
    finally:
        lock_release(LockSpace.TARGET_PURGE, target_id)


def _purge(target_id: int) -> dict[str, int]:
    target = Target.all_objects.filter(pk=target_id, deleting_since__isnull=False).first()
    if target is None:
        return {}
    deleted: dict[str, int] = {}
    with disable_auditlog():  # recorded when asked for (target_delete_request)
        for relation in target._meta.related_objects:
            if relation.on_delete is models.CASCADE:  # the others (PROTECT, SET_NULL): the last delete applies them
                rows = relation.related_model._base_manager.filter(**{relation.field.name: target})
                _children_purge(rows, deleted)
        with transaction.atomic():
            _, counts = Target.all_objects.filter(pk=target_id).delete()
    _count(deleted, counts)
    logger.info("target %s (%s) deleted, asked for at %s: %s", target_id, target.name, target.deleting_since,
                ", ".join(f"{count} {label}" for label, count in sorted(deleted.items())))
    return deleted


def _children_purge(rows: models.QuerySet, deleted: dict[str, int]) -> None:
    """Delete ``rows`` (and their cascades) in batches sized to about PURGE_ROWS_PER_TRANSACTION rows each."""
    batch = 1
    while ids := list(rows.order_by("pk").values_list("pk", flat=True)[:batch]):
        with transaction.atomic():
            total, counts = rows.filter(pk__in=ids).delete()
        _count(deleted, counts)
        per_parent = max(total / len(ids), 1.0)
        batch = max(1, min(PURGE_BATCH_MAX, int(PURGE_ROWS_PER_TRANSACTION / per_parent)))


def _count(deleted: dict[str, int], counts: dict[str, int]) -> None:
    for label, count in counts.items():
        deleted[label] = deleted.get(label, 0) + count


def target_purges_resume(*, now: dt.datetime) -> list[int]:
    """Send again the purges of targets marked PURGE_RESEND_AFTER ago or more and still there."""
    stale = list(Target.all_objects.filter(deleting_since__lte=now - PURGE_RESEND_AFTER)
                 .order_by("pk").values_list("pk", flat=True))
    for target_id in stale:
        _purge_send(target_id)
    return stale


def _purge_send(target_id: int) -> None:
    from apps.targets.tasks import target_purge as target_purge_task  # cycle: apps.targets.tasks

    try:
        target_purge_task.apply_async((target_id,), retry=False)
    except BrokerError as exc:  # hidden already; beat's target_purges_resume sends it again
        logger.error("target %s: its purge was not queued, the task broker did not answer (%s); sent again "
                     "within %s", target_id, exc, PURGE_RESEND_AFTER)
