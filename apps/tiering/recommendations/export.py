"""The recommendation export: one row per segment, a stable header, shared by the CSV
download and `manage.py recommend`.

Header (stable; new columns are only ever appended):

target, owner, object_name, subobject_name, object_type, tablespace_name, size_gb,
iops, read_iops, write_iops, intensity, statistic, window_days, current_tier,
recommended_tier, action, cost_now_usd, cost_after_usd, savings_usd,
io_time_saved_s_per_day, reasons, ddl, computed_at, measured, iops_bound, cost_unit,
cost_now_usd_per_month, cost_after_usd_per_month, savings_usd_per_month, window,
window_start, window_end, window_intervals, payback_days, container (the PDB of a CDB's segment), move_group, lob_index

Money: cost_now_usd, cost_after_usd and savings_usd are in the unit of the target's
tier set, named in ``cost_unit``: "USD purchase" (devices bought once: the seed's
figures) or "USD/month" (cloud). The ``*_per_month`` columns give every figure per
month (a purchase divided by its set's amortisation months, default 60), the one unit
that may be added up across targets.

A figure that was not measured is an empty cell (JSON null), never 0: ``measured`` is
false where a top-N source (AWR, an imported report) did not list all of a segment's
requests, ``iops_bound`` then bounds its IOPS when the source gave a bound, and its costs
count the GB and what was measured only (lower bounds).

The window: ``window_days`` is the window's length in days as configured (WINDOW_DAYS);
what its figures really cover is in ``window`` (in words: "one 22 h interval", "P95 over
6 days"), ``window_start`` and ``window_end`` (the first snapshot's begin and the last one's
end, UTC) and ``window_intervals`` (snapshot intervals, RAC instances of one snapshot
counted once): a single imported report of 22 hours is not 7 days.

``payback_days``: the days a move's saving takes to repay its one-off cost (apps.tiering.moves.payback),
for a move made and for one "not worth moving" (empty there when it saves nothing: it never pays
back); empty for every other action.

``move_group``: the group of moves it was judged with for payback as well as alone (apps.tiering.recommendations.grouping:
a table's partitions going to one tier, a volume tablespace's segments), with the group's moves and saving
a month, e.g. "SOE.ORDERS partitions → flash (15 moves, $5.25/month together)"; empty when in none.

``lob_index``: a LOB segment's row counts its LOB index (apps.tiering.recommendations.lobfold): its size, IO, costs and
saving include the index's, named here; the index has no row of its own (it moves only with its LOB).
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from functools import lru_cache, partial
from typing import Any

from django.db.models import QuerySet
from tabulate import tabulate

from apps.snapshots.selectors import WindowCoverage
from apps.targets.models import Target
from apps.tiering.costmodel import BillingBasis
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.recommendations import export_read, export_store
from apps.tiering.recommendations.explain import Explanation, explain, partition_siblings
from apps.tiering.recommendations.export_cells import csv_text
from apps.tiering.recommendations.export_read import (
    LeanReader,
    LeanRecommendation,
    by_key,
    export_transaction,
    in_export_order,
    key_chunks,
    lean_all,
)
from apps.tiering.recommendations.export_store import JSON_SEPARATOR, json_template
from apps.tiering.recommendations.lobfold import LOB_SEGMENT_TYPES
from apps.tiering.recommendations.selectors import lob_indexes_of, recommendation_list, recommendation_window
from apps.tiering.rules import PARTITION_TYPES

HEADER = (
    "target", "owner", "object_name", "subobject_name", "object_type", "tablespace_name", "size_gb", "iops",
    "read_iops", "write_iops", "intensity", "statistic", "window_days", "current_tier", "recommended_tier",
    "action", "cost_now_usd", "cost_after_usd", "savings_usd", "io_time_saved_s_per_day", "reasons", "ddl",
    "computed_at", "measured", "iops_bound", "cost_unit", "cost_now_usd_per_month", "cost_after_usd_per_month",
    "savings_usd_per_month", "window", "window_start", "window_end", "window_intervals", "payback_days",
    "container", "move_group", "lob_index",
)


def _round(number: float | None, digits: int) -> float | None:
    return None if number is None else round(number, digits)


def export_rows(recs: Iterable[Recommendation], target: Target) -> list[tuple[Any, ...]]:
    """The export rows of ``recs`` (recommendation_list), reasons and DDL worded here (apps.tiering.recommendations.explain)."""
    recs = lean_all(recs) if isinstance(recs, QuerySet) else list(recs)
    basis, windows = target.tier_set.basis, _windows({rec.run_id: rec.run for rec in recs}, {})
    indexes = _lob_indexes(recs)
    return [_row(rec, target.name, explanation, basis, windows[rec.run_id], indexes)
            for rec, explanation in zip(recs, explain(recs, target=target))]


def _lob_indexes(recs: Sequence[Recommendation]) -> dict[tuple[int, int], str]:
    """(run, LOB segment) -> the names of the LOB indexes folded into its row (one query a run)."""
    lobs: dict[int, list[int]] = {}
    for rec in recs:
        if rec.segment.object_type in LOB_SEGMENT_TYPES:
            lobs.setdefault(rec.run_id, []).append(rec.segment_id)
    return {(run_id, lob_id): " ".join(index.segment.object_name for index in indexes)
            for run_id, lob_ids in lobs.items()
            for lob_id, indexes in lob_indexes_of(run_id=run_id, lob_ids=lob_ids).items()}


def _attach(rows: list[Recommendation], tiers: dict[int, Tier], runs: dict[int, RecommendationRun]) -> None:
    """Give the rows their tiers and runs, each read once into ``tiers`` and ``runs`` (kept across calls)."""
    wanted = {tier_id for rec in rows for tier_id in (rec.current_tier_id, rec.cost_tier_id, rec.recommended_tier_id)
              if tier_id is not None} - tiers.keys()
    tiers.update(Tier.objects.in_bulk(wanted))
    runs.update(RecommendationRun.objects.in_bulk({rec.run_id for rec in rows} - runs.keys()))

    def tier(tier_id: int | None) -> Tier | None:
        return None if tier_id is None else tiers.get(tier_id)

    for rec in rows:
        rec.run = runs[rec.run_id]
        rec.current_tier = tier(rec.current_tier_id)
        rec.cost_tier = tier(rec.cost_tier_id)
        rec.recommended_tier = tier(rec.recommended_tier_id)


def _windows(runs: dict[int, RecommendationRun], known: dict[int, WindowCoverage | None]
             ) -> dict[int, WindowCoverage | None]:
    """What each run's window covers (one query a run, kept in ``known`` across calls)."""
    for run_id, run in runs.items():
        if run_id not in known:
            known[run_id] = recommendation_window(run=run)
    return known


