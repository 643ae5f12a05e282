"""The PostgreSQL statements of the tiering app: the refresh's reads, the export's stored lines, budgets, plans.

Composed with psycopg.sql as apps.core.sql says: table names from the models, column lists as identifiers,
values bound.
"""

from __future__ import annotations

from collections.abc import Sequence

from psycopg import sql

from apps.core.sql import any_of_array, copy_in, fragment, names, statement, table
from apps.snapshots.models import Segment
from apps.tiering.budget.models import BudgetRun
from apps.tiering.models import Recommendation, RecommendationRun
from apps.tiering.plans.models import PlanStep
from apps.tiering.recommendations.export_models import ExportLine

#: The tables by the names the statements below give them.
TABLES = {"segment": table(Segment), "recommendation": table(Recommendation), "run": table(RecommendationRun),
          "exportline": table(ExportLine), "budgetrun": table(BudgetRun)}


def _sql(text: str, /, **parts: sql.Composable) -> sql.Composed:
    return statement(text, **TABLES, **parts)


# --------------------------------------------------------------------------- the refresh (apps.tiering.recommendations.services)

# Every segment of a target as SegmentArrays' columns (apps.tiering.recommendations.services.segment_arrays).
SEGMENTS = _sql("""
SELECT s.id::int8, coalesce(s.size_bytes, -1)::int8, s.in_awr,
       s.object_type = ANY(%(undo)s), s.object_type = ANY(%(temp)s), s.object_type = ANY(%(lob)s),
       s.object_type = ANY(%(partition)s),
       coalesce(array_position(%(hints)s::text[], nullif(s.flash_cache, '')), 0)::int2,
       coalesce(m.tier_id, -1)::int8,
       coalesce((%(latency)s::float8[])[array_position(%(tablespaces)s::text[], s.tablespace_name::text)],
                'NaN')::float8,
       CASE WHEN s.object_type = ANY(%(partition)s)
            THEN hashtextextended(s.container || ':' || s.owner || '.' || s.object_name || '.' || s.object_type, 0)
            ELSE 0 END::int8,
       -- apps.tiering.moves.movability.movability(), rule for rule (held to it by tests/tiering/moves/test_movability.py)
       CASE WHEN s.name_truncated THEN %(m_name_truncated)s
            WHEN s.object_type = ANY(%(m_lob_index_types)s)
                 OR (s.object_type = 'INDEX' AND s.object_name ~ %(m_lob_index_name)s) THEN %(m_moves_with_lob)s
            WHEN s.object_type = ANY(%(m_own_rule_types)s) THEN 0
            WHEN s.owner = %(m_missing_owner)s OR s.object_type = ANY(%(m_unknown_types)s) THEN %(m_unknown_object)s
            WHEN s.owner = ANY(%(m_dictionary_owners)s) THEN %(m_dictionary)s
            WHEN s.owner = ANY(%(m_oracle_owners)s) THEN %(m_oracle_maintained)s
            WHEN s.object_type = ANY(%(m_cluster_types)s) THEN %(m_cluster)s
            WHEN starts_with(s.object_name, %(m_aq_prefix)s) THEN %(m_aq_internal)s
            WHEN starts_with(s.object_name, %(m_iot_top)s) OR starts_with(s.object_name, %(m_iot_over)s)
                 THEN %(m_iot_segment)s
            WHEN s.object_type <> ALL(%(m_movable_types)s) THEN %(m_segment_type)s
            ELSE 0 END::int2,
       -- The partition's order by bound (a subpartition: its partition's; hash: none); PARTITION_POSITION only
       -- where the source did not say how the table is partitioned (an older extract, a sizes listing).
       coalesce(s.partition_order, CASE WHEN s.partitioning = '' THEN s.partition_position END, 0)::int4,
       coalesce(s.partition_interval, false),
       coalesce(m.array_tiering, false), hashtextextended(s.container || ':' || s.tablespace_name, 0)::int8
FROM {segment} s
-- Each tablespace's effective tier (hand map, else its locations': apps.snapshots.storage_map), a few hundred
-- rows hash-joined, and whether an array that tiers by itself is behind it.
LEFT JOIN unnest(%(ts_names)s::text[], %(ts_tiers)s::int8[], %(ts_array)s::bool[])
          AS m(tablespace_name, tier_id, array_tiering) ON m.tablespace_name = s.tablespace_name
WHERE s.target_id = %(target)s
""")

# The target's runs of the days before a day, newest first (apps.tiering.recommendations.services.advice_history).
ADVICE_RUNS = _sql("""
SELECT id FROM {run}
WHERE target_id = %(target)s AND state IN (%(history)s, %(current)s) AND computed_at >= %(since)s
  AND computed_at < %(day_start)s
ORDER BY computed_at DESC
""")
# The primary key's probes (run, segment) for the runs and segments wanted, not a scan of the runs' rows.
ADVICE_HISTORY = _sql("""
SELECT r.segment_id::int8, array_position(%(runs)s::int8[], r.run_id)::int8, coalesce(r.current_tier_id, -1)::int8,
       coalesce(r.cost_tier_id, -1)::int8, coalesce(r.recommended_tier_id, -1)::int8,
       (r.findings & %(held_back)s) <> 0
FROM {recommendation} r
WHERE r.run_id = ANY(%(runs)s::int8[]) AND r.segment_id = ANY(%(segments)s::int8[])
""")

RECOMMENDATIONS = TABLES["recommendation"]


