"""The moves worth making in a target's current recommendations, read by the alerts (new moves past a sum)."""

from __future__ import annotations

from decimal import Decimal

from apps.targets.models import Target
from apps.tiering.models import Recommendation
from apps.tiering.rules.figures import MOVING_ACTIONS


def moves_current(*, target_id: int) -> dict[int, Decimal | None]:
    """Per segment id: the monthly saving of its current move (USD per month; None: not known)."""
    basis = Target.objects.select_related("tier_set").get(pk=target_id).tier_set.basis
    rows = (Recommendation.objects.current(target_id=target_id).counted().filter(action__in=MOVING_ACTIONS)
            .values_list("segment_id", "savings_usd"))
    return {segment_id: basis.per_month(saving) for segment_id, saving in rows}
