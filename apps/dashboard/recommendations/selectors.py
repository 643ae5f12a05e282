"""What a target's recommendation pages read: their head (the last run, the window's start), the target page's
cards (cost by tier with the cloud volume pools' charges, cache residency, the flash cache) and the segment table
(filters, sorts, totals, filter choices, LOB indexes), a bounded number of queries per page."""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db.models import Case, Count, F, Max, Q, QuerySet, Sum, Value, When
from django.db.models.functions import Extract

from apps.core.time import day_start
from apps.dashboard.rows import FlashSample, ResidencyRow, TierCost
from apps.dashboard.search.selectors import segment_ids_matching
from apps.dashboard.selectors import (
    FLASH_STATS,
    STAT_FLASH_HITS,
    STAT_FLASH_INSERTS,
    STAT_READ_REQUESTS,
    run_rows,
    segment_label,
    totals_aggregates,
    window_since,
)
from apps.snapshots.models import CollectionRun, Residency, Segment, SysStat
from apps.targets.models import Target
from apps.tiering import costmodel
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.recommendations.lobfold import LOB_SEGMENT_TYPES
from apps.tiering.recommendations.selectors import lob_indexes_of, recommendation_list
from apps.tiering.tiers import tier_to_model

# ---------------------------------------------------------------- target page


def target_last_run(*, target_id: int) -> CollectionRun | None:
    return CollectionRun.objects.filter(target_id=target_id).order_by("-queued_at").first()


def window_start(*, run: RecommendationRun | None) -> dt.datetime:
    """Start of the window the target's recommendations use: their run's first day (an imported report's own
    days), else today's window."""
    if run is None or run.window_first_day is None:
        return window_since()
    return day_start(run.window_first_day)


def tier_costs(*, target_id: int, tier_models: Sequence[costmodel.Tier] | None = None,
               run_id: int | None = None) -> list[TierCost]:
    """Cost on each tier now (by current tier) and after (by recommended tier), with each cloud volume pool's
    charge once (tier_pool_charges, for the tiers of ``tier_models``, the target's set; None: read them): two
    grouped queries, two more when the set has cloud volume tiers."""
    base = run_rows(target_id=target_id, run_id=run_id).counted()  # a LOB index: in its LOB's row
    now = dict(base.values_list("current_tier__name").annotate(s=Sum("cost_now_usd")).order_by())
    after = dict(base.values_list("recommended_tier__name").annotate(s=Sum("cost_after_usd")).order_by())
    if tier_models is None:
        tier_models = tier_set_models(tier_set=Target.objects.values_list("tier_set", flat=True).get(pk=target_id))[1]
    pool_now, pool_after = tier_pool_charges(target_id=target_id, tier_models=tier_models, run_id=run_id)
    names = sorted({*now, *after}, key=lambda n: (n is None, n or ""))
    rows = []
    for name in names:
        extra_now, extra_after = pool_now.get(name, Decimal(0)), pool_after.get(name, Decimal(0))
        rows.append(TierCost(tier=name or "unmapped", now_usd=(now.get(name) or Decimal(0)) + extra_now,
                             after_usd=(after.get(name) or Decimal(0)) + extra_after,
                             pool_now_usd=extra_now, pool_after_usd=extra_after))
    return rows


def tier_pool_charges(
    *, target_id: int, tier_models: Sequence[costmodel.Tier], run_id: int | None = None
) -> tuple[dict[str, Decimal], dict[str, Decimal]]:
    """Per cloud volume tier name, the once-per-pool charges now and after (costmodel.pools): a segment's
    stored cost is its marginal cost inside a pooled volume, so each pool adds its volume minimum (st1's
    125 GB) and takes off its free IOPS baseline (gp3's 3000) once. Pools are the tablespaces now; after,
    a segment that stays keeps its tablespace, the segments moved to a tier share one new pool there.
    Unmeasured IOPS count as measured (a lower bound, as the costs are)."""
    volumes = {tier.name: tier for tier in tier_models if isinstance(tier, costmodel.VolumeTier)}
    if not volumes:
        return {}, {}
    base = run_rows(target_id=target_id, run_id=run_id).counted()
    moved_pool = Case(When(recommended_tier_id=F("current_tier_id"), then=F("segment__tablespace_name")),
                      default=Value(""))
    groups = (
        ("now", base.filter(current_tier__name__in=volumes).values("segment__tablespace_name", "current_tier__name")
         .annotate(tier=F("current_tier__name"), gb=Sum("size_gb"), iops=Sum("iops"), marginal=Sum("cost_now_usd"))),
        ("after", base.filter(recommended_tier__name__in=volumes).annotate(pool=moved_pool)
         .values("pool", "recommended_tier__name")
         .annotate(tier=F("recommended_tier__name"), gb=Sum("size_gb"), iops=Sum("iops"),
                   marginal=Sum("cost_after_usd"))),
    )
    charges: dict[str, dict[str, Decimal]] = {"now": defaultdict(Decimal), "after": defaultdict(Decimal)}
    for when, query in groups:
        for row in query.order_by():
            if row["gb"] is None or row["marginal"] is None:
                continue  # no segment of the pool is sized: it has no cost to add to
            pool = costmodel.pool_charge(volumes[row["tier"]], gb=costmodel.to_decimal(row["gb"]),
                                         iops=costmodel.to_decimal(row["iops"] or 0.0), marginal_usd=row["marginal"])
            charges[when][row["tier"]] += costmodel.to_cents(pool.charge_usd)
    return dict(charges["now"]), dict(charges["after"])


