"""Find segments and targets by name across the fleet, from the segment name trigram index.

The index (segment_name_trgm_idx, snapshots migrations/_database_sql.py) is a GIN pg_trgm index on
UPPER(owner || '.' || object_name); every query here tests that same expression with LIKE, which the
index answers for any part of a name of three characters or more.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models.expressions import RawSQL

from apps.dashboard import sql as pg
from apps.dashboard.selectors import segment_label as label_of
from apps.targets.models import Target

SEARCH_LIMIT = 50


def like_pattern(text: str) -> str:
    r"""A LIKE pattern matching ``text`` anywhere in an upper-cased name, its wildcards taken literally.

    >>> like_pattern("sales_2%")
    '%SALES\\_2\\%%'
    """
    escaped = text.upper().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return f"%{escaped}%"


def segment_ids_matching(text: str, *, target_id: int) -> RawSQL:
    """The ids of the target's segments whose OWNER.NAME contains ``text`` (a subquery for a filter)."""
    return RawSQL(pg.segment_ids_matching_text(), [target_id, like_pattern(text)])


@dataclass(frozen=True)
class SegmentHit:
    segment_id: int
    target: str
    label: str
    object_type: str
    tablespace: str


def search_segments(text: str, *, limit: int = SEARCH_LIMIT) -> list[SegmentHit]:
    """Segments of every target whose OWNER.NAME contains ``text``: names starting with it first, then the
    most similar (pg_trgm similarity), at most ``limit`` (one query)."""
    upper = text.upper()
    with connection.cursor() as cursor:
        cursor.execute(pg.SEARCH_SEGMENTS, [like_pattern(text), like_pattern(text)[1:], upper, limit])
        rows = cursor.fetchall()
    return [SegmentHit(segment_id=r[0], target=r[1], label=label_of(r[2], r[3], r[4], r[5], r[6]),
                       object_type=r[7], tablespace=r[8] or "") for r in rows]


def search_targets(text: str, *, limit: int = SEARCH_LIMIT) -> list[Target]:
    """Targets whose name contains ``text`` (a small table)."""
    return list(Target.objects.filter(name__icontains=text).order_by("name")[:limit])
