"""The recommendation export: one row per segment, a stable header, shared by the CSV
download and `manage.py recommend`.

Header (stable; new columns are only ever appended):

target, owner, object_name, subobject_name, object_type, tablespace_name, size_gb,
iops, read_iops, write_iops, intensity, statistic, window_days, current_tier,
recommended_tier, action, cost_now_usd, cost_after_usd, savings_usd,
io_time_saved_s_per_day, reasons, ddl, computed_at
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable
from decimal import Decimal
from typing import Any

from django.db.models import QuerySet

from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.csvsafe import write_rows
from apps.tiering.explain import Explanation, explain
from apps.tiering.models import Recommendation, RecommendationRun, Tier

HEADER = (
    "target", "owner", "object_name", "subobject_name", "object_type", "tablespace_name", "size_gb", "iops",
    "read_iops", "write_iops", "intensity", "statistic", "window_days", "current_tier", "recommended_tier",
    "action", "cost_now_usd", "cost_after_usd", "savings_usd", "io_time_saved_s_per_day", "reasons", "ddl",
    "computed_at",
)


def _round(number: float | None, digits: int) -> float | None:
    return None if number is None else round(number, digits)


def export_rows(recs: Iterable[Recommendation], target: Target) -> list[tuple[Any, ...]]:
    """The export rows of ``recs`` (recommendation_list), reasons and DDL worded here (apps.tiering.explain)."""
    recs = _lean(recs) if isinstance(recs, QuerySet) else list(recs)
    return [_row(rec, target.name, explanation) for rec, explanation in zip(recs, explain(recs, target=target))]


#: The segment fields the export and the DDL read.
_SEGMENT_FIELDS = ("owner", "object_name", "subobject_name", "object_type", "tablespace_name", "partitioned_parent",
                   "lob_column")


def _lean(recs: QuerySet[Recommendation]) -> list[Recommendation]:
    """The rows with only the segment fields used, and the few tiers and runs they share attached from one
    read each: at 100k rows, a tier and run object built per row was half the export's time."""
    unused = [f"segment__{field.name}" for field in Segment._meta.concrete_fields
              if field.name not in (*_SEGMENT_FIELDS, "id", "target")]
    rows = list(recs.select_related(None).select_related("segment").defer(*unused))
    tiers = Tier.objects.in_bulk({tier_id for rec in rows
                                  for tier_id in (rec.current_tier_id, rec.cost_tier_id, rec.recommended_tier_id)
                                  if tier_id is not None})
    runs = RecommendationRun.objects.in_bulk({rec.run_id for rec in rows})
    for rec in rows:
        rec.run = runs[rec.run_id]
        rec.current_tier = tiers.get(rec.current_tier_id)
        rec.cost_tier = tiers.get(rec.cost_tier_id)
        rec.recommended_tier = tiers.get(rec.recommended_tier_id)
    return rows


def _row(rec: Recommendation, target_name: str, explanation: Explanation) -> tuple[Any, ...]:
    seg = rec.segment
    return (
        target_name, seg.owner, seg.object_name, seg.subobject_name, seg.object_type, seg.tablespace_name,
        _round(rec.size_gb, 3), _round(rec.iops, 3), _round(rec.read_iops, 3), _round(rec.write_iops, 3),
        _round(rec.intensity, 4), rec.statistic, rec.window_days,
        rec.current_tier.name if rec.current_tier else "", rec.recommended_tier.name if rec.recommended_tier else "",
        rec.action, rec.cost_now_usd, rec.cost_after_usd, rec.savings_usd, _round(rec.io_time_saved_s_per_day, 1),
        " ".join(reason.text for reason in explanation.reasons), explanation.ddl, rec.computed_at.isoformat(),
    )


def export_csv(rows: list[tuple[Any, ...]]) -> str:
    buffer = io.StringIO()
    write_rows(buffer, HEADER, rows)
    return buffer.getvalue()


def export_json(rows: list[tuple[Any, ...]]) -> str:
    def plain(value: Any) -> Any:
        return float(value) if isinstance(value, Decimal) else value

    return json.dumps([{k: plain(v) for k, v in zip(HEADER, row)} for row in rows], indent=2)


TABLE_COLUMNS = ("owner", "object_name", "subobject_name", "object_type", "size_gb", "iops", "intensity",
                 "current_tier", "recommended_tier", "action", "savings_usd")


def export_table(rows: list[tuple[Any, ...]]) -> str:
    from tabulate import tabulate

    index = [HEADER.index(c) for c in TABLE_COLUMNS]
    return tabulate([[row[i] for i in index] for row in rows], headers=TABLE_COLUMNS, floatfmt=".2f")
