"""The PostgreSQL statements of the dashboard app: the search by name across the fleet.

Composed with psycopg.sql as apps.core.sql says: table names from the models, values bound.
"""

from __future__ import annotations

import functools

from psycopg import sql

from apps.core.sql import statement, table
from apps.snapshots.models import Segment
from apps.targets.models import Target


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
