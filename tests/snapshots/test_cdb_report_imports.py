"""A CDB report imported: each PDB's segment is stored apart, with its own figures, and sized only when
its listing can be told apart."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.imports import report_import, report_segment_sizes
from apps.snapshots.models import Segment, SegmentStat
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, Snapshot
from apps.targets.rows import SegmentStat as StatRow
from tests.targets.awr_report.samples import sample_bytes

CDB_19C_XYDB = "pcambell__awrrptanalyzor__awrrpt__19c_rac__awr_xydb_1_20230217_8_9.html"
T0 = dt.datetime(2026, 11, 1, tzinfo=dt.timezone.utc)


@pytest.mark.django_db
def test_a_cdb_report_stores_each_pdb_s_segments_under_its_pdb(seed_tiers):
    target = Target.objects.create(name="xydb", mode=Target.Mode.REPORT)

    report_import(target=target, data=sample_bytes(CDB_19C_XYDB), filename=CDB_19C_XYDB)

    lob = Segment.objects.get(target=target, object_name="SYS_LOB0000115263C00005$$")
    assert lob.container == "EAMSPDB"
    assert str(lob).startswith("EAMSPDB:")
    reads = SegmentStat.objects.filter(segment=lob).values_list("physical_read_requests", flat=True)
    assert list(reads) == [25730]
    assert "" not in set(Segment.objects.filter(target=target).values_list("container", flat=True))


def _collection(*keys: SegmentKey) -> Collection:
    stats = tuple(StatRow(key=key, tablespace_name="USERS", obj_number=None, dataobj_number=None,
                          physical_read_requests=1) for key in keys)
    snap = Snapshot(dbid=1, instance_number=1, snap_id=2, begin_at=T0, end_at=T0, startup_at=T0, segment_stats=stats)
    return Collection(database=DatabaseInfo(1, "C", "19.0.0.0.0", False, (1,)), snapshots=(snap,))


def _listing(key: SegmentKey) -> SegmentInfo:
    return SegmentInfo(key=key, tablespace_name="USERS", bytes=8192, blocks=1)


def test_a_listing_without_pdb_sizes_a_segment_the_report_names_in_one_pdb_only():
    in_pdb1 = SegmentKey("APP", "T", "", "TABLE", "PDB1")

    (sized,) = report_segment_sizes(_collection(in_pdb1), [_listing(in_pdb1._replace(container=""))])

    assert sized.key == in_pdb1


def test_a_listing_without_pdb_does_not_size_twins_of_two_pdbs():
    twins = [SegmentKey("APP", "T", "", "TABLE", "PDB1"), SegmentKey("APP", "T", "", "TABLE", "PDB2")]

    assert report_segment_sizes(_collection(*twins), [_listing(SegmentKey("APP", "T", "", "TABLE"))]) == ()


def test_a_listing_with_pdbs_sizes_each_twin_from_its_own_row():
    twins = [SegmentKey("APP", "T", "", "TABLE", "PDB1"), SegmentKey("APP", "T", "", "TABLE", "PDB2")]

    sized = report_segment_sizes(_collection(*twins), [_listing(key) for key in twins])

    assert {info.key for info in sized} == set(twins)
