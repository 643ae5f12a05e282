"""``whatif``'s report: per-object costs, break-evens and placements, with their money's unit."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal

from apps.tiering.costmodel import (
    DEFAULT_AMORTISATION_MONTHS,
    PER_MONTH,
    PURCHASE,
    BillingBasis,
    BreakEven,
    DeviceTier,
    ObjectChoice,
    Placement,
    StorageObject,
    Tier,
    break_evens,
    choose_tiers,
    place_all_on,
    place_recommended,
)
from apps.tiering.optimizer import InfeasiblePlacementError, OptimizationResult, optimize_placement
from apps.tiering.whatif.inputs import WhatIfError


@dataclass(frozen=True)
class WhatIfReport:
    """Everything the three output formats show.

    Costs are in ``cost_unit``: the tiers' own when they share one billing basis (the seed's purchase
    totals stay exact), else per month (purchase prices amortised, :func:`per_month_tiers`);
    :meth:`per_month` turns a cost into the monthly figure shown beside it.
    """

    tiers: tuple[Tier, ...]
    break_evens: tuple[BreakEven, ...]
    choices: tuple[ObjectChoice, ...]
    placements: tuple[Placement, ...]  # recommended, all on <tier>..., optimized
    optimization: OptimizationResult
    billing: Mapping[str, BillingBasis] = field(default_factory=dict)  # per tier name, as given
    cost_unit: str = PER_MONTH
    months: int = DEFAULT_AMORTISATION_MONTHS

    def per_month(self, amount: Decimal) -> Decimal:
        return amount / self.months if self.cost_unit == PURCHASE else amount


def per_month_tiers(tiers: Sequence[Tier], billing: Mapping[str, BillingBasis]) -> tuple[Tier, ...]:
    """The tiers with purchase prices divided by their amortisation months, so all are priced per month.

    >>> from apps.tiering.costmodel import DeviceTier
    >>> flash = DeviceTier(name="flash", device_cost_usd=Decimal(9600), device_gb=320, device_iops=30000)
    >>> per_month_tiers([flash], {"flash": BillingBasis(purchase=True)})[0].device_cost_usd
    Decimal('160')
    """
    monthly = []
    for tier in tiers:
        basis = billing[tier.name]
        prices = {name: getattr(tier, name) / basis.divisor for name in _PRICE_FIELDS
                  if basis.purchase and getattr(tier, name, None) is not None}
        monthly.append(replace(tier, **prices))
    return tuple(monthly)


_PRICE_FIELDS = ("device_cost_usd", "usd_per_gb_price", "usd_per_iops_price")


def whatif_report(
    tiers: Sequence[Tier], objects: Sequence[StorageObject], *, time_limit_s: float = 30.0,
    billing: Mapping[str, BillingBasis] | None = None,
) -> WhatIfReport:
    """Per-object costs, break-evens and the placements for a tier set.

    ``billing`` gives each tier's basis (default: device tiers a purchase over 60 months, the others
    monthly); tiers billed differently are compared per month.
    """
    if billing is None:
        billing = {t.name: BillingBasis(purchase=isinstance(t, DeviceTier)) for t in tiers}
    bases = {billing[t.name] for t in tiers}
    months = next(iter(bases)).months if bases else DEFAULT_AMORTISATION_MONTHS
    if len({basis.purchase for basis in bases}) > 1:
        tiers, unit = per_month_tiers(tiers, billing), PER_MONTH
    else:
        unit = next(iter(bases)).unit
    choices = choose_tiers(objects, tiers)
    try:
        optimization = optimize_placement(objects, tiers, time_limit_s=time_limit_s)
    except InfeasiblePlacementError as error:
        raise WhatIfError(f"tiers: {error}") from None
    placements = (
        place_recommended(objects, tiers, choices),
        *(place_all_on(objects, tiers, tier) for tier in tiers),
        optimization.placement,
    )
    return WhatIfReport(tuple(tiers), tuple(break_evens(tiers)), tuple(choices), placements, optimization,
                        dict(billing), unit, months)
