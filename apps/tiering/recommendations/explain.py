"""The reasons and the DDL of stored recommendations, worded when they are shown.

A refresh stores each segment's figures and decision (apps.tiering.recommendations.services);
the segment page and the export turn them back into the seed rules' figures
and run the same rules (rules.advise_many) for the words, and ddl.py for the
statements. The partition-skew reason needs the other partitions of the same
table or index: they are read from the same refresh.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from django.db.models import QuerySet

from apps.snapshots.models import Segment
from apps.snapshots.storage_map import storage_map_read
from apps.targets.models import Target
from apps.targets.storage import Placement
from apps.tiering import costmodel, ddl, rules
from apps.tiering import sql as pg
from apps.tiering.costmodel import BillingBasis, CostModelError
from apps.tiering.ddl.lifecycle import interval_default_ddl
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.moves import hysteresis
from apps.tiering.recommendations.services import advice_history
from apps.tiering.rules.in_words import money
from apps.tiering.tiers import tier_to_model

_UNMEASURED = 1 << rules.FINDING_CODES.index("unmeasured")
_HELD_BACK = 1 << rules.FINDING_CODES.index("held_back")
_NOT_WORTH_MOVING = 1 << rules.FINDING_CODES.index("not_worth_moving")
_PARTITION_LIFECYCLE = 1 << rules.FINDING_CODES.index("partition_lifecycle")
_ARRAY_TIERING = 1 << rules.FINDING_CODES.index("array_tiering")


@dataclass(frozen=True)
class Explanation:
    """The words and statements of one recommendation; ``action`` is the one they were worded from, which is
    the stored one as long as the stored figures reproduce the refresh's decision."""

    reasons: tuple[rules.Reason, ...]
    ddl: str
    action: str = ""


def explain(recs: Sequence[Recommendation], *, target: Target,
            siblings: dict[tuple, tuple] | None = None) -> list[Explanation]:
    """Reasons and DDL for each recommendation (select_related segment and the three tiers first).

    ``siblings``: partition_siblings of the recommendations' runs, when the
    caller explains many batches of the same runs; else read here.
    """
    if not recs:
        return []
    if siblings is None:
        siblings = _partition_intensities(recs, target_id=target.id)
    block_size = int(target.capabilities.get("block_size_bytes") or 8192)
    basis = target.tier_set.basis  # the unit the reasons quote costs in
    held = _held_backs(recs, target=target)
    placements = storage_map_read(target_id=target.id).placements
    advices = rules.advise_many([_figures(rec, siblings, block_size, basis, target.tier_set,
                                          held.get((rec.run_id, rec.segment_id)), _array_tiering(rec, placements))
                                 for rec in recs])
    tablespace_for_tier = _tablespace_for_tier(target.id, placements)
    release = target.capabilities.get("release") or "19.0.0.0.0"
    return [
        Explanation(reasons=_with_group(advice.reasons, rec, basis, target.tier_set),
                    ddl=ddl_text(rec.segment, advice, rec.recommended_tier, tablespace_for_tier, release),
                    action=advice.action)
        for rec, advice in zip(recs, advices)
    ]


