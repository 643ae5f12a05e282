"""The PostgreSQL statements of the dashboard app: the search by name across the fleet, and the state a viewer's
cached page body is kept under (apps.dashboard.page_cache).

Composed with psycopg.sql as apps.core.sql says: table names from the models, values bound.
"""

from __future__ import annotations

import functools

from psycopg import sql

from apps.core.sql import statement, table
from apps.snapshots.models import CollectionRun, DataFile, Residency, Segment, SegmentMove, Snapshot, TablespaceSpace
from apps.snapshots.rollup_models import RollupDay, RollupHour
from apps.snapshots.sqlstats.models import SegmentSql
from apps.snapshots.storage_models import DiskGroup
from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.tiering.models import RecommendationRun, RecommendationRunFigures, Refresh, Tier, TierSet


def segment_name(alias: str) -> sql.Composed:
    """OWNER.NAME of the segment ``alias``: the trigram index's expression (snapshots migration
    segment_name_trigram_index), verbatim, so that the index answers a LIKE on it."""
    return sql.SQL("UPPER({t}.owner || '.' || {t}.object_name)").format(t=sql.Identifier(alias))


#: The ids of the target ``%s``'s segments whose OWNER.NAME is LIKE ``%s``.
SEGMENT_IDS_MATCHING = statement("SELECT id FROM {segment} WHERE target_id = %s AND {name} LIKE %s",
                                 segment=table(Segment), name=segment_name(Segment._meta.db_table))


@functools.cache
def segment_ids_matching_text() -> str:
    """:data:`SEGMENT_IDS_MATCHING` as text, for a subquery of the ORM (RawSQL)."""
    return SEGMENT_IDS_MATCHING.as_string()


#: Segments of every target whose OWNER.NAME is LIKE ``%s``: names starting with it (LIKE ``%s``) first, then the
#: most similar to ``%s`` (pg_trgm similarity), at most ``%s``.
SEARCH_SEGMENTS = statement(
    "SELECT s.id, t.name, s.owner, s.object_name, s.subobject_name, s.parent_partition, s.container,"
    " s.object_type, s.tablespace_name FROM {segment} s JOIN {target} t ON t.id = s.target_id"
    " WHERE {name} LIKE %s"
    " ORDER BY ({name} LIKE %s) DESC, similarity({name}, %s) DESC, s.owner, s.object_name, s.id LIMIT %s",
    segment=table(Segment), target=table(Target), name=segment_name("s"))


def _page_state() -> sql.Composed:
    """The parts of a target's state, each a small indexed read: newest ids and versions of what is appended,
    row versions of what is edited in place."""
    row = sql.SQL("xmin::text || ':' || ctid::text")
    parts = [
        sql.SQL("(SELECT {row} FROM {t} WHERE id = %(target)s)").format(row=row, t=table(Target)),
        sql.SQL("(SELECT string_agg({row}, ',') FROM {s} WHERE {key} = (SELECT tier_set_id FROM {t} WHERE id = %(target)s))"
                ).format(row=row, s=table(TierSet), key=sql.Identifier(TierSet._meta.pk.attname), t=table(Target)),
        sql.SQL("(SELECT string_agg({row}, ',' ORDER BY id) FROM {tier} WHERE tier_set_id = "
                "(SELECT tier_set_id FROM {t} WHERE id = %(target)s))").format(row=row, tier=table(Tier), t=table(Target)),
        *(sql.SQL("(SELECT string_agg(id::text || '@' || v, ',') FROM (SELECT id, {row} AS v FROM {m} "
                  "WHERE target_id = %(target)s ORDER BY id DESC LIMIT {n}) newest)").format(row=row, m=table(model), n=n)
          for model, n in ((CollectionRun, 1), (Refresh, 1), (RecommendationRun, 2))),
        sql.SQL("(SELECT string_agg(run_id::text || '@' || {row}, ',') FROM {f} WHERE run_id IN "
                "(SELECT id FROM {r} WHERE target_id = %(target)s ORDER BY id DESC LIMIT 2))"
                ).format(row=row, f=table(RecommendationRunFigures), r=table(RecommendationRun)),
        *(sql.SQL("(SELECT string_agg({row}, ',' ORDER BY id) FROM {m} WHERE target_id = %(target)s)"
                  ).format(row=row, m=table(model)) for model in (TablespaceTier, StorageLocation)),
        *(sql.SQL("(SELECT min(id)::text || '-' || max(id)::text FROM {m} WHERE target_id = %(target)s)"
                  ).format(m=table(model)) for model in (Snapshot, DataFile, DiskGroup, TablespaceSpace, SegmentMove)),
        *(sql.SQL("(SELECT max(version)::text || '/' || count(*)::text FROM {m} WHERE target_id = %(target)s)"
                  ).format(m=table(model)) for model in (RollupDay, RollupHour)),
        sql.SQL("(SELECT max(collected_at)::text FROM {m} WHERE target_id = %(target)s)").format(m=table(Residency)),
        # The SQL behind the segments: a window's provisional rows are replaced by new ones at its newest end.
        sql.SQL("(SELECT max(id)::text FROM {m} WHERE target_id = %(target)s AND end_at = "
                "(SELECT max(end_at) FROM {m} WHERE target_id = %(target)s))").format(m=table(SegmentSql)),
        # A segment's page: its own row (sizes and names are updated in place).
        sql.SQL("(SELECT {row} FROM {m} WHERE id = %(segment)s)").format(row=row, m=table(Segment)),
    ]
    # Each part in its place, an empty one too: a value moving from one part to a missing neighbour changes it.
    return sql.SQL("SELECT concat_ws('|', {})").format(
        sql.SQL(", ").join(sql.SQL("coalesce({}, '')").format(part) for part in parts))


#: A digest's text of everything a target's page body shows (apps.dashboard.page_cache.target_state), for the
#: target ``%(target)s`` and, on a segment's page, the segment ``%(segment)s`` (null elsewhere).
PAGE_STATE = _page_state()
