"""What the fleet page reads: one row per target (mode, last collection, segments, costs, flash-cache hit ratio)
and the fleet's totals.

The target pages read ``apps.dashboard.recommendations.selectors``; this module shares their window
(:func:`apps.dashboard.selectors.window_since`) and statistic names.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Func, IntegerField, OuterRef, Subquery, Sum

from apps.core.db import json_key
from apps.dashboard.recommendations import run_figures
from apps.dashboard.selectors import STAT_FLASH_HITS, STAT_READ_REQUESTS, totals_aggregates, window_since
from apps.snapshots.models import CollectionRun, Segment, SysStat
from apps.targets.models import Target
from apps.tiering import costmodel
from apps.tiering.models import Recommendation, RecommendationRun


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
    last_collected_at: dt.datetime | None = None  # end of the last successful collection or import; None: never

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


class _CountRows(Func):
    """COUNT(*): what an index-only scan answers (COUNT(id) reads every row)."""

    template = "COUNT(*)"
    output_field = IntegerField()


def fleet_overview() -> list[FleetRow]:
    """One row per target: mode, last collection, segments, costs, flash-cache hit ratio. Four queries whatever
    the fleet's size: the costs are each current run's stored totals (apps.dashboard.recommendations.run_figures),
    never a sum over its rows; a run whose figures are missing or of an older form has them computed and stored
    first."""
    last_run_id = CollectionRun.objects.filter(target=OuterRef("pk")).order_by("-queued_at").values("pk")[:1]
    # count(*) per target from the segment table's target index alone (a join and GROUP BY over every segment
    # of the fleet sorted 350k rows on disk, and its cost woke PostgreSQL's JIT compiler: most of a second).
    segment_count = Segment.objects.filter(target=OuterRef("pk")).order_by().annotate(n=_CountRows()).values("n")
    last_ok = (CollectionRun.objects.filter(target=OuterRef("pk"), status=CollectionRun.Status.SUCCEEDED)
               .order_by("-queued_at").values("finished_at")[:1])
    targets = list(Target.objects.select_related("tier_set").annotate(segment_count=Subquery(segment_count),
                                                                      last_run_id=Subquery(last_run_id),
                                                                      last_collected_at=Subquery(last_ok)))
    runs = CollectionRun.objects.in_bulk([t.last_run_id for t in targets if t.last_run_id])
    costs = {target_id: _fleet_costs(totals) for target_id, totals in _current_totals().items()}
    ratios = fleet_flash_hit_ratios(since=window_since())
    return [
        FleetRow(
            target=t, last_run=runs.get(t.last_run_id), segments=t.segment_count,
            cost_now_usd=costs.get(t.id, {}).get("now"), cost_after_usd=costs.get(t.id, {}).get("after"),
            savings_usd=costs.get(t.id, {}).get("savings"), flash_hit_ratio=ratios.get(t.id),
            basis=t.tier_set.basis, unpriced=costs.get(t.id, {}).get("unpriced", 0),
            unmeasured=costs.get(t.id, {}).get("unmeasured", 0), moves=costs.get(t.id, {}).get("moves"),
            last_collected_at=t.last_collected_at,
        )
        for t in targets
    ]


def _current_totals() -> dict[int, dict]:
    """target id -> the totals stored with its current run's figures (one query: the totals' key alone, not
    the charts). Runs without figures of this form (stored before them, or of an older form) have their rows
    summed instead, in one more query for all of them; their figures are the target page's to compute."""
    stored = (RecommendationRun.objects.filter(state=RecommendationRun.State.CURRENT)
              .annotate(stored_version=json_key("figures__figures", "version"),
                        stored_totals=json_key("figures__figures", "totals"))
              .values_list("pk", "target_id", "stored_version", "stored_totals"))
    totals, missing = {}, []
    for run_id, target_id, version, run_totals in stored:
        if version != run_figures.VERSION or run_totals is None:
            missing.append(run_id)
        else:
            totals[target_id] = run_totals
    if missing:
        summed = (Recommendation.objects.filter(run_id__in=missing).counted().values("run__target_id")
                  .annotate(**totals_aggregates()).order_by())
        for row in summed:
            totals[row.pop("run__target_id")] = run_figures.figures_json_totals(row)
    return totals


def _fleet_costs(totals: dict) -> dict:
    """A run's stored totals as the fleet row's figures; a run without a counted row has none (as a sum over
    no rows gives none)."""
    if not totals.get("count"):
        return {}
    money = {key: None if totals[key] is None else Decimal(totals[key]) for key in ("now", "after", "savings")}
    return {**money, "unpriced": totals["unpriced"], "unmeasured": totals["unmeasured"],
            "moves": totals["moves"] + totals["ahead"]}  # MOVING_ACTIONS: a move of either kind or placed ahead


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