def _figures(rec: Recommendation, siblings: dict[tuple, tuple], block_size: int,
             basis: BillingBasis, tier_set: TierSet,
             held_back: hysteresis.HeldBack | None = None,
             array_tiering: tuple[str, ...] = ()) -> rules.SegmentFigures:
    seg = rec.segment
    current, cheapest = rec.current_tier, rec.cost_tier
    return rules.SegmentFigures(
        owner=seg.owner, object_name=seg.object_name, subobject_name=seg.subobject_name,
        object_type=seg.object_type, tablespace_name=seg.tablespace_name, size_bytes=rec.size_bytes,
        read_requests=rec.read_requests, write_requests=rec.write_requests,
        physical_reads_blocks=rec.physical_reads_blocks, physical_reads_direct_blocks=rec.physical_reads_direct_blocks,
        optimized_physical_reads=rec.optimized_physical_reads, table_scans=rec.table_scans,
        db_block_changes=rec.db_block_changes, iops=rec.iops, intensity=rec.intensity,
        # Held as unmeasured is the stored decision (a bounded segment whose tier holds over its bound moves);
        # which requests are unknown shows in the IOPS left NULL.
        unmeasured=bool(rec.findings & _UNMEASURED), iops_bound=rec.iops_bound,
        reads_unmeasured=None if rec.measured else rec.read_iops is None,
        writes_unmeasured=None if rec.measured else rec.write_iops is None,
        name_truncated=seg.name_truncated, held_back=held_back,
        current_tier=current.name if current else "(unmapped)",
        recommended_tier=cheapest.name if cheapest else "(unmapped)",
        current_is_flash=bool(current and current.is_flash), recommended_is_flash=bool(cheapest and cheapest.is_flash),
        iops_statistic=rec.statistic, flash_blocks=rec.flash_blocks, cache_blocks=rec.cache_blocks,
        block_size_bytes=block_size, flash_cache=rec.flash_cache or None, flash_cache_enabled=rec.flash_cache_enabled,
        below_awr_capture=rec.below_awr_capture,
        partition_intensities=siblings.get((rec.run_id, *_group(seg)), ()),
        current_cost=rec.cost_now_usd, recommended_cost=rec.cost_tier_usd,
        cost_unit=basis.unit, cost_months=basis.divisor,
        not_worth_moving=bool(rec.findings & _NOT_WORTH_MOVING), move=_move_figures(rec, basis, tier_set),
        partition_lifecycle=bool(rec.findings & _PARTITION_LIFECYCLE),
        # The stored decision: an empty partition placed on its table's hot partition's tier (decision.lifecycle).
        placed_ahead=rec.action == rules.ACTION_PLACE_AHEAD, array_tiering=array_tiering,
    )


def _with_group(reasons: tuple[rules.Reason, ...], rec: Recommendation, basis: BillingBasis,
                tier_set: TierSet) -> tuple[rules.Reason, ...]:
    """The reasons, with what its group (apps.tiering.recommendations.grouping) did for the move: first when the move is made
    only because the group is worth it ("worth moving with its group"), last otherwise."""
    if not rec.move_group:
        return reasons
    if rec.action != rules.ACTION_MOVE:
        return (*reasons, rules.Reason("move_group", f"Judged with its group as well: {rec.move_group}."))
    saving = basis.per_month(rec.savings_usd) if rec.savings_usd is not None else None
    cost = rec.move_cost_usd
    shortfalls = []
    if saving is not None and saving < tier_set.min_saving_usd_per_month:
        shortfalls.append(f"its ${money(saving)}/month is under the minimum of "
                          f"${money(tier_set.min_saving_usd_per_month)}/month")
    if saving is not None and cost is not None and cost > saving * tier_set.payback_horizon_months:
        shortfalls.append(f"its ${money(cost)} move would not pay back within "
                          f"{tier_set.payback_horizon_months.normalize():f} months")
    if not shortfalls:
        return (*reasons, rules.Reason("move_group", f"Moved with its group: {rec.move_group}."))
    return (rules.Reason("moves_with_group", (
        f"Worth moving with its group: {rec.move_group}. Alone {' and '.join(shortfalls)}; the group's moves are "
        "made together, in one script and one maintenance window, for one DBA cost.")), *reasons)


def _array_tiering(rec: Recommendation, placements: dict[str, Placement]) -> tuple[str, ...]:
    """The stored finding read back: the segment's tablespace's locations on an array that tiers by itself
    (its locations, or its tablespace's name, when the DBA has unset the flag since the refresh)."""
    if not rec.findings & _ARRAY_TIERING:
        return ()
    placed = placements.get(rec.segment.tablespace_name)
    if placed is None:
        return (rec.segment.tablespace_name,)
    return placed.array_tiering or placed.locations or (rec.segment.tablespace_name,)


