"""The export's rows read lean: plain column values through a server-side cursor, each row a tuple that answers
the attributes explain() and the export read of a Recommendation (its fields, its run, its three tiers, its
segment), with no model instance built per row.

At 100k rows, building two model instances a row (the recommendation and its segment) took a third of the
export's time; a tuple with named attributes costs one allocation. Tiers and runs are read once each, by id.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from itertools import islice
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.models import QuerySet
from django.db.models.expressions import Col
from django.db.models.lookups import Exact
from django.db.models.sql.where import AND

from apps.core import sql as core_sql
from apps.tiering import sql as pg
from apps.tiering.models import Recommendation, RecommendationRun, RunFacts, Tier
from apps.tiering.recommendations.selectors import recommendation_list

#: The segment fields the export and the DDL read (besides its id).
SEGMENT_FIELDS = ("owner", "object_name", "subobject_name", "object_type", "container", "tablespace_name",
                  "partitioned_parent", "lob_column", "name_truncated", "partition_interval", "partition_position",
                  "table_partition_name")

_REC_FIELDS = tuple(field.attname for field in Recommendation._meta.concrete_fields if field.column)
_RELATED = ("run", "current_tier", "cost_tier", "recommended_tier", "segment")


if TYPE_CHECKING:
    # mypy reads a lean row as the model row it stands for: each attribute it answers is the model's of that name.
    from apps.snapshots.models import Segment

    class LeanSegment(Segment):
        def __init__(self, values: tuple[Any, ...]) -> None: ...

    class LeanRecommendation(Recommendation):
        def __init__(self, values: tuple[Any, ...]) -> None: ...
else:

    class LeanSegment(tuple):
        """A segment's id and SEGMENT_FIELDS, read as attributes (``seg.owner``)."""

        __slots__ = ()

    class LeanRecommendation(RunFacts, tuple):
        """A recommendation's concrete fields then its run, tiers and LeanSegment, read as attributes."""

        __slots__ = ()

    for _index, _name in enumerate(("id", *SEGMENT_FIELDS)):
        setattr(LeanSegment, _name, property(itemgetter(_index)))
    for _index, _name in enumerate((*_REC_FIELDS, *_RELATED)):
        setattr(LeanRecommendation, _name, property(itemgetter(_index)))
    LeanSegment.pk = LeanSegment.id


def lean_query(recs: QuerySet[Recommendation]) -> QuerySet:
    """``recs`` (their filter and order) as value tuples: the recommendation's fields, then its segment's."""
    segment = [f"segment__{name}" for name in SEGMENT_FIELDS]
    return recs.select_related(None).values_list(*_REC_FIELDS, *segment)


class LeanReader:
    """Turns value tuples of lean_query into LeanRecommendations, reading each tier and run once (kept)."""

    def __init__(self) -> None:
        self.tiers: dict[int, Tier] = {}
        self.runs: dict[int, RecommendationRun] = {}

    def rows(self, values: list[tuple]) -> list[LeanRecommendation]:
        n = len(_REC_FIELDS)
        run_at, segment_at = _REC_FIELDS.index("run_id"), _REC_FIELDS.index("segment_id")
        tier_at = [_REC_FIELDS.index(name) for name in ("current_tier_id", "cost_tier_id", "recommended_tier_id")]
        wanted = {row[at] for row in values for at in tier_at if row[at] is not None} - self.tiers.keys()
        if wanted:
            self.tiers.update(Tier.objects.in_bulk(wanted))
        new_runs = {row[run_at] for row in values} - self.runs.keys()
        if new_runs:
            self.runs.update(RecommendationRun.objects.in_bulk(new_runs))
        tier, runs = self.tiers.get, self.runs
        now, cost, recommended = tier_at
        return [LeanRecommendation((*row[:n], runs[row[run_at]], tier(row[now]), tier(row[cost]),
                                    tier(row[recommended]), LeanSegment((row[segment_at], *row[n:]))))
                for row in values]


def lean_chunks(recs: QuerySet[Recommendation], sizes: Iterator[int], fetch: int) -> Iterator[
        tuple[LeanReader, list[LeanRecommendation]]]:
    """``recs`` in their order, in chunks of the next of ``sizes`` rows each, as soon as each chunk is read
    (key_chunks, then each chunk's columns by key)."""
    reader = LeanReader()
    for keys in key_chunks(recs, sizes, fetch):
        yield reader, reader.rows(by_key(keys))


def export_order() -> tuple[str, ...]:
    """The export's order: recommendation_list's, then the segment's id, so that rows tied on the rest (a table
    and an index of one name, two containers' segments of one name) come in one order, whether read from
    stored lines (apps.tiering.recommendations.export_store: their place in this order) or worded."""
    return _with_tiebreak(tuple(recommendation_list(target_id=0).query.order_by))


