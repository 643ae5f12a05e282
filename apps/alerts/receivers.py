"""Signal receivers: each queues the evaluation task that follows (the signals are sent after commit)."""

from __future__ import annotations

from typing import Any

from apps.alerts.tasks import alert_moves_check as alert_moves_check_task
from apps.alerts.tasks import alert_plan_changed as alert_plan_changed_task
from apps.alerts.tasks import alerts_evaluate as alerts_evaluate_task


def on_run_ended(sender: Any, *, target_id: int, run_id: int, status: str, **kwargs: Any) -> None:
    alerts_evaluate_task.delay(target_id=target_id)


def on_refresh_succeeded(sender: Any, *, target_id: int, refresh_id: int, **kwargs: Any) -> None:
    alert_moves_check_task.delay(target_id=target_id)


def on_plan_state_changed(sender: Any, *, plan_id: int, state: str, by: str, **kwargs: Any) -> None:
    alert_plan_changed_task.delay(plan_id=plan_id, state=state, by=by)
