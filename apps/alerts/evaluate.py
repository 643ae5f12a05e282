"""Deciding what to tell: the states of the alerts move on, and only a change makes a message.

Run from beat (every alert, every minute: a target that stopped collecting, a stale worker or beat) and
after a run ends (that target at once), a refresh succeeds (its new moves) or a plan changes state. Each
alert's state is a row (AlertState) changed by a conditional UPDATE, so two evaluations at once tell it
once; a target that stays failed is told about once, and once more when it collects again (recovery).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from apps.alerts.models import AlertRule, AlertState
from apps.alerts.outbox import Event, events_queue
from apps.core.heartbeat import PROCESSES, heartbeat_read
from apps.snapshots.run_selectors import RunFigures, run_figures
from apps.targets.models import Target
from apps.tiering.moves.selectors import moves_current

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Condition:
    key: str
    firing: bool | Callable[[AlertRule], bool]  # a target's: from the rule's threshold
    event: Event  # what is told when it starts (the recovery is worded from it)


def rules_for(target: Target, rules: list[AlertRule] | None = None) -> list[AlertRule]:
    """The target's own enabled rules, else the enabled global ones (from ``rules`` when given: every enabled
    rule, read once per pass)."""
    if rules is None:
        rules = list(AlertRule.objects.filter(enabled=True).filter(Q(target=target) | Q(target=None)))
    own = [rule for rule in rules if rule.target_id == target.id]
    return own or [rule for rule in rules if rule.target_id is None]


def state_change(*, rule: AlertRule, key: str, firing: bool, now: dt.datetime, detail: str = "") -> bool:
    """Record the alert's state; True when it changed (from a known other state, or first seen firing)."""
    state, created = AlertState.objects.get_or_create(
        rule=rule, key=key, defaults={"firing": firing, "changed_at": now, "detail": detail})
    if created:
        return firing
    changed = AlertState.objects.filter(pk=state.pk, firing=not firing).update(
        firing=firing, changed_at=now, detail=detail)
    return bool(changed)


def alerts_evaluate(*, now: dt.datetime, target_id: int | None = None) -> list[Event]:
    """Evaluate every target's alerts (or one target's), and the worker's and beat's when all; queue the
    messages of the changes, per rule (a digest when a rule has much to say). Returns the events told."""
    rules = list(AlertRule.objects.filter(enabled=True))
    if not rules:
        return []
    targets = Target.objects.all() if target_id is None else Target.objects.filter(pk=target_id)
    figures = run_figures(target_id=target_id)
    changes: dict[AlertRule, list[Event]] = defaultdict(list)
    with transaction.atomic():
        for target in targets:
            conditions = target_conditions(target, figures.get(target.id), now=now)
            for rule in rules_for(target, rules):
                changes[rule] += _changed(rule, [c for c in conditions if _watched(rule, c.key)], now=now)
        if target_id is None:
            watching = [rule for rule in rules if rule.target_id is None and rule.heartbeats]
            conditions = heartbeat_conditions() if watching else []
            for rule in watching:
                changes[rule] += _changed(rule, conditions, now=now)
        for rule, events in changes.items():
            events_queue(rule=rule, events=events, now=now)
    return [event for events in changes.values() for event in events]


def _watched(rule: AlertRule, key: str) -> bool:
    kind = key.split(":", 1)[0]
    return {"failing": rule.failures_in_a_row is not None, "stale": rule.missed_intervals is not None}[kind]


def _changed(rule: AlertRule, conditions: list[Condition], *, now: dt.datetime) -> list[Event]:
    events = []
    for condition in conditions:
        firing = condition.firing(rule) if callable(condition.firing) else condition.firing
        if state_change(rule=rule, key=condition.key, firing=firing, now=now, detail=condition.event.detail):
            events.append(condition.event if firing else condition.event.recovered())
    return events


