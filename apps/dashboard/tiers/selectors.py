"""What the tiers page reads: the tiers grouped by tier set, each with its intensity, break-evens, billing
basis and the targets using it."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from apps.targets.models import Target
from apps.tiering import costmodel
from apps.tiering.models import Tier, TierSet
from apps.tiering.tiers import tier_to_model


@dataclass(frozen=True)
class TierView:
    tier: Tier
    intensity: float | None  # ($/GB) / ($/IOPS), None when the figures are unusable
    usd_per_gb: Decimal | None = None
    usd_per_iops: Decimal | None = None


@dataclass(frozen=True)
class TierSetView:
    name: str
    tiers: list[TierView]
    break_evens: list[costmodel.BreakEven]
    targets: list[str]
    basis: costmodel.BillingBasis = costmodel.BillingBasis(purchase=True)
    tier_set: TierSet | None = None  # the row: its settings (hysteresis, moves worth making)


def tier_catalog() -> list[TierSetView]:
    """Tiers grouped by tier set with tier intensities, break-evens, the billing basis and the targets using
    each set (three queries)."""
    groups: dict[str, list[Tier]] = defaultdict(list)
    for tier in Tier.objects.order_by("tier_set", "name"):
        groups[tier.tier_set_id].append(tier)
    users: dict[str, list[str]] = defaultdict(list)
    for name, set_id in Target.objects.values_list("name", "tier_set"):
        users[set_id].append(name)
    sets = []
    for tier_set in TierSet.objects.order_by("name"):
        set_name, tiers = tier_set.name, groups.get(tier_set.name, [])
        views, models = [], []
        for tier in tiers:
            try:
                model = tier_to_model(tier)
                intensity = model.intensity
                per_gb, per_iops = model.usd_per_gb, model.usd_per_iops
            except (costmodel.CostModelError, ArithmeticError):
                views.append(TierView(tier=tier, intensity=None))
                continue
            models.append(model)
            views.append(TierView(tier=tier, intensity=intensity, usd_per_gb=per_gb, usd_per_iops=per_iops))
        views.sort(key=lambda v: (v.intensity is None, v.intensity or 0.0, v.tier.name))
        sets.append(TierSetView(name=set_name, tiers=views, break_evens=costmodel.break_evens(models),
                                targets=users.get(set_name, []), basis=tier_set.basis, tier_set=tier_set))
    return sets