def tier_set_models(*, tier_set: str) -> tuple[list[Tier], list[costmodel.Tier]]:
    """The tier rows of a set and their cost-model form (rows with unusable figures are skipped)."""
    rows = list(Tier.objects.filter(tier_set=tier_set))
    models = []
    for row in rows:
        try:
            model = tier_to_model(row)
            model.intensity  # noqa: B018 -- a tier whose intensity cannot be computed cannot be compared
        except (costmodel.CostModelError, ArithmeticError):
            continue
        models.append(model)
    return rows, models


def latest_residency(*, target_id: int, limit: int = 15) -> list[ResidencyRow]:
    """The segments holding the most cache at the latest residency collection (instances summed)."""
    latest = (
        Residency.objects.filter(target_id=target_id).order_by("-collected_at")
        .values_list("collected_at", flat=True).first()
    )
    if latest is None:
        return []
    rows = (
        Residency.objects.filter(target_id=target_id, collected_at=latest)
        .values("segment_id", "segment__owner", "segment__object_name", "segment__subobject_name",
                "segment__parent_partition", "segment__container")
        .annotate(flash=Sum("flash_blocks"), cache=Sum("cache_blocks"))
        .order_by("-flash", "-cache", "segment_id")[:limit]
    )
    return [
        ResidencyRow(segment_id=r["segment_id"], flash_blocks=r["flash"], cache_blocks=r["cache"],
                     label=segment_label(r["segment__owner"], r["segment__object_name"], r["segment__subobject_name"],
                                         r["segment__parent_partition"], r["segment__container"]))
        for r in rows
    ]


def flash_samples(*, target_id: int, since: dt.datetime) -> list[FlashSample]:
    """Flash-cache statistics per snapshot end time (RAC instances summed), oldest first."""
    # One row per end time, the three statistics side by side (summed over instances): a few hundred rows at
    # most for a window, and one time each.
    rows = (
        SysStat.objects.filter(snapshot__target_id=target_id, snapshot__end_at__gt=since, name__in=FLASH_STATS)
        .values_list("snapshot__end_at")
        .annotate(interval_s=Extract(Max("snapshot__end_at") - Max("snapshot__begin_at"), "epoch"),
                  **{field: Sum("value", filter=Q(name=name)) for field, name in (
                      ("hits", STAT_FLASH_HITS), ("read_requests", STAT_READ_REQUESTS),
                      ("inserts", STAT_FLASH_INSERTS))})
        .order_by("snapshot__end_at")
    )
    return [FlashSample(end_at=end_at, interval_s=float(interval_s), hits=hits, read_requests=read_requests,
                        inserts=inserts) for end_at, interval_s, hits, read_requests, inserts in rows]


# ---------------------------------------------------------------- recommendation lists (table, CSV)

#: Rows of equal value keep the name's order.
_BY_NAME = ("segment__owner", "segment__object_name")
SORTS = {
    "savings": ("savings_usd", *_BY_NAME),
    "iops": ("iops", *_BY_NAME),
    "intensity": ("intensity", *_BY_NAME),
    "size": ("size_gb", *_BY_NAME),
    "cost_now": ("cost_now_usd", *_BY_NAME),
    "cost_after": ("cost_after_usd", *_BY_NAME),
    "name": (*_BY_NAME, "segment__subobject_name"),
    "tier": ("recommended_tier__name", *_BY_NAME),
}
DEFAULT_SORT = "-savings"


@dataclass(frozen=True)
class RecommendationFilter:
    name: str = ""  # part of OWNER.OBJECT_NAME, any case (the segment name trigram index)
    owner: str = ""
    object_type: str = ""
    tablespace: str = ""
    tier: str = ""  # recommended tier name
    action: str = ""
    min_intensity: float | None = None


