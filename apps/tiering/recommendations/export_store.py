"""A run's export rendered once and stored (apps.tiering.recommendations.export_models), and read back by the download.

A run's rows never change once stored, so each row's CSV line and JSON values are worded once, after the refresh
(the task export_lines_render, queued when a refresh succeeds and by a download that found none), not at every
download: wording a row's reasons and DDL was most of an export's time. Each line keeps its place in the export's
order (``position``): a download of one run's rows in that order, filtered or not, reads the stored text in one
query by the index (run, position), with no sort (stored_lines); other reads find the lines by key (stored_texts).
Only the rows whose text is missing or stale are worded on the fly: the same bytes either way.

What an export reads besides the run's rows can change after the run: the target (its name, release, block size,
tier set), the tier set's settings and its tiers' prices, the storage map (where a move goes, array tiering), the
run's window (snapshots pruned), its hysteresis history (runs pruned) and this code. Their digest (``context``)
is stored with the lines; a download whose digest differs words every row again and queues a new rendering. A
collection may change a segment's columns (its tablespace): each line keeps a digest of its segment's exported
columns, compared by PostgreSQL when the line is read.
"""

from __future__ import annotations

import csv
import datetime as dt
import hashlib
import io
import json
import logging
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

from django.db import connection, transaction
from django.db.models import Q, QuerySet
from django.forms.models import model_to_dict
from django.utils import timezone

from apps.core import sql as core_sql
from apps.core.locks import LockSpace, lock_xact
from apps.core.time import floor_day
from apps.snapshots.storage_map import storage_map_read
from apps.targets.models import Target
from apps.tiering import sql as pg
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.moves import hysteresis
from apps.tiering.recommendations.export_cells import cells
from apps.tiering.recommendations.export_models import ExportLine, ExportRender
from apps.tiering.recommendations.export_read import SEGMENT_FIELDS, export_order
from apps.tiering.recommendations.selectors import recommendation_window

logger = logging.getLogger(__name__)

#: Separates a row's JSON values in ExportLine.json: JSON text writes U+001F only escaped.
JSON_SEPARATOR = "\x1f"

