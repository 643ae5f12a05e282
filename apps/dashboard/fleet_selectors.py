"""What the pages across targets read: the fleet's rows and totals, the runs, the tier catalog.

The target and segment pages read ``apps.dashboard.selectors``; this module shares its window
(:func:`apps.dashboard.selectors.window_since`) and statistic names.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum

from apps.dashboard.selectors import STAT_FLASH_HITS, STAT_READ_REQUESTS, window_since
from apps.snapshots.models import CollectionRun, SysStat
from apps.targets.models import Target
from apps.tiering import costmodel
from apps.tiering.models import Recommendation, Refresh, Tier, TierSet
from apps.tiering.rules.figures import MOVING_ACTIONS
from apps.tiering.tiers import tier_to_model

# ---------------------------------------------------------------- fleet


@dataclass(frozen=True)
class FleetRow:
    target: Target
    last_run: CollectionRun | None
    segments: int
    cost_now_usd: Decimal | None = None
    cost_after_usd: Decimal | None = None
    savings_usd: Decimal | None = None
    flash_hit_ratio: float | None = None  # 0..1 over the window; None when not collected
    # The costs above are in the unit of the target's tier set (a purchase, or per month); these are per month.
    basis: costmodel.BillingBasis = costmodel.BillingBasis(purchase=True)
    # Segments whose cost the sums leave out (size unknown, tablespace unmapped) or count by GB only (IO not
    # measured): the costs are then lower bounds.
    unpriced: int = 0
    unmeasured: int = 0
    moves: int | None = None  # moves worth making in the current recommendations; None: none computed yet

    @property
    def lower_bound(self) -> bool:
        return bool(self.unpriced or self.unmeasured)

    @property
    def cost_now_usd_per_month(self) -> Decimal | None:
        return self.basis.per_month(self.cost_now_usd)

    @property
    def cost_after_usd_per_month(self) -> Decimal | None:
        return self.basis.per_month(self.cost_after_usd)

    @property
    def savings_usd_per_month(self) -> Decimal | None:
        return self.basis.per_month(self.savings_usd)


def fleet_totals(rows: list[FleetRow]) -> dict[str, Decimal | bool | None]:
    """The fleet's costs per month (``now``, ``after``, ``savings``): every target's in one unit, so a purchase
    is never added to a monthly bill. None where no target has the figure; ``lower_bound`` when a target's
    costs are lower bounds (segments unpriced or with IO not measured).

    >>> seed = costmodel.BillingBasis(purchase=True)
    >>> rows = [FleetRow(None, None, 0, Decimal(18000), Decimal(12000), Decimal(6000), basis=seed),
    ...         FleetRow(None, None, 0, Decimal("12.00"), None, None, basis=costmodel.BillingBasis(purchase=False))]
    >>> fleet_totals(rows)
    {'lower_bound': False, 'now': Decimal('312.00'), 'after': Decimal('200'), 'savings': Decimal('100')}
    """
    totals: dict[str, Decimal | bool | None] = {"lower_bound": any(row.lower_bound for row in rows)}
    for key in ("now", "after", "savings"):
        figures = [getattr(row, f"{'cost_' if key != 'savings' else ''}{key}_usd_per_month") for row in rows]
        known = [figure for figure in figures if figure is not None]
        totals[key] = sum(known, Decimal(0)) if known else None
    return totals


def fleet_overview() -> list[FleetRow]:
    """One row per target: mode, last collection, segments, costs, flash-cache hit ratio (four queries)."""
    last_run_id = CollectionRun.objects.filter(target=OuterRef("pk")).order_by("-queued_at").values("pk")[:1]
    targets = list(Target.objects.select_related("tier_set").annotate(segment_count=Count("segments"),
                                                                      last_run_id=Subquery(last_run_id)))
    runs = CollectionRun.objects.in_bulk([t.last_run_id for t in targets if t.last_run_id])
    costs = {
        r["run__target_id"]: r
        for r in Recommendation.objects.current().counted().values("run__target_id").annotate(
            now=Sum("cost_now_usd"), after=Sum("cost_after_usd"), savings=Sum("savings_usd"),
            unpriced=Count("segment_id", filter=Q(cost_now_usd__isnull=True)),
            unmeasured=Count("segment_id", filter=Q(measured=False)),
            moves=Count("segment_id", filter=Q(action__in=MOVING_ACTIONS)),
        ).order_by()
    }
    ratios = fleet_flash_hit_ratios(since=window_since())
    return [
        FleetRow(
            target=t, last_run=runs.get(t.last_run_id), segments=t.segment_count,
            cost_now_usd=costs.get(t.id, {}).get("now"), cost_after_usd=costs.get(t.id, {}).get("after"),
            savings_usd=costs.get(t.id, {}).get("savings"), flash_hit_ratio=ratios.get(t.id),
            basis=t.tier_set.basis, unpriced=costs.get(t.id, {}).get("unpriced", 0),
            unmeasured=costs.get(t.id, {}).get("unmeasured", 0), moves=costs.get(t.id, {}).get("moves"),
        )
        for t in targets
    ]


def fleet_flash_hit_ratios(*, since: dt.datetime) -> dict[int, float]:
    """Per target: flash-cache hits / physical read IO requests over snapshots ending after ``since``."""
    totals: dict[int, dict[str, int]] = defaultdict(dict)
    rows = (
        SysStat.objects.filter(snapshot__end_at__gt=since, name__in=(STAT_FLASH_HITS, STAT_READ_REQUESTS))
        .values("snapshot__target_id", "name").annotate(total=Sum("value")).order_by()
    )
    for r in rows:
        totals[r["snapshot__target_id"]][r["name"]] = r["total"]
    return {
        target_id: t[STAT_FLASH_HITS] / t[STAT_READ_REQUESTS]
        for target_id, t in totals.items()
        if t.get(STAT_FLASH_HITS) is not None and t.get(STAT_READ_REQUESTS)
    }


# ---------------------------------------------------------------- runs, tiers


def live_targets() -> list[Target]:
    """Enabled targets that can be collected now (not report-only)."""
    return [t for t in Target.objects.enabled() if t.is_live]


def run_queryset() -> QuerySet[CollectionRun]:
    """The runs, newest first, with their target and their refreshes (latest first): /runs/ and the API."""
    return (CollectionRun.objects.select_related("target").order_by("-queued_at")
            .prefetch_related(Prefetch("refreshes", queryset=Refresh.objects.order_by("-queued_at"))))


def run_list(*, limit: int = 200) -> list[CollectionRun]:
    """The latest runs, each with ``latest_refresh``: the refresh queued after it (None: none yet)."""
    runs = list(run_queryset()[:limit])
    for run in runs:
        run.latest_refresh = next(iter(run.refreshes.all()), None)
    return runs


def run_get(*, run_id: int) -> CollectionRun:
    """One run with ``latest_refresh`` (as run_list); raises CollectionRun.DoesNotExist."""
    run = CollectionRun.objects.select_related("target").get(pk=run_id)
    run.latest_refresh = Refresh.objects.filter(after_run_id=run.id).order_by("-queued_at").first()
    return run


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
    for name, tier_set in Target.objects.values_list("name", "tier_set"):
        users[tier_set].append(name)
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
