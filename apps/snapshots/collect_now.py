"""Collect a live target now, for a person: the one service behind the pages' and the API's "collect now"."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction

from apps.core.audit import audit_event_record
from apps.snapshots.models import CollectionRun
from apps.snapshots.runs import BrokerUnavailable, run_enqueue
from apps.targets.models import Target


def collect_now(*, target: Target, actor: Any) -> CollectionRun:
    """Queue a manual collection of ``target`` and audit it, queued or not.

    Raises PermissionDenied for a report-only target (nothing to connect to) and BrokerUnavailable when the task
    broker did not answer; the run is then recorded as failed with the reason, never left queued.
    """
    if not target.is_live:
        raise PermissionDenied(f"{target.name} is report-only: import reports instead of collecting.")
    try:
        with transaction.atomic():
            run = run_enqueue(target=target, trigger="manual")
    except BrokerUnavailable as exc:
        audit_event_record(actor=actor, action="collect now", target=target, outcome=f"not queued: {exc}")
        raise
    audit_event_record(actor=actor, action="collect now", target=target, outcome=f"queued as run {run.id}")
    return run
