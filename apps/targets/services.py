"""Writes and operations on targets."""

from __future__ import annotations

import dataclasses
import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError

from apps.core.config import get_config
from apps.targets.base import CheckStep, Source
from apps.targets.demo.moves import target_moves
from apps.targets.demo.source import DemoSource
from apps.targets.models import Target, TargetCheck
from apps.targets.oracle.connection import Limits
from apps.targets.oracle.source import OracleSource

DEMO_TARGET_NAME = "demo"


def source_for(target: Target, *, run_timeout_s: float | None = None) -> Source:
    """The source that reads this target (imported lazily: a worker only loads what it uses).

    A live Oracle source gets the connect, call and whole-run limits of the tunables;
    ``run_timeout_s`` replaces the whole-run one (a connection check needs less than a collection).
    """
    if target.mode == Target.Mode.DEMO:
        return DemoSource(seed=target.demo_seed, db_name=target.name.upper()[:8] or "DEMO",
                          moves=target_moves(created_at=target.created_at, capabilities=target.capabilities))
    if target.mode in (Target.Mode.AWR, Target.Mode.NOPACK):
        config = get_config()
        limits = Limits(connect_timeout_s=config["ORACLE_CONNECT_TIMEOUT_S"],
                        call_timeout_ms=config["ORACLE_CALL_TIMEOUT_MS"],
                        run_timeout_s=run_timeout_s or config["COLLECT_RUN_TIMEOUT_S"])
        return OracleSource(dsn=target.dsn, user=target.username, password=target.get_password(),
                            mode=target.mode, limits=limits, name=target.name)
    raise ValueError(f"Target {target.name!r} is {target.mode}: it is fed by imports, not collected.")


REPORT_ONLY_FINDING = "report-only target: fed by imports, nothing to connect to"


class TargetCheckGone(Exception):
    """The check was deleted with its target before its task ran: nothing to do."""


def target_check_enqueue(*, target: Target, requested_by: str) -> TargetCheck:
    """Record a queued "test connection" and send its task once the row is committed.

    If the broker cannot be reached the check is failed at once with the reason (it never stays
    queued); the caller reads ``status`` after the commit to tell the user.
    """
    check = TargetCheck.objects.create(target=target, requested_by=requested_by, queued_at=timezone.now())
    transaction.on_commit(lambda: _target_check_send(check.id))
    return check


def _target_check_send(check_id: int) -> None:
    from apps.targets.tasks import target_check as target_check_task  # cycle: apps.targets.tasks

    app = target_check_task.app
    try:
        if app.conf.task_always_eager:  # tests: the task runs here, no broker involved
            target_check_task.apply_async(args=(check_id,))
            return
        # One connection attempt and no publish retries: a broker that is down must answer the
        # admin now, not after kombu's retries (broker_connection_timeout, 4 s by default, and more).
        with app.connection_for_write() as connection:
            connection.ensure_connection(max_retries=0)
            target_check_task.apply_async(args=(check_id,), connection=connection, retry=False)
    except OperationalError as exc:
        target_check_fail(check_id=check_id, error=(
            f"Could not queue the check: the task broker did not answer ({exc}). Start Redis (REDIS_URL) "
            "and the worker, then test the connection again."))


def target_check(*, check_id: int) -> TargetCheck:
    """Run a queued check step by step, saving each step as it completes.

    Idempotent: only a queued check is claimed (conditional UPDATE); running it again, or on a
    second worker, leaves the row as the first run wrote it. Raises TargetCheckGone when the check
    was deleted with its target.
    """
    now = timezone.now()
    claimed = TargetCheck.objects.filter(pk=check_id, status=TargetCheck.Status.QUEUED).update(
        status=TargetCheck.Status.RUNNING, started_at=now)
    check = TargetCheck.objects.select_related("target").filter(pk=check_id).first()
    if check is None:
        raise TargetCheckGone(f"check {check_id} no longer exists (its target was deleted)")
    if not claimed:
        return check

    def record(step: CheckStep) -> None:
        check.steps = [*check.steps, dataclasses.asdict(step)]
        check.save(update_fields=["steps"])

    if check.target.is_live:
        findings = source_for(check.target, run_timeout_s=get_config()["TARGET_CHECK_TIMEOUT_S"]).check(report=record)
    else:
        findings = [REPORT_ONLY_FINDING]
        record(CheckStep(step="source", ok=False, detail=REPORT_ONLY_FINDING))
    check.status = TargetCheck.Status.FAILED if findings else TargetCheck.Status.PASSED
    check.error = "; ".join(findings)
    check.finished_at = timezone.now()
    check.save(update_fields=["status", "error", "finished_at"])
    return check


def target_check_fail(*, check_id: int, error: str) -> None:
    """End a check that has not finished (broker down, time limit) with the reason."""
    TargetCheck.objects.filter(pk=check_id).exclude(
        status__in=[TargetCheck.Status.PASSED, TargetCheck.Status.FAILED]
    ).update(status=TargetCheck.Status.FAILED, error=error, finished_at=timezone.now())


def target_create(
    *, name: str, mode: str, dsn: str = "", username: str = "", password: str = "", interval_minutes: int = 60
) -> Target:
    """Create a target after validating it like the admin form does."""
    target = Target(name=name, mode=mode, dsn=dsn, username=username, interval_minutes=interval_minutes)
    target.set_password(password)
    target.full_clean()
    if mode in (Target.Mode.AWR, Target.Mode.NOPACK):
        missing = [label for label, value in (("--dsn", dsn), ("--user", username), ("password", password)) if not value]
        if missing:
            raise ValidationError(f"A {mode} target needs {', '.join(missing)}.")
    target.save()
    return target


def target_ensure_demo() -> list[str]:
    """The built-in demo target (idempotent); its tablespaces are mapped to tiers by the tiering app
    (apps.tiering.tiers.demo_tablespaces_map)."""
    target, created = Target.objects.get_or_create(
        name=DEMO_TARGET_NAME, defaults={"mode": Target.Mode.DEMO, "interval_minutes": 60}
    )
    return [f"created demo target {target.name!r}"] if created else []


def target_checks_reap(*, now: dt.datetime) -> int:
    """Fail the checks a dead worker left "running", or whose task never started, with the reason.

    A check bounds itself (TARGET_CHECK_TIMEOUT_S) and its task is killed a minute after that, so a
    check running two minutes past it has no worker left; a queued one gets ten minutes.
    """
    limit_s = get_config()["TARGET_CHECK_TIMEOUT_S"] + 60
    running = TargetCheck.objects.filter(status=TargetCheck.Status.RUNNING,
                                         started_at__lt=now - dt.timedelta(seconds=limit_s + 120))
    failed = running.update(status=TargetCheck.Status.FAILED, finished_at=now,
                            error="The worker running this check stopped before it finished; test the connection again.")
    queued = TargetCheck.objects.filter(status=TargetCheck.Status.QUEUED, queued_at__lt=now - dt.timedelta(minutes=10))
    failed += queued.update(status=TargetCheck.Status.FAILED, finished_at=now,
                            error="Never started: no worker took the check within 10 minutes (is the worker running?).")
    return failed
