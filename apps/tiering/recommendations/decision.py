"""The decision of a refresh: every segment's window figures -> the cost model and the seed rules -> columns.

:func:`build_recommendations` takes a target's segments and window figures as numpy
arrays (apps.tiering.recommendations.services reads them; records in apps.tiering.recommendations.decision_records) and
decides for all of them at once: the cost model's cheapest tier (costmodel.cost_matrix),
the seed rules' action (rules.decide), the costs, savings and read time saved, as the
columns apps.tiering.recommendations.services.recommendation_store writes. Figures a top-N source did
not measure stay unknown here (see build_recommendations). No database access.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from apps.snapshots.figures import UnlistedBound, WindowArrays
from apps.targets.models import Target
from apps.tiering import costmodel, rules
from apps.tiering.models import Tier, TierSet
from apps.tiering.moves import hysteresis, payback
from apps.tiering.recommendations import lobfold
from apps.tiering.recommendations.decision_groups import Names, judge_groups
from apps.tiering.recommendations.decision_partitions import (
    lifecycle_exempt,
    lifecycle_members,
    partition_lifecycle_apply,
    skewed_partitions,
)
from apps.tiering.recommendations.decision_records import (
    Coded,
    Recommendations,
    RunFigures,
    SegmentArrays,
    WindowColumns,
)
from apps.tiering.tiers import tier_to_model


def build_recommendations(
    *, target: Target, tiers: list[Tier], segments: SegmentArrays, figures: WindowArrays,
    mapped_tiers: dict[int, Tier], residency: tuple[np.ndarray, np.ndarray],
    now: dt.datetime, window_days: int, unlisted: UnlistedBound = UnlistedBound(False, 0.0),
    history: Callable[[np.ndarray, int], hysteresis.History] | None = None,
    lob_pairs: dict[int, int] | None = None, names: Names | None = None,
) -> Recommendations:
    """Every segment's recommendation as columns, for recommendation_store.

    A segment whose requests the window did not all measure (a top-N gap: listed in some sections of a
    report only, or in none; ``unlisted`` says what the window's top-N snapshots tell of the latter)
    has unknown IOPS and intensity (NaN) and the bound the source gave; it is priced on what was
    measured (lower bounds), and moved only when the cost model picks the same tier at the bound as at
    what was measured, so the move does not rest on the unknown part (its saving is then the lesser of
    those at the two ends). Without a bound it is never moved.

    ``history(segment_ids, days)`` reads those segments' rows in the target's runs of the ``days`` days before
    (apps.tiering.recommendations.services.advice_history), for the hysteresis of moves back (:func:`_held_back`); without it
    no move is held back.

    ``lob_pairs`` (LOB index id -> LOB segment id): each LOB is priced and judged with its index's size and IO
    (apps.tiering.recommendations.lobfold); ``names`` names the groups of moves judged together (apps.tiering.recommendations.decision_groups).
    """
    ids = segments.segment_id
    n = ids.size
    lob_of = lobfold.positions(ids, lob_pairs or {})
    window, folded_size, residency = lobfold.fold(_aligned(figures, ids), segments.size_bytes, residency, lob_of)
    segments = dataclasses.replace(segments, size_bytes=folded_size)
    iops = window.iops  # what was measured: a lower bound where not all was
    unmeasured = window.unmeasured | (~window.present & unlisted.gaps)
    iops_bound = np.where(window.present, window.iops_bound, unlisted.iops_bound)
    if unlisted.incomplete:  # a RAC interval without all its instances: every figure is a lower bound
        unmeasured[:] = True
        iops_bound[:] = np.nan
    iops_bound[~unmeasured] = np.nan
    sized = segments.size_bytes >= 0
    size_bytes = np.where(sized, segments.size_bytes, 0).astype(np.float64)
    gb = size_bytes / 1024**3
    with np.errstate(divide="ignore", invalid="ignore"):
        intensity = np.where(sized & (gb > 0) & ~unmeasured, iops / gb, np.nan)

    # Tiers: the compared set, in order; a current tier of another set is priced on its own.
    model_tiers = [tier_to_model(t) for t in tiers]
    set_ids = np.array([t.id for t in tiers], dtype=np.int64)
    current_id = segments.tier_id
    current_index = _index_of(set_ids, current_id)  # -1: unmapped or another set
    # Marginal costs: on a cloud tier a segment shares its tablespace's volumes (costmodel.pools).
    costs = costmodel.cost_matrix(model_tiers, iops, gb, pooled=True) if n else np.zeros((0, len(tiers)))
    choice = costmodel.cheapest(costs, model_tiers, current_index) if n else np.zeros(0, dtype=np.int64)
    chosen_cost = costs[np.arange(n), choice] if n else np.zeros(0)
    cost_tier_id = np.where(sized, set_ids[choice] if n else choice, current_id)
    cost_now = _current_costs(costs, current_index, current_id, mapped_tiers, iops, gb)
    cost_now[~sized] = np.nan
    # A gap with a bound: the cost model's choice at the bound. Where it is the choice at what was measured,
    # the decision holds whatever the unmeasured part is; else the segment is held (rules: "unmeasured").
    bounded = unmeasured & np.isfinite(iops_bound) & sized
    iops_high = np.where(bounded, iops_bound, iops)
    costs_high = costmodel.cost_matrix(model_tiers, iops_high, gb, pooled=True) if bounded.any() else costs
    choice_high = costmodel.cheapest(costs_high, model_tiers, current_index) if bounded.any() else choice
    now_high = (_current_costs(costs_high, current_index, current_id, mapped_tiers, iops_high, gb)
                if bounded.any() else cost_now)
    held = unmeasured & ~(bounded & (choice_high == choice))
    # Partition lifecycle: empty partitions newer than their table's hot one are priced on its tier.
    lifecycle, choice, chosen_cost, cost_tier_id = partition_lifecycle_apply(
        segments=segments, intensity=intensity, window=window, unmeasured=unmeasured, sized=sized, costs=costs,
        choice=choice, chosen_cost=chosen_cost, cost_tier_id=cost_tier_id)

    known_tiers = {**mapped_tiers, **{t.id: t for t in tiers}}  # every current, cheapest and final tier
    flash_ids = np.array([tid for tid, tier in known_tiers.items() if tier.is_flash], dtype=np.int64)
    current_is_flash = np.isin(current_id, flash_ids)
    cost_is_flash = np.isin(cost_tier_id, flash_ids)
    flash_blocks, cache_blocks = residency
    flash_enabled = bool(np.nansum(flash_blocks) > 0) if n else False
    top_n_source = target.mode in (Target.Mode.AWR, Target.Mode.NOPACK, Target.Mode.REPORT)
    block_size = float(target.capabilities.get("block_size_bytes") or 8192)
    # Payback: the move to the cost model's tier, its one-off cost against its saving a month (issue 16).
    move = _move_payback(
        tier_set=target.tier_set, tiers=known_tiers, size_bytes=np.where(sized, size_bytes, np.nan),
        current_id=current_id, cost_tier_id=cost_tier_id,
        saving_c=_lesser_saving_c((costs, cost_now), (costs_high, now_high), choice, bounded & ~held))

    # Hysteresis: a move back to a tier it left or was advised to leave waits for a clear and lasting change.
    held_back = _held_back(history=history, tier_set=target.tier_set, ids=ids, current_id=current_id,
                           cost_tier_id=cost_tier_id, intensity=intensity, tiers=known_tiers)
    lifecycle_exempt(lifecycle, move.not_worth, held_back)
    columns = rules.Columns(
        held_back=held_back,
        is_undo=segments.is_undo, is_temp=segments.is_temp, is_lob=segments.is_lob,
        is_partition=segments.is_partition, size_bytes=np.where(sized, size_bytes, np.nan),
        read_requests=window.read_requests.astype(np.float64),
        write_requests=window.write_requests.astype(np.float64),
        physical_reads_blocks=window.physical_reads_blocks.astype(np.float64),
        physical_reads_direct_blocks=window.physical_reads_direct_blocks.astype(np.float64),
        optimized_physical_reads=window.optimized_physical_reads.astype(np.float64),
        table_scans=window.table_scans.astype(np.float64), iops=iops, intensity=intensity,
        current_is_flash=current_is_flash, recommended_is_flash=cost_is_flash,
        cost_moves=cost_tier_id != current_id, flash_blocks=flash_blocks,
        block_size_bytes=np.full(n, block_size), flash_cache=segments.flash_cache.astype(np.int8),
        flash_cache_enabled=np.full(n, flash_enabled), below_awr_capture=top_n_source & ~segments.in_awr,
        skewed=skewed_partitions(segments.partition_group, segments.is_partition, intensity),
        unmeasured=held, iops_bound=iops_bound, movability=segments.movability.astype(np.int8),
        not_worth_moving=move.not_worth,
        partition_lifecycle=lifecycle_members(lifecycle, segments.partition_interval),
        placed_ahead=lifecycle.ahead, array_tiering=segments.array_tiering,
    )
    # Grouped payback: the moves made together (a table's partitions, a volume's tablespace) judged together.
    decisions, move_group = judge_groups(
        columns=columns, decisions=rules.decide(columns), ids=ids, segments=segments, cost_tier_id=cost_tier_id,
        current_index=current_index, cost_index=_index_of(set_ids, cost_tier_id), model_tiers=model_tiers,
        costs=costs, iops=iops, gb=gb, saving_per_month=move.costs.saving_usd_per_month, tier_set=target.tier_set, tiers=known_tiers,
        names=names)

    final_id = np.where(decisions.keep_current_tier, current_id, cost_tier_id)
    final_index = _index_of(set_ids, final_id)
    cost_after = _costs_at(costs, final_index, cost_now)
    cost_after[~sized] = np.nan
    chosen_cost[~sized] = np.nan
    # Whole cents (MoneyField), NaN where unknown.
    cost_now_c, cost_tier_c, cost_after_c = (_cents(c) for c in (cost_now, chosen_cost, cost_after))
    # A move that holds over a bound saves at least the lesser of its savings at either end.
    savings_c = _lesser_saving_c((costs, cost_now), (costs_high, now_high), final_index, bounded & ~held)
    covered_days = window.covered_s / 86400.0
    reads_per_day = np.divide(window.read_requests, covered_days, out=np.zeros(n), where=covered_days > 0)
    nominal = {tid: tier.read_latency_ms for tid, tier in known_tiers.items()}
    # Read latency now: measured per tablespace, else the tier's nominal one; after: the tier's nominal one.
    latency_now = np.where(np.isnan(segments.latency_ms), _lookup(current_id, nominal), segments.latency_ms)
    latency_after = _lookup(final_id, nominal)
    saved = np.where(current_id == final_id, 0.0, reads_per_day * (latency_now - latency_after) / 1000.0)
    saved[current_id < 0] = np.nan
    reads_per_day[window.reads_unmeasured | window.gaps] = np.nan
    return Recommendations(
        run=RunFigures(computed_at=now, window_days=window_days, window_first_day=figures.first_day,
                       window_last_day=figures.last_day, statistic=figures.statistic,
                       flash_cache_enabled=flash_enabled),
        segment_id=ids, iops=np.where(unmeasured, np.nan, iops),
        read_iops=np.where(window.reads_unmeasured | window.gaps, np.nan, window.read_iops),
        write_iops=np.where(window.writes_unmeasured | window.gaps, np.nan, window.write_iops),
        measured=~unmeasured, iops_bound=iops_bound, size_bytes=np.where(sized, segments.size_bytes, -1),
        size_gb=np.where(sized, gb, np.nan), intensity=intensity, read_requests_per_day=reads_per_day,
        **window.counters(),
        flash_blocks=np.where(np.isnan(flash_blocks), -1, flash_blocks).astype(np.int64),
        cache_blocks=np.where(np.isnan(cache_blocks), -1, cache_blocks).astype(np.int64),
        flash_cache=Coded(segments.flash_cache, rules.FLASH_CACHE_CODES),
        below_awr_capture=top_n_source & ~segments.in_awr,
        current_tier_id=current_id, cost_tier_id=cost_tier_id, recommended_tier_id=final_id,
        cost_now_usd=cost_now_c, cost_tier_usd=cost_tier_c, cost_after_usd=cost_after_c,
        savings_usd=savings_c, io_time_saved_s_per_day=saved,
        action=Coded(decisions.action, rules.ACTIONS), findings=decisions.findings,
        **_move_columns(move.costs, decisions)._asdict(), move_group=move_group,
        folded_into_id=np.where(lob_of >= 0, ids[np.maximum(lob_of, 0)] if n else lob_of, -1),
    )


class _Move(NamedTuple):
    costs: payback.MoveCosts
    not_worth: np.ndarray  # a move whose saving is known and does not repay its one-off cost


def _costs_at(costs: np.ndarray, to_index: np.ndarray, cost_now: np.ndarray) -> np.ndarray:
    """Each segment's cost on tier ``to_index`` of ``costs``; ``cost_now`` where it is -1 (it stays)."""
    rows = np.arange(to_index.size)
    return np.where(to_index >= 0, costs[rows, np.maximum(to_index, 0)] if to_index.size else 0.0, cost_now)


def _saving_c(costs: np.ndarray, cost_now: np.ndarray, to_index: np.ndarray) -> np.ndarray:
    """Cents a segment saves going to tier ``to_index`` of ``costs`` (-1: it stays; NaN: unknown)."""
    return _cents(cost_now) - _cents(_costs_at(costs, to_index, cost_now))


def _lesser_saving_c(low: tuple[np.ndarray, np.ndarray], high: tuple[np.ndarray, np.ndarray], to_index: np.ndarray,
                     bounded: np.ndarray) -> np.ndarray:
    """:func:`_saving_c` at what was measured (``low``: costs, cost now); where ``bounded``, the lesser of that
    and the saving at the bound (``high``)."""
    saving = _saving_c(*low, to_index)
    if bounded.any():
        saving = np.where(bounded, np.fmin(saving, _saving_c(*high, to_index)), saving)
    return saving


def _cents(amounts: np.ndarray) -> np.ndarray:
    return np.round(costmodel.to_cents_array(amounts) * 100)


def _move_payback(*, tier_set: TierSet, tiers: dict[int, Tier], size_bytes: np.ndarray, current_id: np.ndarray,
                  cost_tier_id: np.ndarray, saving_c: np.ndarray) -> _Move:
    """Each move's one-off cost (apps.tiering.moves.payback: read from the current tier and written to the cost
    model's at their throughput; the set's DBA cost per move, the IO at $0) against its saving per month.
    A segment whose saving is unknown (unmapped, unsized) is left to the other rules: its move is not
    judged on a figure nobody has."""
    throughput = {tier_id: np.nan if tier.throughput_mb_s is None else tier.throughput_mb_s
                  for tier_id, tier in tiers.items()}
    saving_per_month = saving_c / 100.0 / tier_set.basis.divisor
    policy = payback.MovePolicy(dba_cost_usd=tier_set.move_cost_usd, horizon_months=tier_set.payback_horizon_months,
                                min_saving_usd_per_month=tier_set.min_saving_usd_per_month)
    costs = payback.move_costs(size_bytes=size_bytes, read_mb_s=_lookup(current_id, throughput),
                               write_mb_s=_lookup(cost_tier_id, throughput), saving_usd_per_month=saving_per_month,
                               policy=policy)
    judged = (cost_tier_id != current_id) & np.isfinite(saving_per_month) & np.isfinite(size_bytes)
    return _Move(costs, judged & ~costs.worth)


_NOT_WORTH_BIT = 1 << rules.FINDING_CODES.index("not_worth_moving")


class _MoveColumns(NamedTuple):
    move_seconds: np.ndarray
    move_redo_bytes: np.ndarray
    move_cost_usd: np.ndarray  # cents
    payback_days: np.ndarray


def _move_columns(costs: payback.MoveCosts, decisions: rules.Decisions) -> _MoveColumns:
    """move_seconds, move_redo_bytes, move_cost_usd (cents) and payback_days of the moves made and of those
    not worth making (NaN, stored NULL, for every other row and where unknown)."""
    shown = (decisions.action == rules.ACTIONS.index(rules.ACTION_MOVE)) | (decisions.findings & _NOT_WORTH_BIT > 0)
    # A partition placed ahead is moved like any other (its time, redo and cost are planned) but pays nothing back
    # until its month: no payback days.
    made = shown | (decisions.action == rules.ACTIONS.index(rules.ACTION_PLACE_AHEAD))
    return _MoveColumns(
        move_seconds=np.where(made, costs.seconds, np.nan),
        move_redo_bytes=np.where(made, costs.redo_bytes, np.nan),
        move_cost_usd=np.where(made, _cents(costs.cost_usd), np.nan),
        payback_days=np.where(shown, costs.payback_days, np.nan),
    )


def _held_back(*, history: Callable[[np.ndarray, int], hysteresis.History] | None, tier_set: TierSet,
               ids: np.ndarray, current_id: np.ndarray, cost_tier_id: np.ndarray, intensity: np.ndarray,
               tiers: dict[int, Tier]) -> np.ndarray:
    """The segments the cost model sends back to a tier they left or were advised to leave, without the
    tier set's band past the break-even or its days of advice (apps.tiering.moves.hysteresis); the earlier runs are
    read for the segments it sends elsewhere only."""
    sent = (cost_tier_id != current_id) & (current_id >= 0)
    if history is None or not sent.any():
        return np.zeros(ids.size, dtype=bool)
    settings = hysteresis.Settings(band=tier_set.hysteresis_band, days=tier_set.hysteresis_days)
    models = {}
    for tier_id, tier in tiers.items():
        try:
            models[tier_id] = tier_to_model(tier)
        except costmodel.CostModelError:  # a tier without usable prices: a move from or to it is not judged
            continue
    return hysteresis.judge(segment_id=ids, current_tier_id=current_id, cost_tier_id=cost_tier_id,
                            intensity=intensity, tiers=models, history=history(ids[sent], settings.memory_days),
                            settings=settings).held


_WINDOW_FIGURES = ("iops", "read_iops", "write_iops", "read_requests", "write_requests", "physical_reads_blocks",
                   "physical_reads_direct_blocks", "optimized_physical_reads", "table_scans", "db_block_changes",
                   "covered_s", "unmeasured", "iops_bound")


def _aligned(figures: WindowArrays, ids: np.ndarray) -> WindowColumns:
    """The window's arrays re-ordered to ``ids`` (sorted); zeros for segments without activity, and
    ``present`` saying which segments the window holds at all."""
    figure_values = {name: getattr(figures, name) for name in _WINDOW_FIGURES}
    out = WindowColumns.zeros(ids.size, {name: values.dtype for name, values in figure_values.items()})
    if len(figures) and ids.size:
        position, known = positions_in(ids, figures.segment_id)
        at = position[known]
        for name, values in figure_values.items():
            getattr(out, name)[at] = values[known]
        out.reads_unmeasured[at] = figures.reads_unmeasured[known] > 0
        out.writes_unmeasured[at] = figures.writes_unmeasured[known] > 0
        out.gaps[at] = figures.gaps[known]
        out.present[at] = True
    return out


def positions_in(ids: np.ndarray, values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each value stands in the sorted, non-empty ``ids``, and whether it is there at all."""
    position = np.searchsorted(ids, values)
    known = (position < ids.size) & (ids[np.minimum(position, ids.size - 1)] == values)
    return position, known


def _index_of(ids: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Position of each value in ``ids`` (unsorted, small), -1 when absent."""
    index = np.full(values.shape, -1, dtype=np.int64)
    for position, tier_id in enumerate(ids):
        index[values == tier_id] = position
    return index


def _current_costs(costs, current_index, current_id, mapped_tiers, iops, gb) -> np.ndarray:
    """Each segment's cost on its current tier (NaN: unmapped); tiers of another set priced on their own."""
    n = current_id.size
    cost_now = np.where(current_index >= 0, costs[np.arange(n), np.maximum(current_index, 0)] if n else 0.0, np.nan)
    foreign = (current_index < 0) & (current_id >= 0)
    for tier_id in np.unique(current_id[foreign]):
        rows = current_id == tier_id
        cost_now[rows] = costmodel.cost_matrix([tier_to_model(mapped_tiers[int(tier_id)])], iops[rows], gb[rows],
                                               pooled=True)[:, 0]
    return cost_now


def _lookup(keys: np.ndarray, values: dict[int, float]) -> np.ndarray:
    """``values[key]`` for each of ``keys`` (a few distinct ones), NaN when missing."""
    distinct, inverse = np.unique(keys, return_inverse=True)
    return np.array([values.get(int(key), np.nan) for key in distinct], dtype=np.float64)[inverse.reshape(-1)]