def _window_cells(window: WindowCoverage | None) -> tuple[Any, ...]:
    if window is None or not window.intervals or window.begin_at is None or window.end_at is None:
        return (window.words if window else None), None, None, (window.intervals if window else None)
    return window.words, window.begin_at.isoformat(), window.end_at.isoformat(), window.intervals


def _per_month(amount: Decimal | None, basis: BillingBasis) -> float | None:
    """A cost per month, to a hundredth of a cent (a purchase divided by its months is rarely whole cents)."""
    return None if amount is None else float(round(basis.per_month(amount), 4))


def _per_month_memo(basis: BillingBasis) -> Callable[[Decimal | None], float | None]:
    """_per_month in ``basis``, each amount worked out once (an export's amounts repeat: three Decimal divisions
    a row were a twentieth of its time). Equal Decimals share an entry: their per-month floats are equal."""
    return lru_cache(maxsize=4096)(partial(_per_month, basis=basis))


def _row(rec: Recommendation, target_name: str, explanation: Explanation, basis: BillingBasis,
         window: WindowCoverage | None, lob_indexes: dict[tuple[int, int], str],
         per_month: Callable[[Decimal | None], float | None] | None = None) -> tuple[Any, ...]:
    seg = rec.segment
    per_month = per_month or partial(_per_month, basis=basis)
    return (
        target_name, seg.owner, seg.object_name, seg.subobject_name, seg.object_type, seg.tablespace_name,
        _round(rec.size_gb, 3), _round(rec.iops, 3), _round(rec.read_iops, 3), _round(rec.write_iops, 3),
        _round(rec.intensity, 4), rec.statistic, rec.window_days,
        rec.current_tier.name if rec.current_tier else "", rec.recommended_tier.name if rec.recommended_tier else "",
        rec.action, rec.cost_now_usd, rec.cost_after_usd, rec.savings_usd, _round(rec.io_time_saved_s_per_day, 1),
        " ".join(reason.text for reason in explanation.reasons), explanation.ddl, rec.computed_at.isoformat(),
        rec.measured, _round(rec.iops_bound, 3), basis.unit, per_month(rec.cost_now_usd),
        per_month(rec.cost_after_usd), per_month(rec.savings_usd), *_window_cells(window),
        _round(rec.payback_days, 1), seg.container, rec.move_group,
        lob_indexes.get((rec.run_id, rec.segment_id), ""),
    )