def recommendation_filtered(*, target_id: int, filters: RecommendationFilter) -> QuerySet[Recommendation]:
    """Current recommendations with the filters applied, in recommendation_list order (the CSV order)."""
    qs = recommendation_list(target_id=target_id)
    if filters.name:
        qs = qs.filter(segment_id__in=segment_ids_matching(filters.name, target_id=target_id))
    if filters.owner:
        qs = qs.filter(segment__owner=filters.owner)
    if filters.object_type:
        qs = qs.filter(segment__object_type=filters.object_type)
    if filters.tablespace:
        qs = qs.filter(segment__tablespace_name=filters.tablespace)
    if filters.tier:
        qs = qs.filter(recommended_tier__name=filters.tier)
    if filters.action:
        qs = qs.filter(action=filters.action)
    if filters.min_intensity is not None:
        qs = qs.filter(intensity__gte=filters.min_intensity)
    return qs


def recommendation_sorted(qs: QuerySet[Recommendation], *, sort: str) -> QuerySet[Recommendation]:
    """Order by a whitelisted key, ``-key`` for descending; nulls last either way."""
    key = sort.lstrip("-")
    fields = SORTS.get(key) or SORTS[DEFAULT_SORT.lstrip("-")]
    descending = sort.startswith("-") if key in SORTS else True
    first = F(fields[0]).desc(nulls_last=True) if descending else F(fields[0]).asc(nulls_last=True)
    return qs.order_by(first, *fields[1:], "segment_id")


def recommendation_totals(qs: QuerySet[Recommendation]) -> dict[str, Decimal | int | None]:
    """Sums of cost now / after / savings and the row count over a filtered list (one query).

    ``unpriced``: rows without a cost (size unknown, tablespace unmapped), which the sums leave out;
    ``unmeasured``: rows whose costs are lower bounds (IO not all measured). Either makes the sums
    lower bounds, and all rows unpriced makes them unknown (``now`` None), never $0. ``repaying``: moves with a
    one-off cost to repay (a payback of some days), counted for a run's stored totals (the tables leave their
    Payback column out when none has one and the tier set sets no move cost).
    """
    return qs.order_by().aggregate(**totals_aggregates(), repaying=Count("segment_id", filter=Q(payback_days__gt=0)))


FILTERED_TOTALS_CAP = 10_000


def recommendation_totals_capped(qs: QuerySet[Recommendation], *, cap: int = FILTERED_TOTALS_CAP) -> dict:
    """recommendation_totals over filtered rows, summing at most ``cap`` of them (a LIMIT under the sums): when
    more match, ``capped`` is True and ``count`` is the cap (shown as "cap+"), the sums None (not shown)."""
    totals = qs.select_related(None).order_by()[: cap + 1].aggregate(**totals_aggregates())
    if totals["count"] > cap:
        return {**{k: None for k in totals}, "count": cap, "capped": True}
    return {**totals, "capped": False}


def lob_indexes_attach(rows: Sequence[Recommendation]) -> None:
    """Give each LOB segment's row of a table page ``lob_index_rows``, the rows of the LOB indexes folded into it
    (the lob_indexes template tag reads them): one query for the page, not one per LOB row."""
    lobs = [row for row in rows if row.segment.object_type in LOB_SEGMENT_TYPES]
    if not lobs:
        return
    found = lob_indexes_of(run_id=lobs[0].run_id, lob_ids=[row.segment_id for row in lobs])
    for row in lobs:
        row.lob_index_rows = found.get(row.segment_id, [])


@dataclass(frozen=True)
class FilterChoices:
    owners: list[str]
    object_types: list[str]
    tablespaces: list[str]
    tiers: list[str]
    actions: list[str]


def recommendation_filter_choices(*, target_id: int, run_id: int | None = None) -> FilterChoices:
    """Distinct values for the filter drop-downs (three queries)."""
    segs = Segment.objects.filter(target_id=target_id).order_by()
    recs = run_rows(target_id=target_id, run_id=run_id).order_by()
    triples = set(segs.values_list("owner", "object_type", "tablespace_name").distinct())
    pairs = set(recs.values_list("recommended_tier__name", "action").distinct())
    return FilterChoices(
        owners=sorted({t[0] for t in triples}), object_types=sorted({t[1] for t in triples}),
        tablespaces=sorted({t[2] for t in triples if t[2]}), tiers=sorted({p[0] for p in pairs if p[0]}),
        actions=sorted({p[1] for p in pairs}),
    )