_APPS = Path(__file__).resolve().parents[2]
#: A segment's exported columns hashed (apps.tiering.sql.segment_digest), compared with its line's at every download.
_DIGEST_SQL = pg.segment_digest(SEGMENT_FIELDS)


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A digest of the apps' Python source: a deployment that may word rows differently renders them again."""
    digest = hashlib.sha256()
    for path in sorted(_APPS.rglob("*.py")):
        if "migrations" not in path.parts:
            digest.update(str(path.relative_to(_APPS)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _history_runs(run: RecommendationRun, target: Target) -> list[int]:
    """The runs apps.tiering.recommendations.services.advice_history reads for ``run``'s held-back rows (pruned ones change it)."""
    settings = hysteresis.Settings(band=target.tier_set.hysteresis_band, days=target.tier_set.hysteresis_days)
    day_start = floor_day(run.computed_at)
    states = (RecommendationRun.State.HISTORY, RecommendationRun.State.CURRENT)
    return list(RecommendationRun.objects.filter(
        target_id=target.id, state__in=states, computed_at__lt=day_start,
        computed_at__gte=day_start - dt.timedelta(days=settings.memory_days)).order_by("id").values_list("id", flat=True))


def context_digest(run: RecommendationRun, target: Target, tier_ids: Iterable[int]) -> str:
    """The digest of what ``run``'s export reads besides its rows (``tier_ids``: the tiers the rows name)."""
    tiers = Tier.objects.filter(Q(tier_set_id=target.tier_set_id) | Q(id__in=list(tier_ids))).order_by("id")
    capabilities = target.capabilities or {}
    placements = storage_map_read(target_id=target.id).placements
    facts = {
        "code": code_digest(), "target": [target.id, target.name, target.tier_set_id,
                                          capabilities.get("release"), capabilities.get("block_size_bytes")],
        "tier_set": model_to_dict(target.tier_set), "tiers": [model_to_dict(tier) for tier in tiers],
        "placements": repr(sorted(placements.items())), "window": repr(recommendation_window(run=run)),
        "history": _history_runs(run, target), "run": [run.id, run.target_id],
    }
    return hashlib.sha256(json.dumps(facts, default=str, sort_keys=True).encode()).hexdigest()


def _stale_lines(run_id: int) -> bool:
    """Whether a row of ``run_id`` has no stored line, or one worded from segment columns changed since."""
    with connection.cursor() as cursor:
        cursor.execute(pg.stale_lines(_DIGEST_SQL), [run_id])
        return cursor.fetchone()[0]


def _tier_ids(run_id: int) -> list[int]:
    with connection.cursor() as cursor:
        cursor.execute(pg.RUN_TIER_IDS, [run_id])
        return [tier_id for (tier_id,) in cursor.fetchall()]


class LineWriter:
    """A row's CSV line, exactly as export_csv writes it within its part (csv's excel dialect, neutralised
    cells, "\\r\\n" line end), and its JSON values, exactly as export_json writes them."""

    def __init__(self) -> None:
        self._buffer = io.StringIO()
        self._writer = csv.writer(self._buffer, dialect="excel")

    def csv(self, row: Sequence[Any]) -> str:
        buffer = self._buffer
        buffer.seek(0)
        buffer.truncate()
        self._writer.writerow(cells(row))
        return buffer.getvalue()

    @staticmethod
    def json(row: Sequence[Any]) -> str:
        dumps = json.dumps
        return JSON_SEPARATOR.join(dumps(float(value) if isinstance(value, Decimal) else value) for value in row)


def json_template(header: Sequence[str]) -> str:
    """The %-template of one object of export_json's indented list, from a row's JSON values."""
    return "  {\n" + ",\n".join(f"    {json.dumps(name)}: %s" for name in header) + "\n  }"


def export_render(*, run_id: int) -> ExportRender | None:
    """Word ``run_id``'s export once and store it (idempotent: nothing is done while the stored lines' context
    and every line's segment digest hold). None when the run is gone. Rows are read and stored in one transaction, in one snapshot of the
    database (REPEATABLE READ) when this is the outermost one, so each line's segment digest is that of the
    columns it was worded from."""
    from apps.tiering.recommendations.export import keyed_row_parts  # cycle: apps.tiering.recommendations.export

    outermost = not connection.in_atomic_block
    with transaction.atomic():
        with connection.cursor() as cursor:
            if outermost:
                cursor.execute(core_sql.REPEATABLE_READ)
        lock_xact(LockSpace.EXPORT_RENDER, run_id)
        run = RecommendationRun.objects.filter(pk=run_id).select_related("target__tier_set").first()
        if run is None:
            return None
        target, tier_ids = run.target, _tier_ids(run_id)
        context = context_digest(run, target, tier_ids)
        stored = ExportRender.objects.filter(run_id=run_id).first()
        if stored is not None and stored.context == context and not _stale_lines(run_id):
            return stored
        with connection.cursor() as cursor:
            cursor.execute(pg.LINES_DELETE, [run_id])
            cursor.execute(pg.run_digests(_DIGEST_SQL), [run_id])
            digests = dict(cursor.fetchall())
        count, lines = 0, LineWriter()
        recs = Recommendation.objects.filter(run_id=run_id).order_by(*export_order())
        for part, rows in keyed_row_parts(recs, target):
            # A COPY a part: the connection also reads the next part's rows, which it cannot in a COPY.
            with connection.cursor() as cursor, cursor.cursor.copy(pg.LINES_COPY) as copy:
                for position, (rec, row) in enumerate(zip(part, rows), start=count):
                    copy.write_row((run_id, rec.segment_id, digests[rec.segment_id], position, lines.csv(row),
                                    lines.json(row)))
            count += len(rows)
        with connection.cursor() as cursor:
            # The planner's figures of the table now: with those of before the run's lines were written, it takes
            # the run for a few rows and reads all of them for each part a download asks for.
            cursor.execute(pg.LINES_ANALYZE)
        render, _ = ExportRender.objects.update_or_create(run_id=run_id, defaults={
            "context": context, "tier_ids": tier_ids, "rows": count, "rendered_at": timezone.now()})
    logger.info("export of run %s rendered: %s rows", run_id, count)
    return render


def stored_runs(run_ids: Iterable[int], target: Target) -> set[int]:
    """Those of ``run_ids`` whose stored lines still hold (their context digest is today's)."""
    held = set()
    renders = ExportRender.objects.filter(run_id__in=list(run_ids)).select_related("run")
    for render in renders:
        if render.run.target_id == target.id and render.context == context_digest(render.run, target, render.tier_ids):
            held.add(render.run_id)
    return held


def stored_texts(run_id: int, segment_ids: list[int], column: str) -> dict[int, str]:
    """segment -> the stored ``column`` ("csv" or "json") of ``run_id``'s rows of ``segment_ids`` whose segment
    columns are still those they were worded from (one query: the ids as one array parameter, each line and
    segment found by its key; the digests are compared in the select list, where the planner does not take the
    comparison for a join condition that matches one row)."""
    if column not in ("csv", "json"):
        raise ValueError(f"stored_texts: no stored column {column!r} (csv or json)")
    with connection.cursor() as cursor:
        cursor.execute(pg.stored_texts(column, _DIGEST_SQL), [segment_ids, run_id])
        return {segment_id: text for segment_id, text in cursor.fetchall() if text is not None}


def stored_lines(run_id: int, column: str, sizes: Iterator[int], *, among: QuerySet[Recommendation] | None
                 ) -> Iterator[list[tuple[int, str | None]]]:
    """(segment, its stored ``column``: "csv" or "json") of the run's rows that ``among`` selects (None: every row
    that sums count, as recommendation_list lists them: not a LOB index folded into its LOB's row), in the export's
    order, in chunks of the next of ``sizes`` rows; the text is None where the segment's columns changed since the
    line was worded.

    One query, read in the lines' order by their index (run, position): no sort, so the first rows leave at once.
    ``among``'s filters select the lines by a semi-join on the key (a lookup a line); the whole list leaves out
    the run's few folded rows instead (one hashed set, read by their own index). Streamed through a server-side
    cursor: call it inside a transaction (outside one the cursor is declared WITH HOLD and the whole result is
    written out before its first row)."""
    if column not in ("csv", "json"):
        raise ValueError(f"stored_lines: no stored column {column!r} (csv or json)")
    params: Sequence[Any]
    if among is None:
        keys_sql, params = None, [run_id]
    else:
        keys = among.select_related(None).order_by().values_list("run_id", "segment_id")
        keys_sql, params = keys.query.sql_with_params()
    sql = pg.stored_lines(column, _DIGEST_SQL, keys=keys_sql)
    with connection.chunked_cursor() as cursor:
        cursor.execute(sql, [run_id, *params])
        for size in sizes:
            rows = cursor.fetchmany(size)
            if not rows:
                return
            yield rows


def render_later(run_ids: Iterable[int]) -> None:
    """Queue the rendering of ``run_ids`` once the current transaction commits (a download that found none)."""
    from apps.tiering.tasks import export_lines_render  # cycle: apps.tiering.tasks

    for run_id in run_ids:
        transaction.on_commit(partial(_send, export_lines_render, run_id))


def _send(task: Any, run_id: int) -> None:
    try:
        task.delay(run_id)
    except Exception as exc:  # the broker down: the downloads go on wording rows, and say why here
        logger.warning("export of run %s: its rendering could not be queued: %s", run_id, exc)


def on_refresh_succeeded(sender: Any, *, target_id: int, **kwargs: Any) -> None:
    """apps.tiering.signals.refresh_succeeded: queue the rendering of the target's current run."""
    from apps.tiering.tasks import export_lines_render  # cycle: apps.tiering.tasks

    run_id = RecommendationRun.objects.filter(target_id=target_id, state=RecommendationRun.State.CURRENT).values_list(
        "id", flat=True).first()
    if run_id is not None:
        _send(export_lines_render, run_id)


__all__ = ["ExportLine", "ExportRender", "JSON_SEPARATOR", "LineWriter", "context_digest", "export_render",
           "json_template", "on_refresh_succeeded", "render_later", "stored_lines", "stored_runs",
           "stored_texts"]