def _with_tiebreak(order: tuple) -> tuple:
    return order if order[-1:] == ("segment_id",) else (*order, "segment_id")


def in_export_order(recs: QuerySet[Recommendation]) -> bool:
    """Whether ``recs`` come in the export's order (their ties broken as key_chunks breaks them), all of them."""
    query = recs.query
    return not query.is_sliced and not query.distinct and _with_tiebreak(tuple(query.order_by)) == export_order()


def runs_of(recs: QuerySet[Recommendation]) -> list[int]:
    """The runs of ``recs``' rows, up to two (more than one is all a caller needs to know). Rows filtered on one
    run (``run_id = ...``, as every current-recommendation list is) are of one run: the first row's, read
    alone, where the distinct runs of 100k rows took 50 ms to read."""
    recs = recs.select_related(None).order_by()
    where, table = recs.query.where, recs.query.base_table
    one_run = where.connector == AND and not where.negated and any(
        isinstance(child, Exact) and isinstance(child.lhs, Col) and child.lhs.alias == table
        and child.lhs.target.attname == "run_id" for child in where.children)
    runs = recs.values_list("run_id", flat=True)
    return list(runs[:1] if one_run else runs.distinct()[:2])


@contextmanager
def export_transaction() -> Iterator[None]:
    """The transaction an export reads in: one snapshot of the database (REPEATABLE READ, when it is the outermost
    one: the run a download picks and the rows it streams are of one moment, whatever a refresh commits
    meanwhile), and no JIT compilation (PostgreSQL compiled the export's large plans for 150 ms before their
    first row, to save less than that over 100k rows). The export itself writes nothing."""
    outermost = not connection.in_atomic_block
    with transaction.atomic():
        with connection.cursor() as cursor:
            if outermost:
                cursor.execute(core_sql.REPEATABLE_READ)
            cursor.execute(core_sql.JIT_OFF)
        yield


def key_chunks(recs: QuerySet[Recommendation], sizes: Iterator[int], fetch: int) -> Iterator[list[tuple[int, int]]]:
    """The keys (run, segment) of ``recs`` in their order (then the segment's id, where rows tie on it), in chunks
    of the next of ``sizes`` keys each.

    The order is read narrow: only the keys, sorted by PostgreSQL and streamed ``fetch`` at a time through a
    server-side cursor inside a transaction (outside one the cursor is declared WITH HOLD and the whole result
    is written out before its first row). Sorting 100k wide rows took half a second before the first could
    leave; their keys, a third of that. Memory holds one chunk. The transaction ends (rolled back: nothing is
    written) when the chunks end or are abandoned.
    """
    with export_transaction():
        ordered = recs.select_related(None).order_by(*_with_tiebreak(tuple(recs.query.order_by)))
        keys = ordered.values_list("run_id", "segment_id").iterator(chunk_size=fetch)
        try:
            for size in sizes:
                part = list(islice(keys, size))
                if not part:
                    return
                yield part
        finally:  # its cursor closed before the transaction (or savepoint) that holds it ends
            keys.close()  # type: ignore[attr-defined]  # a generator: django-stubs types iterator() an Iterator


def by_key(keys: list[tuple[int, int]]) -> list[tuple]:
    """The lean_query values of the rows ``keys`` (run, segment), in that order (one query a run)."""
    runs: dict[int, list[int]] = {}
    for run_id, segment_id in keys:
        runs.setdefault(run_id, []).append(segment_id)
    run_at, segment_at = _REC_FIELDS.index("run_id"), _REC_FIELDS.index("segment_id")
    found: dict[tuple[int, int], tuple[Any, ...]] = {}
    for run_id, segment_ids in runs.items():
        rows = lean_query(_of_segments(Recommendation.objects.filter(run_id=run_id), segment_ids).order_by())
        found.update(((row[run_at], row[segment_at]), row) for row in rows)
    return [found[key] for key in keys]


def _of_segments(recs: QuerySet[Recommendation], segment_ids: list[int]) -> QuerySet[Recommendation]:
    """``recs`` of the segments ``segment_ids``, the ids sent as one array parameter (``= ANY(%s)``): an IN of
    5000 placeholders made psycopg parse a new query text for every part (a sixth of the reading's time)."""
    return recs.extra(where=[pg.RECOMMENDATION_SEGMENT_IN], params=[segment_ids])


def lean_all(recs: QuerySet[Recommendation]) -> list[LeanRecommendation]:
    """Every row of ``recs``, lean (one query, then one for the tiers and one for the runs)."""
    return LeanReader().rows(list(lean_query(recs)))


__all__ = ["LeanReader", "LeanRecommendation", "LeanSegment", "SEGMENT_FIELDS", "by_key", "export_order", "export_transaction",
           "in_export_order", "key_chunks", "runs_of", "lean_all",
           "lean_chunks", "lean_query"]