#: The conditions (QuerySet.extra) that a recommendation's segment, a segment's name, is one of an array ``%s``.
RECOMMENDATION_SEGMENT_IN = any_of_array(Recommendation, "segment_id", "bigint")
SEGMENT_NAME_IN = any_of_array(Segment, "object_name", "text")


# --------------------------------------------------------------------------- the export's lines (export_store)

def segment_digest(fields: Sequence[str]) -> sql.Composed:
    """A segment's exported columns (``fields`` of the segment ``s``) hashed, 64 bits: md5 and its cast to uuid
    cost PostgreSQL a second at 100k rows, this a fifth of that. A hash that changes with a PostgreSQL release
    makes every line stale: its rows are worded again, the same bytes."""
    return sql.SQL("hashtextextended(ROW({})::text, 0)").format(names(fields, prefix="s"))


def stale_lines(digest: sql.Composable) -> sql.Composed:
    """Whether a row of the run ``%s`` has no stored line, or one whose segment ``digest`` changed since."""
    return _sql("SELECT EXISTS (SELECT FROM {recommendation} r JOIN {segment} s ON s.id = r.segment_id "
                "LEFT JOIN {exportline} l ON l.run_id = r.run_id AND l.segment_id = r.segment_id "
                "WHERE r.run_id = %s AND (l.segment_id IS NULL OR l.segment_digest <> {digest}))", digest=digest)


RUN_TIER_IDS = _sql("SELECT DISTINCT t FROM {recommendation} r, "
                    "unnest(ARRAY[r.current_tier_id, r.cost_tier_id, r.recommended_tier_id]) t "
                    "WHERE r.run_id = %s AND t IS NOT NULL ORDER BY t")
LINES_DELETE = _sql("DELETE FROM {exportline} WHERE run_id = %s")
LINES_COPY = copy_in(TABLES["exportline"], ("run_id", "segment_id", "segment_digest", "position", "csv", "json"))
LINES_ANALYZE = _sql("ANALYZE {exportline}")


def run_digests(digest: sql.Composable) -> sql.Composed:
    """Each segment of the run ``%s`` and its ``digest``."""
    return _sql("SELECT s.id, {digest} FROM {recommendation} r JOIN {segment} s ON s.id = r.segment_id "
                "WHERE r.run_id = %s", digest=digest)


def _text(column: str, digest: sql.Composable) -> sql.Composed:
    """A line's stored ``column`` ("csv" or "json"), NULL where its segment's ``digest`` changed since."""
    if column not in ("csv", "json"):
        raise ValueError(f"no stored column {column!r} (csv or json)")
    return sql.SQL("CASE WHEN l.segment_digest = {digest} THEN {text} END").format(
        digest=digest, text=sql.Identifier("l", column))


def stored_texts(column: str, digest: sql.Composable) -> sql.Composed:
    """The segments of the array ``%s`` and their lines' :func:`_text` in the run ``%s``."""
    return _sql("SELECT l.segment_id, {text} FROM unnest(%s::bigint[]) AS k(segment_id) "
                "JOIN {exportline} l ON l.run_id = %s AND l.segment_id = k.segment_id "
                "JOIN {segment} s ON s.id = k.segment_id", text=_text(column, digest))


def stored_lines(column: str, digest: sql.Composable, *, keys: str | None) -> sql.Composed:
    """The segments of the run ``%s`` and their lines' :func:`_text`, in the lines' order: those whose key (run,
    segment) ``keys`` selects (a query Django wrote: its parameters follow), else every row but those folded
    into another (the run ``%s`` again)."""
    rows = (_sql("l.segment_id NOT IN (SELECT f.segment_id FROM {recommendation} f "
                 "WHERE f.run_id = %s AND f.folded_into_id IS NOT NULL)") if keys is None
            else sql.SQL("(l.run_id, l.segment_id) IN ({})").format(fragment(keys)))
    return _sql("SELECT l.segment_id, {text} FROM {exportline} l JOIN {segment} s ON s.id = l.segment_id "
                "WHERE l.run_id = %s AND {rows} ORDER BY l.position", text=_text(column, digest), rows=rows)


# --------------------------------------------------------------------------- budgets, plans

# The current rows of the targets that are on the tier, moving onto it, or whose figures are unknown: one scan
# of each current run by its key (run, segment).
BUDGET_ROWS = _sql("""
SELECT run.target_id::int8, r.segment_id::int8, coalesce(r.size_bytes, -1)::int8, coalesce(r.iops, 'NaN')::float8,
       coalesce(r.current_tier_id = %(tier)s, false),
       coalesce(array_position(%(actions)s::text[], r.action::text) - 1, -1)::int2, r.findings::int8,
       coalesce(r.savings_usd, 0)::int8, coalesce(r.recommended_tier_id, -1)::int8, r.measured,
       (r.read_requests + r.write_requests = 0), coalesce(r.move_cost_usd, -1)::int8
FROM {recommendation} r JOIN {run} run ON run.id = r.run_id
WHERE run.state = %(current)s AND run.target_id = ANY(%(targets)s) AND r.folded_into_id IS NULL
  AND (r.current_tier_id = %(tier)s OR (r.recommended_tier_id = %(tier)s AND r.action = %(move)s)
       OR r.iops IS NULL OR r.size_bytes IS NULL)
""")
BUDGET_CHOSEN = _sql("SELECT chosen_segment_ids FROM {budgetrun} WHERE id = %s")


def plan_steps_copy(columns: Sequence[str]) -> sql.Composed:
    """COPY of a plan's steps, ``columns`` in their order."""
    return copy_in(table(PlanStep), columns)