def _move_figures(rec: Recommendation, basis: BillingBasis, tier_set: TierSet) -> rules.MoveFigures | None:
    """A move's payback as the refresh stored it (apps.tiering.recommendations.decision._move_columns): its saving a month is
    the stored saving of a move made; for one not made, what its tiers' stored costs differ by (not known
    for a segment moved on a bound: the refresh took the lesser saving at either end of it)."""
    if rec.move_cost_usd is None:
        return None
    if rec.action == rules.ACTION_MOVE:
        saving = basis.per_month(rec.savings_usd)
    elif rec.measured and rec.cost_now_usd is not None and rec.cost_tier_usd is not None:
        saving = basis.per_month(rec.cost_now_usd - rec.cost_tier_usd)
    else:
        saving = None
    unknown = tuple(tier.name for tier in (rec.current_tier, rec.cost_tier)
                    if tier is not None and tier.throughput_mb_s is None)
    return rules.MoveFigures(
        saving_per_month=saving, cost=rec.move_cost_usd, payback_days=rec.payback_days, seconds=rec.move_seconds,
        redo_bytes=rec.move_redo_bytes, horizon_months=tier_set.payback_horizon_months,
        min_saving_per_month=tier_set.min_saving_usd_per_month, unknown_throughput=tuple(dict.fromkeys(unknown)),
    )


def _held_backs(recs: Sequence[Recommendation], *, target: Target) -> dict[tuple[int, int], hysteresis.HeldBack]:
    """(run, segment) -> why the move back was held, for the recommendations hysteresis held (their finding):
    how far their intensity lies past the break-even (the tiers' prices now), the tier set's settings, and the
    days the move had been advised (their earlier runs, one query per run)."""
    by_run: dict[int, list[Recommendation]] = defaultdict(list)
    for rec in recs:
        if rec.findings & _HELD_BACK and rec.current_tier is not None and rec.cost_tier is not None:
            by_run[rec.run_id].append(rec)
    if not by_run:
        return {}
    settings = hysteresis.Settings(band=target.tier_set.hysteresis_band, days=target.tier_set.hysteresis_days)
    held = {}
    for run_recs in by_run.values():
        run_recs = sorted(run_recs, key=lambda rec: rec.segment_id)
        models: dict[int, costmodel.Tier] = {}
        for tier in {t.id: t for rec in run_recs for t in (rec.current_tier, rec.cost_tier) if t is not None}.values():
            try:
                models[tier.id] = tier_to_model(tier)
            except CostModelError:
                continue
        ids = np.array([rec.segment_id for rec in run_recs], dtype=np.int64)
        verdict = hysteresis.judge(
            segment_id=ids, current_tier_id=np.array([rec.current_tier_id for rec in run_recs], dtype=np.int64),
            cost_tier_id=np.array([rec.cost_tier_id for rec in run_recs], dtype=np.int64),
            intensity=np.array([np.nan if rec.intensity is None else rec.intensity for rec in run_recs]),
            tiers=models, settings=settings, history=advice_history(
                target_id=target.id, before=run_recs[0].run.computed_at, segment_ids=ids, days=settings.memory_days))
        for rec, days in zip(run_recs, verdict.days_advised.tolist()):
            # Both tiers are known (by_run holds such rows only), so are their ids.
            here = models.get(rec.current_tier_id) if rec.current_tier_id is not None else None
            there = models.get(rec.cost_tier_id) if rec.cost_tier_id is not None else None
            share = hysteresis.crossed_share(rec.intensity, here, there) if here and there else None
            held[(rec.run_id, rec.segment_id)] = hysteresis.HeldBack(share, settings, days)
    return held


def _group(seg: Segment) -> tuple[str, str, str, str]:
    return seg.container, seg.owner, seg.object_name, seg.object_type


def _partition_intensities(recs: Sequence[Recommendation], *, target_id: int) -> dict[tuple, tuple]:
    """(run, container, owner, name, type) -> ((partition, intensity), ...) for the partitions among ``recs``."""
    wanted = {(rec.run_id, *_group(rec.segment)) for rec in recs
              if rec.segment.object_type in rules.PARTITION_TYPES}
    if not wanted:
        return {}
    names = {key[3] for key in wanted} if len(wanted) <= 50 else None  # a few groups (a page): only theirs
    found = partition_siblings(run_ids={key[0] for key in wanted}, target_id=target_id, names=names)
    return {key: values for key, values in found.items() if key in wanted}


