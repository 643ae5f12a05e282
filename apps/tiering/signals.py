"""What the tiering app tells the apps after it (dashboard, alerts), without importing them."""

from __future__ import annotations

import logging
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

#: Sent once a refresh of a target's recommendations has succeeded (committed), with ``target_id`` and
#: ``refresh_id``. The alerts listen (new moves worth more than a threshold).
refresh_succeeded = Signal()

#: Sent when a recommendation run's rows are written, before it becomes current, with ``run``. The dashboard
#: stores the figures its pages show for the run (apps.dashboard.recommendations.run_figures); a page computes
#: them itself if they are missing.
run_rows_written = Signal()

#: Sent once a plan's state change is committed, with ``plan_id``, ``state`` (the new one) and ``by``.
plan_state_changed = Signal()


def announce(signal: Signal, **kwargs: Any) -> None:
    """Send ``signal`` to every listener; one that fails is logged and fails nothing here."""
    for receiver, outcome in signal.send_robust(sender=None, **kwargs):
        if isinstance(outcome, Exception):
            logger.error("%s failed on %s: %s", receiver, kwargs, outcome)