def target_conditions(target: Target, figures: RunFigures | None, *, now: dt.datetime) -> list[Condition]:
    """The target's failing and stale conditions; their thresholds are the rule's (resolved in _changed)."""
    failures = figures.consecutive_failures if figures else 0
    last_ok = figures.last_success_at if figures else None

    # Asked only of the rules that watch them (_watched): a rule without the threshold is never firing.
    def failing(rule: AlertRule) -> bool:
        threshold = rule.failures_in_a_row
        return target.enabled and threshold is not None and failures >= threshold

    def stale(rule: AlertRule) -> bool:
        since, missed = last_ok or target.created_at, rule.missed_intervals
        return target.enabled and target.is_live and missed is not None and \
            now - since > dt.timedelta(minutes=target.interval_minutes * missed)

    ago = f"last success {last_ok:%Y-%m-%d %H:%M} UTC" if last_ok else "never collected"
    return [
        Condition(key=f"failing:{target.id}", firing=failing, event=Event(
            kind="failing", target=target.name, title=f"{target.name}: collection failing",
            detail=f"{failures} collection(s) failed in a row ({ago}); see /runs/ for the error")),
        Condition(key=f"stale:{target.id}", firing=stale, event=Event(
            kind="stale", target=target.name, title=f"{target.name}: not collected",
            detail=f"no successful collection for {_span(now - last_ok) if last_ok else 'ever'} "
                   f"(interval {target.interval_minutes} min; {ago})")),
    ]


def heartbeat_conditions() -> list[Condition]:
    conditions = []
    for process in PROCESSES:
        beat = heartbeat_read(process=process, stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
        conditions.append(Condition(key=f"heartbeat:{process}", firing=not beat.ok, event=Event(
            kind="heartbeat", target="", title=f"Celery {process} not alive", detail=f"{process}: {beat.detail}")))
    return conditions


def _span(delta: dt.timedelta) -> str:
    hours = delta.total_seconds() / 3600
    return f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.1f} days"


def alert_moves_check(*, target_id: int, now: dt.datetime) -> list[Event]:
    """After a refresh: tell each rule with a threshold about the moves it had not been told of, when their
    monthly savings (known ones) add up to more than its threshold."""
    target = Target.objects.get(pk=target_id)
    rules = [(rule, threshold) for rule in rules_for(target) if (threshold := rule.new_moves_usd_per_month) is not None]
    if not rules:
        return []
    moves = moves_current(target_id=target_id)
    told = []
    for rule, threshold in rules:
        with transaction.atomic():
            state, _ = AlertState.objects.select_for_update().get_or_create(
                rule=rule, key=f"moves:{target_id}", defaults={"changed_at": now})
            new = set(moves) - set(state.memo)
            worth = sum((move for s in new if (move := moves[s]) is not None), Decimal(0))
            state.memo, state.changed_at = sorted(moves), now
            state.save(update_fields=["memo", "changed_at"])
            if new and worth > threshold:
                event = Event(kind="moves", target=target.name, title=f"{target.name}: new moves worth ${worth:,.2f}"
                              " a month", detail=f"{len(new)} new move(s) recommended, saving ${worth:,.2f} per "
                                                 f"month together (threshold ${threshold:,.2f})")
                events_queue(rule=rule, events=[event], now=now)
                told.append(event)
    return told


def alert_plan_changed(*, plan_id: int, state: str, by: str, target: Target, now: dt.datetime) -> list[Event]:
    """Tell the target's rules that a plan changed state (once per plan and state, however often asked)."""
    told = []
    event = Event(kind="plan", target=target.name, title=f"{target.name}: plan {plan_id} {state}",
                  detail=f"move plan {plan_id} of {target.name} is now {state} (by {by})")
    for rule in rules_for(target):
        if not rule.plan_changes:
            continue
        with transaction.atomic():
            if state_change(rule=rule, key=f"plan:{plan_id}:{state}", firing=True, now=now, detail=event.detail):
                events_queue(rule=rule, events=[event], now=now)
                told.append(event)
    return told