def export_csv(rows: list[tuple[Any, ...]], *, with_header: bool = True) -> str:
    """The rows as CSV that no spreadsheet evaluates (apps.tiering.csvsafe's cells)."""
    return csv_text(HEADER, rows, with_header=with_header)


#: Rows worded and written at a time by keyed_row_parts, after a first part of FIRST_ROWS (the first bytes
#: leave once those few are worded), and rows fetched at a time from the server-side cursor.
CHUNK_ROWS = 5000
FIRST_ROWS = 200
FETCH_ROWS = 1000


def export_csv_parts(recs: QuerySet[Recommendation], target: Target) -> Iterator[str]:
    """export_csv(export_rows(recs, target)) in parts, for a streamed download: the header, then the rows of each
    part (_text_parts: stored lines where the run's are, else worded); memory holds one part, not 100k rows and
    their 50 MB of text."""
    yield export_csv([])
    for texts in _text_parts(recs, target, "csv"):
        yield "".join(texts)


def export_json_parts(recs: QuerySet[Recommendation], target: Target) -> Iterator[str]:
    """export_json(export_rows(recs, target)) in parts (the same text), for a streamed download or command."""
    template, separator = json_template(HEADER), JSON_SEPARATOR
    first = True
    for texts in _text_parts(recs, target, "json"):
        text = ",\n".join([template % tuple(values.split(separator)) for values in texts])
        yield ("[\n" if first else ",\n") + text
        first = False
    yield "[]" if first else "\n]"


#: The parts' sizes: FIRST_ROWS (the first bytes leave once those few are read), then CHUNK_ROWS at a time.
def _sizes() -> Iterator[int]:
    return itertools.chain((FIRST_ROWS,), itertools.repeat(CHUNK_ROWS))


def _text_parts(recs: QuerySet[Recommendation], target: Target, column: str) -> Iterator[list[str]]:
    """Each part's rows as text (their CSV lines, or their JSON values: apps.tiering.recommendations.export_store.LineWriter), in
    ``recs``' order: the text stored for a run whose lines still hold (export_store), the rest worded here (and
    the run's rendering queued once this download's transaction ends).

    Rows of one run in the export's order (recommendation_list's, filtered or not) whose lines are stored are
    read as the lines lie, in that order (_stored_parts); others are read by key (_keyed_parts)."""
    with export_transaction():
        source = _stored_source(recs, target)
        if source is None:
            yield from _keyed_parts(recs, target, column)
        else:
            yield from _stored_parts(*source, target, column)


def _stored_source(recs: QuerySet[Recommendation], target: Target) -> tuple[int, QuerySet | None] | None:
    """(the run, the rows of it to read: None for recommendation_list's whole list) when ``recs`` are rows of one
    run whose stored lines hold, in the export's order; else None."""
    if not in_export_order(recs):
        return None
    runs = export_read.runs_of(recs)
    if len(runs) != 1 or not export_store.stored_runs(runs, target):
        return None
    whole = recs.query.sql_with_params() == recommendation_list(target_id=target.id).query.sql_with_params()
    return runs[0], None if whole else recs


def _stored_parts(run_id: int, among: QuerySet[Recommendation] | None, target: Target, column: str
                  ) -> Iterator[list[str]]:
    """_text_parts of a run's rows whose lines hold (export_store.stored_lines): the stored text as it lies, a
    row whose segment changed since worded here (and the run rendered again)."""
    words: _Wording | None = None
    text_of = export_store.LineWriter().csv if column == "csv" else export_store.LineWriter.json
    for lines in export_store.stored_lines(run_id, column, _sizes(), among=among):
        if missing := [segment_id for segment_id, text in lines if text is None]:
            if words is None:
                words = _Wording(target)
                export_store.render_later([run_id])
            part = words.reader.rows(by_key([(run_id, segment_id) for segment_id in missing]))
            worded = {rec.segment_id: text_of(row) for rec, row in zip(part, words.rows(part))}
            yield [worded[segment_id] if text is None else text for segment_id, text in lines]
        else:
            yield [text for _segment_id, text in lines if text is not None]  # none is: nothing was missing


