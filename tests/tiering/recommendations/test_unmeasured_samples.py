"""Over every real AWR report in ../shared/awr-samples: no segment is moved on a figure the report did
not measure (issue 15, "done when").

Each report is imported with a sizes listing that gives every segment it names 10 GB, and every
tablespace is mapped to flash: a segment whose requests were read as 0 would then be sent to hi-cap
disk, as the issue saw on a 12.2 report.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from pathlib import Path

import numpy as np
import pytest
import time_machine
from django.db.models import Q

from apps.snapshots.imports import report_import
from apps.snapshots.models import SegmentStat
from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from apps.targets.models import TablespaceTier, Target
from apps.tiering import costmodel
from apps.tiering.models import Recommendation, Tier
from apps.tiering.tiers import tier_to_model

SAMPLES = Path(__file__).resolve().parents[3] / ".." / "shared" / "awr-samples"
REPORTS = sorted(p.name for p in SAMPLES.iterdir() if p.suffix in (".html", ".htm", ".txt"))
GB = 1024**3


def _sizes(collection) -> tuple[bytes, set[str]]:
    """A segments.csv naming every segment of the report, 10 GB each; and the tablespaces named."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["OWNER", "SEGMENT_NAME", "PARTITION_NAME", "SEGMENT_TYPE", "TABLESPACE_NAME", "BYTES", "BLOCKS",
                     "BUFFER_POOL", "FLASH_CACHE", "CELL_FLASH_CACHE", "OBJ_NUMBER", "DATAOBJ_NUMBER",
                     "LOB_TABLE_NAME", "LOB_COLUMN_NAME", "LOB_TABLE_PARTITION_NAME"])
    tablespaces, seen = set(), set()
    for snapshot in collection.snapshots:
        for stat in snapshot.segment_stats:
            if stat.key in seen:
                continue
            seen.add(stat.key)
            tablespace = stat.tablespace_name or "USERS"
            tablespaces.add(tablespace)
            writer.writerow([stat.key.owner, stat.key.object_name, stat.key.subobject_name, stat.key.object_type,
                             tablespace, 10 * GB, 10 * GB // 8192, "DEFAULT", "", "", "", "", "", "", ""])
    return buffer.getvalue().encode(), tablespaces


@pytest.mark.django_db
@pytest.mark.parametrize("name", REPORTS)
def test_no_segment_is_moved_on_an_unmeasured_figure(name, seed_tiers, django_capture_on_commit_callbacks):
    data = (SAMPLES / name).read_bytes()
    try:
        collection = report_to_collection(parse_report(data, filename=name))
    except ValueError as refused:  # a clear refusal is an allowed outcome; it must name the file
        assert str(refused).strip(), name
        return
    sizes, tablespaces = _sizes(collection)
    target = Target.objects.create(name="rpt", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
    flash = Tier.objects.get(tier_set="seed-2009", name="flash")
    TablespaceTier.objects.bulk_create(TablespaceTier(target=target, tablespace_name=t, tier=flash)
                                       for t in tablespaces)
    end = max(s.end_at for s in collection.snapshots)
    with time_machine.travel(end + dt.timedelta(hours=1), tick=False):
        with django_capture_on_commit_callbacks(execute=True):
            run = report_import(target=target, data=data, filename=name, sizes=sizes)

    recs = list(Recommendation.objects.current(target_id=target.id).select_related("segment"))
    if not any(snapshot.segment_stats for snapshot in collection.snapshots):
        assert run.warnings and not recs, f"{name}: a report without segment figures must say so"
        return
    assert recs, f"{name}: no recommendation"
    # 10 GB each; a LOB's row counts its LOB index's 10 GB too (apps.tiering.recommendations.lobfold).
    folded = {rec.folded_into_id for rec in recs if rec.folded_into_id}
    assert all(rec.size_gb == pytest.approx(20.0 if rec.segment_id in folded else 10.0) for rec in recs), \
        f"{name}: the sizes listing was not applied"
    gaps = set(SegmentStat.objects.filter(snapshot__target=target).filter(
        Q(physical_read_requests__isnull=True) | Q(physical_write_requests__isnull=True)).values_list(
        "segment_id", flat=True))
    listed = set(SegmentStat.objects.filter(snapshot__target=target).values_list("segment_id", flat=True))
    for rec in recs:
        label = f"{name}: {rec.segment.owner}.{rec.segment.object_name}"
        if rec.segment_id in gaps or rec.segment_id not in listed:
            assert rec.measured is False, label
            assert rec.iops is None, label
        if rec.action in ("move", "move_partitions") and not rec.measured:
            # Only a move that holds over the whole bound: the cost model's tier is the same at what was
            # measured and at the bound.
            assert rec.iops_bound is not None, f"{label} moved on an unmeasured figure without a bound"
            lower = _measured_iops(rec)
            assert _cheapest(target, rec, lower) == _cheapest(target, rec, rec.iops_bound) == rec.recommended_tier_id, (
                f"{label} moved on an unmeasured figure: its tier differs between {lower} and {rec.iops_bound} IOPS")


def _measured_iops(rec: Recommendation) -> float:
    """What one report measured of a segment's IOPS: its known requests (instances summed) over the interval."""
    stats = list(SegmentStat.objects.filter(segment_id=rec.segment_id))
    if not stats:
        return 0.0
    known = sum((s.physical_read_requests or 0) + (s.physical_write_requests or 0) for s in stats)
    return known / max(s.interval_s for s in stats)


def _cheapest(target: Target, rec: Recommendation, iops: float) -> int:
    tiers = list(Tier.objects.filter(tier_set=target.tier_set_id).order_by("id"))
    models = [tier_to_model(t) for t in tiers]
    ids = [t.id for t in tiers]
    current = np.array([ids.index(rec.current_tier_id) if rec.current_tier_id in ids else -1])
    costs = costmodel.cost_matrix(models, np.array([iops]), np.array([rec.size_gb]), pooled=True)
    return ids[int(costmodel.cheapest(costs, models, current)[0])]
