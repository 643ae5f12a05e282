"""Recommendations: window figures -> the cost model and the seed rules -> stored advice.

Recomputed after every collection (:func:`recommendation_refresh`) for every
segment of the target at once: the figures come from the daily rollups
(apps.snapshots.windows) as numpy arrays, the cost model and the rules decide
for all segments in array operations (costmodel.cost_matrix, rules.decide),
and the results go back by binary COPY. The words (reasons) and the DDL are
produced when a recommendation is shown (apps.tiering.recommendations.explain), from the
figures stored with it.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass

import numpy as np
from django.db import connection, transaction

from apps.core import sql as core_sql
from apps.core.columns import ModelColumn, array_columns, model_columns
from apps.core.config import get_config
from apps.core.db import in_parallel, roomy_sorts
from apps.core.locks import LockSpace, lock_session
from apps.core.pgcopy import copy_from_arrays, fetch_arrays
from apps.core.time import floor_day
from apps.snapshots.figures import window_read, window_span, window_unlisted
from apps.snapshots.models import Residency
from apps.snapshots.storage_map import storage_map_read
from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.tiering import rules
from apps.tiering import sql as pg
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.moves import hysteresis, movability
from apps.tiering.recommendations.decision import build_recommendations, positions_in
from apps.tiering.recommendations.decision_records import Recommendations, SegmentArrays
from apps.tiering.recommendations.selectors import lob_index_pairs_read, segment_names, tablespace_read_latency_ms
from apps.tiering.signals import announce, run_rows_written
from apps.tiering.tasks import recommendation_runs_prune as recommendation_runs_prune_task

#: tiering_recommendation's columns, as apps.tiering.recommendations.decision_records.Recommendations holds them (but the run).
RECOMMENDATION_COLUMNS: tuple[ModelColumn, ...] = model_columns(Recommendation)

_UNDO = sorted(rules.UNDO_TYPES)
_TEMP = sorted(rules.TEMP_TYPES)
_LOB = sorted(rules.LOB_TYPES)
_PARTITION = sorted(rules.PARTITION_TYPES)


@dataclass(frozen=True)
class RefreshResult:
    recommendations: int
    computed_at: dt.datetime


def recommendation_refresh(*, target_id: int, now: dt.datetime, window_days: int | None = None,
                           statistic: str | None = None) -> RefreshResult:
    """Recompute every segment's recommendation for one target and store them as current.

    The window is ``window_days`` whole UTC days ending with the day of the
    target's latest snapshot: the same as today for a live target, and the
    report's own days for an imported report, so an old report still yields
    figures (apps.snapshots.figures).
    """
    config = get_config()
    target = Target.objects.get(pk=target_id)
    tiers = list(Tier.objects.filter(tier_set=target.tier_set))
    if not tiers:
        return RefreshResult(0, now)
    span = window_span(target_id=target_id, now=now, days=window_days or config["WINDOW_DAYS"],
                       statistic=statistic or config["STATISTIC"])
    latency = tablespace_read_latency_ms(target_id=target_id, since=span.start_at, until=span.stop_at)
    # The segments are read while the window's figures are computed.
    figures, segments = window_read(span, now=now,
                                    next_collect_at=now + dt.timedelta(minutes=target.interval_minutes),
                                    alongside=lambda: segment_arrays(target_id=target_id, latency_ms=latency))
    mappings: list[TablespaceTier | StorageLocation] = list(
        TablespaceTier.objects.filter(target_id=target_id).select_related("tier"))
    # A current tier may come from a location too (the storage map): priced on its own if of another set.
    mappings += list(StorageLocation.objects.filter(target_id=target_id, tier__isnull=False).select_related("tier"))
    columns = build_recommendations(
        target=target, tiers=tiers, segments=segments, figures=figures, unlisted=window_unlisted(span),
        mapped_tiers={tier.pk: tier for m in mappings if (tier := m.tier) is not None},  # all have one
        residency=_latest_residency(target_id, segments.segment_id), now=now, window_days=span.days,
        history=lambda segment_ids, days: advice_history(target_id=target_id, before=now, segment_ids=segment_ids,
                                                         days=days),
        lob_pairs=lob_index_pairs_read(target_id=target_id), names=segment_names,
    )
    recommendation_store(target_id=target_id, columns=columns, now=now)
    return RefreshResult(len(segments), now)


# --------------------------------------------------------------------------- reads


#: apps.tiering.sql.SEGMENTS' columns, in its order: SegmentArrays' fields.
SEGMENT_ARRAY_COLUMNS = array_columns(SegmentArrays)


_MOVABILITY_PARAMS = {
    **{f"m_{code}": movability.CODES.index(code) for code in movability.CODES[1:]},
    "m_lob_index_types": sorted(movability.LOB_INDEX_TYPES), "m_lob_index_name": movability.LOB_INDEX_NAME,
    "m_own_rule_types": sorted(movability.OWN_RULE_TYPES), "m_missing_owner": movability.MISSING_OWNER,
    "m_unknown_types": sorted(movability.UNKNOWN_TYPES),
    "m_dictionary_owners": sorted(movability.DICTIONARY_OWNERS),
    "m_oracle_owners": sorted(movability.ORACLE_MAINTAINED_OWNERS),
    "m_cluster_types": sorted(movability.CLUSTER_TYPES), "m_aq_prefix": movability.AQ_PREFIX,
    "m_iot_top": movability.IOT_PREFIXES[0], "m_iot_over": movability.IOT_PREFIXES[1],
    "m_movable_types": sorted(movability.MOVABLE_TYPES),
}


def segment_arrays(*, target_id: int, latency_ms: dict[str, float] | None = None) -> SegmentArrays:
    """Every segment of a target as arrays, ordered by id: size (-1 unknown), kind flags, hint code,
    current tier id (-1 unmapped), its tablespace's measured read latency (NaN: none) and a
    partition group (0: not a partition; else a 64-bit hash of owner, name and type, which is
    cheaper than sorting 100k names to number the groups), whether a move can relocate it (an
    index into movability.CODES, 0: it can), its partition's order by bound (0: unknown or none; see
    apps.tiering.recommendations.lifecycle), whether
    interval partitioning created it, and whether its storage is an array that tiers by itself. The tier is
    the tablespace's effective one (apps.snapshots.storage_map: the hand map, else its locations')."""
    latency_ms = latency_ms or {}
    placed = [p for p in storage_map_read(target_id=target_id).placements.values()
              if p.tier_id is not None or p.array_tiering]
    params = {"target": target_id, "undo": _UNDO, "temp": _TEMP, "lob": _LOB, "partition": _PARTITION,
              "hints": list(rules.FLASH_CACHE_CODES[1:]), "tablespaces": list(latency_ms),
              "latency": list(latency_ms.values()), **_MOVABILITY_PARAMS,
              "ts_names": [p.tablespace_name for p in placed], "ts_tiers": [p.tier_id for p in placed],
              "ts_array": [bool(p.array_tiering) for p in placed]}
    with roomy_sorts(), connection.cursor() as cursor:
        segments = SegmentArrays(**fetch_arrays(cursor.cursor, pg.SEGMENTS, params, SEGMENT_ARRAY_COLUMNS))
    return segments.take(np.argsort(segments.segment_id, kind="stable"))


def advice_history(*, target_id: int, before: dt.datetime, segment_ids: np.ndarray, days: int) -> hysteresis.History:
    """The rows of ``segment_ids`` in the target's runs of the ``days`` UTC days before the day of ``before``
    (one run a day: the history, and the current run when it is of an earlier day), for the hysteresis of
    moves back (apps.tiering.moves.hysteresis): their tiers then and whether a move back was held, aged from the
    latest run (1) back. One query, by
    the rows' key (run, segment)."""
    if not len(segment_ids) or days <= 0:
        return hysteresis.History.empty()
    day_start = floor_day(before)
    params = {"target": target_id, "history": RecommendationRun.State.HISTORY.value,
              "current": RecommendationRun.State.CURRENT.value, "since": day_start - dt.timedelta(days=days),
              "day_start": day_start, "segments": np.asarray(segment_ids, dtype=np.int64).tolist(),
              "held_back": 1 << rules.FINDING_CODES.index("held_back")}
    with connection.cursor() as cursor:
        cursor.execute(pg.ADVICE_RUNS, params)
        params["runs"] = [run_id for (run_id,) in cursor.fetchall()]
        if not params["runs"]:
            return hysteresis.History.empty()
        arrays = fetch_arrays(cursor.cursor, pg.ADVICE_HISTORY, params, array_columns(hysteresis.History))
    return hysteresis.History(**arrays)


