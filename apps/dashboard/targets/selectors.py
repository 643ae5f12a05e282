"""What the targets page (/manage/targets/) reads: one row per target with its last good collection, its
latest run and connection check, and when beat collects it next; and what deleting a target takes with it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import OuterRef, Subquery
from django.utils.timesince import timesince, timeuntil
from django_celery_beat.models import PeriodicTask

from apps.snapshots.models import CollectionRun, Segment, Snapshot
from apps.targets.models import StorageLocation, TablespaceTier, Target, TargetCheck
from apps.tiering.models import RecommendationRun
from apps.tiering.plans.models import Plan

# Badge classes of the stylesheet for a connection check's status (as on the check's page).
CHECK_BADGE = {"queued": "queued", "running": "running", "passed": "succeeded", "failed": "failed"}
# The beat entry that collects the targets whose interval has elapsed (config/settings/celery.py).
COLLECT_DUE_TASK = "collect-due-targets"


@dataclass(frozen=True)
class Schedule:
    """Whether beat's fan-out is installed and on, and how often it looks for due targets."""

    installed: bool
    enabled: bool
    every_s: int | None

    @property
    def running(self) -> bool:
        return self.installed and self.enabled


@dataclass(frozen=True)
class TargetRow:
    target: Target
    last_success_at: dt.datetime | None  # the end of its last successful collection or import; None: never
    last_run: CollectionRun | None
    last_check: TargetCheck | None
    next_due: str  # when beat collects it next, in words
    next_due_at: dt.datetime | None  # the time behind ``next_due`` when there is one
    last_success: str = "never"  # ``last_success_at`` in words: "12 minutes ago", "never"

    last_check_ago: str = ""  # when the last connection check was asked for, in words

    @property
    def check_badge(self) -> str:
        return CHECK_BADGE[self.last_check.status] if self.last_check else ""


def ago(when: dt.datetime | None, *, now: dt.datetime) -> str:
    """How long ago, in words: "never" for None, "just now" under a minute."""
    if when is None:
        return "never"
    if (now - when).total_seconds() < 60:
        return "just now"
    return f"{timesince(when, now, depth=1)} ago"


def collect_schedule() -> Schedule:
    """The "collect due targets" periodic task as django-celery-beat holds it (written by setup_periodic_tasks)."""
    task = PeriodicTask.objects.select_related("interval").filter(name=COLLECT_DUE_TASK).first()
    if task is None:
        return Schedule(installed=False, enabled=False, every_s=None)
    every_s = None
    if task.interval is not None:
        every_s = int(dt.timedelta(**{task.interval.period: task.interval.every}).total_seconds())
    return Schedule(installed=True, enabled=task.enabled, every_s=every_s)


def next_due(target: Target, *, schedule: Schedule, now: dt.datetime) -> tuple[str, dt.datetime | None]:
    """When beat collects ``target`` next, in words, and the time when there is one: never for a report target,
    a disabled one or with beat's fan-out not installed or off; "due now" when its time has passed (beat picks it
    up at its next tick)."""
    if not target.is_live:
        return "never: fed by imports", None
    if not target.enabled:
        return "never: disabled", None
    if not schedule.running:
        what = "not installed" if not schedule.installed else "disabled"
        fix = "manage.py setup_periodic_tasks" if not schedule.installed else "enable it in the admin's periodic tasks"
        return f"never: beat's schedule is {what} ({fix})", None
    tick = f"within {schedule.every_s} s" if schedule.every_s else "at beat's next tick"
    due = target.next_collect_at
    if due is None or due <= now:
        return f"due now: {tick}", due
    return f"in {timeuntil(due, now)}", due


def target_rows(*, now: dt.datetime) -> list[TargetRow]:
    """Every target with what the page shows (four queries, whatever the number of targets)."""
    runs = CollectionRun.objects.filter(target=OuterRef("pk"))
    succeeded = runs.filter(status=CollectionRun.Status.SUCCEEDED).order_by("-finished_at").values("finished_at")[:1]
    checks = TargetCheck.objects.filter(target=OuterRef("pk")).order_by("-queued_at").values("pk")[:1]
    targets = list(Target.objects.annotate(
        last_success_at=Subquery(succeeded), last_run_id=Subquery(runs.order_by("-queued_at").values("pk")[:1]),
        last_check_id=Subquery(checks)))
    last_runs = CollectionRun.objects.in_bulk([t.last_run_id for t in targets if t.last_run_id])
    last_checks = TargetCheck.objects.in_bulk([t.last_check_id for t in targets if t.last_check_id])
    schedule = collect_schedule()
    rows = []
    for target in targets:
        words, at = next_due(target, schedule=schedule, now=now)
        check = last_checks.get(target.last_check_id)
        rows.append(TargetRow(target=target, last_success_at=target.last_success_at,
                              last_run=last_runs.get(target.last_run_id), last_check=check,
                              next_due=words, next_due_at=at, last_success=ago(target.last_success_at, now=now),
                              last_check_ago=ago(check.queued_at, now=now) if check else ""))
    return rows


def target_delete_summary(*, target: Target) -> list[tuple[str, int]]:
    """What deleting ``target`` removes with it, as (what, how many), the kinds it has none of left out."""
    counts = [
        ("snapshot", Snapshot.objects.filter(target=target).count()),
        ("segment", Segment.objects.filter(target=target).count()),
        ("collection run", CollectionRun.objects.filter(target=target).count()),
        ("recommendation run", RecommendationRun.objects.filter(target=target).count()),
        ("plan", Plan.objects.filter(target=target).count()),
        ("tablespace-to-tier mapping", TablespaceTier.objects.filter(target=target).count()),
        ("storage location", StorageLocation.objects.filter(target=target).count()),
        ("connection check", TargetCheck.objects.filter(target=target).count()),
    ]
    return [(what, count) for what, count in counts if count]