def partition_siblings(*, run_ids: set[int], target_id: int, names: set[str] | None = None) -> dict[tuple, tuple]:
    """(run, container, owner, name, type) -> ((partition, intensity), ...) for every partitioned table or index
    of the runs (those called ``names`` only, when given); a PDB's partitions are never another PDB's siblings."""
    rows: QuerySet[Recommendation] = Recommendation.objects.filter(run__in=run_ids, run__target_id=target_id,
                                         segment__object_type__in=rules.PARTITION_TYPES)
    if names is not None:
        # One array parameter, not an IN of a placeholder per name (psycopg parses each new query text).
        rows = rows.extra(where=[pg.SEGMENT_NAME_IN], params=[sorted(names)])
    groups: dict[tuple, list] = defaultdict(list)
    for run_id, container, owner, name, kind, subobject, intensity in rows.values_list(
        "run_id", "segment__container", "segment__owner", "segment__object_name", "segment__object_type",
        "segment__subobject_name", "intensity",
    ).order_by():
        groups[(run_id, container, owner, name, kind)].append((subobject, intensity))
    return {key: tuple(values) for key, values in groups.items()}


def _tablespace_for_tier(target_id: int, placements: dict[str, Placement] | None = None) -> dict[int, str]:
    """The tablespace a move to each tier goes to: the first on it, by name (its effective tier: the hand map,
    else its locations', apps.snapshots.storage_map; ``placements`` when the caller has read them)."""
    if placements is None:
        placements = storage_map_read(target_id=target_id).placements
    chosen: dict[int, str] = {}
    for name in sorted(placements):
        if (tier_id := placements[name].tier_id) is not None:
            chosen.setdefault(tier_id, name)
    return chosen


def ddl_text(seg: Segment, advice: rules.Advice, tier: Tier | None, tablespace_for_tier: dict[int, str],
             release: str) -> str:
    """The statements for an advice (a move with its flash cache hint), or a comment saying why there are none."""
    if advice.action in (rules.ACTION_KEEP, rules.ACTION_NOT_WORTH_MOVING) or (
            tier is None and advice.action != rules.ACTION_NOT_MOVABLE):
        return ""
    if advice.action == rules.ACTION_NOT_MOVABLE:
        tier = None
    tablespace = tablespace_for_tier.get(tier.id) if tier is not None else None
    needs_tablespace = advice.action in (rules.ACTION_MOVE, rules.ACTION_PLACE_AHEAD, rules.ACTION_MOVE_PARTITIONS)
    if needs_tablespace and not tablespace and tier is not None:  # a move's tier is known (returned above if not)
        return (f"-- No tablespace of this target is mapped to tier {tier.name!r}: create one on that storage,\n"
                f"-- map it under Admin > Targets > tablespace tiers, and the DDL will appear here.")
    request = ddl.DdlRequest(
        owner=seg.owner, object_name=seg.object_name, object_type=seg.object_type, release=release,
        subobject_name=seg.subobject_name or None, target_tablespace=tablespace,
        partitioned_parent=seg.partitioned_parent or None, lob_column=seg.lob_column or None,
        table_partition_name=seg.table_partition_name or None, name_truncated=seg.name_truncated,
    )
    try:
        script = ddl.ddl_for_action(request, advice.action, hot_partitions=advice.hot_partitions,
                                    flash_cache_hint=advice.flash_cache_hint,
                                    onto_flash=bool(tier is not None and tier.is_flash))
        if advice.action == rules.ACTION_MOVE and seg.partition_interval and "partition_lifecycle" in advice.codes:
            # The hot partition of an interval-partitioned table: its next partitions are created where it goes.
            script = ddl.DdlScript(script.lines + interval_default_ddl(request).lines)
        return ddl.in_container(script, seg.container).text()
    except ddl.DdlError as exc:
        return f"-- DDL cannot be generated: {exc}"