def _latest_residency(target_id: int, segment_ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(flash blocks, cache blocks) of the latest V$BH collection per segment (NaN: not collected)."""
    flash = np.full(segment_ids.size, np.nan)
    cache = np.full(segment_ids.size, np.nan)
    latest = Residency.objects.filter(target_id=target_id).order_by("-collected_at").values_list(
        "collected_at", flat=True).first()
    if latest is None:
        return flash, cache
    rows = list(Residency.objects.filter(target_id=target_id, collected_at=latest).values_list(
        "segment_id", "flash_blocks", "cache_blocks"))
    if rows and segment_ids.size:
        ids, flash_blocks, cache_blocks = (np.array(column) for column in zip(*rows))
        position, known = positions_in(segment_ids, ids)
        position = position[known]
        # Summed over instances (RAC); segments without a row stay unknown.
        flash[position] = 0.0
        cache[position] = 0.0
        np.add.at(flash, position, flash_blocks[known])
        np.add.at(cache, position, cache_blocks[known])
    return flash, cache


# --------------------------------------------------------------------------- store


def recommendation_store(*, target_id: int, columns: Recommendations, now: dt.datetime) -> RecommendationRun:
    """Store a refresh as a new run and make it the target's current one.

    ``columns`` as build_recommendations returns them: -1 in a nullable integer
    column and NaN in a float column stand for NULL. The rows are written while
    the run is not current (on parallel connections when there are many), then
    one small transaction switches the current run, so a page sees the old run
    or the new one, never half of one. The run replaced stays as history if it
    is from an earlier UTC day; else it is hidden (``replaced``) and deleted
    after the store by a task (:func:`recommendation_runs_prune`), off the
    refresh's path.
    """
    n = len(columns)
    State = RecommendationRun.State
    # One store per target at a time, so a run still being written is always one a failed refresh left behind.
    with lock_session(LockSpace.RECOMMENDATION_STORE, target_id):
        run = RecommendationRun.objects.create(target_id=target_id, recommendations=n, **vars(columns.run))
        _rows_write(recommendation_columns_data(columns, run_id=run.id), n)
        # The pages' totals, charts and choices, computed once by the dashboard (the rows never change).
        announce(run_rows_written, run=run)
        day_start = floor_day(now)
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(core_sql.SYNCHRONOUS_COMMIT_OFF)  # derived data: see _rows_copy
            replaced = list(RecommendationRun.objects.select_for_update().filter(target_id=target_id,
                                                                                 state=State.CURRENT))
            for earlier_day in (True, False):
                RecommendationRun.objects.filter(
                    pk__in=[r.pk for r in replaced if (r.computed_at < day_start) == earlier_day]).update(
                    state=State.HISTORY if earlier_day else State.REPLACED)
            RecommendationRun.objects.filter(pk=run.pk).update(state=State.CURRENT)
    run.state = State.CURRENT
    transaction.on_commit(lambda: recommendation_runs_prune_task.delay(target_id))
    return run


def recommendation_runs_prune(*, target_id: int) -> int:
    """Delete the target's runs that no page shows: replaced the same day, or left ``writing`` by a
    failed refresh; returns how many. Waits for a store of the target in progress, so a run still
    ``writing`` after it is one a failed refresh left."""
    State = RecommendationRun.State
    with lock_session(LockSpace.RECOMMENDATION_STORE, target_id):
        ids = list(RecommendationRun.objects.filter(target_id=target_id, state__in=(State.WRITING, State.REPLACED))
                   .values_list("pk", flat=True))
        _runs_delete(ids)
    return len(ids)


#: Connections a run is written on from RECOMMENDATION_PARALLEL_ROWS rows (apps.core.config).
PARALLEL_WRITERS = 2


def _rows_write(data: list, n: int) -> None:
    """COPY the rows, in parallel parts when there are many (see apps.core.db.in_parallel)."""
    writers = PARALLEL_WRITERS if n >= get_config()["RECOMMENDATION_PARALLEL_ROWS"] else 1
    bounds = np.linspace(0, n, writers + 1).astype(int)
    parts = [[(name, pg_type, *_rows_slice(values, nulls, lo, hi)) for name, pg_type, values, nulls in data]
             for lo, hi in zip(bounds[:-1], bounds[1:])] if writers > 1 else [data]
    in_parallel(*(functools.partial(_rows_copy, part) for part in parts))


def _rows_copy(data: list) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        # Derived data, recomputed after every collection: a crash may lose the last refresh (never
        # half of one: it is not current yet), so the commit need not wait for its WAL to reach the disk.
        cursor.execute(core_sql.SYNCHRONOUS_COMMIT_OFF)
        copy_from_arrays(cursor.cursor, pg.RECOMMENDATIONS, data)


def _rows_slice(values, nulls, lo: int, hi: int) -> tuple:
    if isinstance(values, tuple):  # text as (codes, labels)
        return (values[0][lo:hi], values[1]), None if nulls is None else nulls[lo:hi]
    return values[lo:hi], None if nulls is None else nulls[lo:hi]


def _runs_delete(ids: list[int]) -> None:
    """Delete runs with their rows (one DELETE by the rows' key prefix: nothing refers to a row)."""
    if ids:
        RecommendationRun.objects.filter(pk__in=ids).delete()


def recommendation_columns_data(columns: Recommendations, *, run_id: int) -> list[tuple]:
    """The rows of ``columns`` for copy_from_arrays, in run ``run_id``: (column, PostgreSQL type, values,
    NULL mask or None) for each column of RECOMMENDATION_COLUMNS."""
    n = len(columns)
    return [(c.column, c.pg_type, *_column(c, np.full(n, run_id) if c.name == "run_id" else getattr(columns, c.name)))
            for c in RECOMMENDATION_COLUMNS]


def _column(column: ModelColumn, values) -> tuple[np.ndarray | tuple, np.ndarray | None]:
    """(values, NULL mask) of one column: NaN is NULL in a float array, and -1 in an integer array of a
    column that takes NULL; text goes as (codes, labels)."""
    if isinstance(values, tuple):  # text as (codes, labels)
        return values, None
    if values.dtype.kind == "f":
        nulls = np.isnan(values)
        return (np.where(nulls, 0, values).astype(np.int64) if column.pg_type == "int8" else values), nulls
    if column.null:
        return values, values < 0
    return values, None