def _keyed_parts(recs: QuerySet[Recommendation], target: Target, column: str) -> Iterator[list[str]]:
    """_text_parts by key: each part's keys in ``recs``' order, then the stored text of a run's rows whose lines
    hold, the rest worded."""
    lines, words = export_store.LineWriter(), _Wording(target)
    text_of = lines.csv if column == "csv" else lines.json
    stored: dict[int, bool] = {}  # run -> whether its stored lines hold
    queued: set[int] = set()  # runs whose rendering this download queued
    for keys in key_chunks(recs, _sizes(), fetch=FETCH_ROWS):
        runs: dict[int, list[int]] = {}
        for run_id, segment_id in keys:
            runs.setdefault(run_id, []).append(segment_id)
        if unknown := runs.keys() - stored.keys():
            held = export_store.stored_runs(unknown, target)
            stored.update((run_id, run_id in held) for run_id in unknown)
            export_store.render_later(sorted(unknown - held))
            queued |= unknown - held
        texts: dict[tuple[int, int], str] = {}
        for run_id, segment_ids in runs.items():
            if stored[run_id]:
                found = export_store.stored_texts(run_id, segment_ids, column)
                texts.update(((run_id, segment_id), text) for segment_id, text in found.items())
        if missing := [key for key in keys if key not in texts]:
            # A run with stored lines missing some (their segment changed since): rendered again after this.
            if stale := {run_id for run_id, _ in missing if stored[run_id]} - queued:
                export_store.render_later(sorted(stale))
                queued |= stale
            part = words.reader.rows(by_key(missing))
            texts.update(((rec.run_id, rec.segment_id), text_of(row)) for rec, row in zip(part, words.rows(part)))
        yield [texts[key] for key in keys]


class _Wording:
    """Rows of parts of one export worded (apps.tiering.recommendations.explain), with what the parts share read once."""

    def __init__(self, target: Target) -> None:
        self.target, self.basis = target, target.tier_set.basis
        self.per_month = _per_month_memo(self.basis)
        self.windows: dict[int, WindowCoverage | None] = {}
        self.reader = LeanReader()

    def rows(self, part: list[LeanRecommendation]) -> list[tuple[Any, ...]]:
        target = self.target
        _windows({run_id: self.reader.runs[run_id] for run_id in {rec.run_id for rec in part}}, self.windows)
        explanations = explain(part, target=target, siblings=_siblings(part, target.id))
        indexes = _lob_indexes(part)
        return [_row(rec, target.name, e, self.basis, self.windows[rec.run_id], indexes, self.per_month)
                for rec, e in zip(part, explanations)]


def keyed_row_parts(recs: QuerySet[Recommendation], target: Target) -> Iterator[
        tuple[list[LeanRecommendation], list[tuple[Any, ...]]]]:
    """export_rows(recs, target) in parts with their recommendations: FIRST_ROWS rows, then CHUNK_ROWS at a time,
    each worded as soon as its rows are read (apps.tiering.recommendations.export_read: one query of the keys, streamed, then
    each part's columns by key)."""
    words = _Wording(target)
    for keys in key_chunks(recs, _sizes(), fetch=FETCH_ROWS):
        part = words.reader.rows(by_key(keys))
        yield part, words.rows(part)


def _siblings(part: list[LeanRecommendation], target_id: int) -> dict[tuple, tuple]:
    """partition_siblings for the partitioned tables and indexes of ``part`` only (all their partitions, read
    by name): one query a part, and memory for one part's groups, where the whole run's partitions were read
    before the first row (150 ms and 30k partitions at 100k rows)."""
    wanted = {(rec.run_id, *_group(rec.segment)) for rec in part if rec.segment.object_type in PARTITION_TYPES}
    if not wanted:
        return {}
    found = partition_siblings(run_ids={key[0] for key in wanted}, target_id=target_id,
                               names={key[3] for key in wanted})
    return {key: values for key, values in found.items() if key in wanted}


def _group(seg: Any) -> tuple[str, str, str, str]:
    """The key of a partition's table or index, as partition_siblings gives it."""
    return seg.container, seg.owner, seg.object_name, seg.object_type


def export_json(rows: list[tuple[Any, ...]]) -> str:
    def plain(value: Any) -> Any:
        return float(value) if isinstance(value, Decimal) else value

    return json.dumps([{k: plain(v) for k, v in zip(HEADER, row)} for row in rows], indent=2)


TABLE_COLUMNS = ("owner", "object_name", "subobject_name", "object_type", "size_gb", "iops", "intensity",
                 "current_tier", "recommended_tier", "action", "savings_usd", "cost_unit", "savings_usd_per_month")


def export_table(rows: list[tuple[Any, ...]]) -> str:
    index = [HEADER.index(c) for c in TABLE_COLUMNS]
    return tabulate([[row[i] for i in index] for row in rows], headers=TABLE_COLUMNS, floatfmt=".2f")
