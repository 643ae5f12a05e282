"""One database figure per interval across sources (issue 15): an extract and a report of the same AWR
snapshots, or two reports of overlapping ranges, never count the same time twice."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.imports import collection_import
from apps.snapshots.models import Snapshot
from apps.targets.rows import Collection, DatabaseInfo, SegmentKey, SegmentStat
from apps.targets.rows import Snapshot as SnapshotRow

pytestmark = pytest.mark.usefixtures("seed_tiers")  # the report target's tier set, seed-2009, priced

UTC = dt.timezone.utc
T0 = dt.datetime(2026, 11, 20, 0, 0, tzinfo=UTC)
KEY = SegmentKey("APP", "ORDERS", "", "TABLE")


def _collection(*intervals: tuple[int, int, int, int]) -> Collection:
    """Snapshots as (instance, snap_id, first hour, last hour), each with 3600 reads of ORDERS per hour."""
    snapshots = tuple(
        SnapshotRow(dbid=7, instance_number=instance, snap_id=snap_id, begin_at=T0 + dt.timedelta(hours=first),
                    end_at=T0 + dt.timedelta(hours=last), startup_at=T0 - dt.timedelta(days=9),
                    segment_stats=(SegmentStat(key=KEY, tablespace_name="USERS", obj_number=None, dataobj_number=None,
                                               physical_read_requests=3600 * (last - first),
                                               physical_write_requests=0),))
        for instance, snap_id, first, last in intervals)
    return Collection(database=DatabaseInfo(dbid=7, db_name="ORCL", release="19.0.0.0.0", is_rac=False,
                                            instances=(1,)), snapshots=snapshots)


@pytest.mark.django_db
class OverlappingSourceTests:
    def test_a_report_of_snapshots_an_extract_holds_adds_nothing_and_says_so(self, report_target):
        collection_import(target=report_target, collection=_collection((1, 101, 0, 1), (1, 102, 1, 2)), kind="extract",
                      authoritative=True)

        run = collection_import(target=report_target, collection=_collection((1, 102, 0, 2)), kind="report", authoritative=False)

        assert Snapshot.objects.filter(target=report_target, kind="report").count() == 0
        assert run.snapshots_added == 0
        (warning,) = run.warnings
        assert "overlaps snapshot 101 of instance 1 stored from an offline extract" in warning
        assert "count that time twice" in warning

    def test_two_reports_of_overlapping_ranges_keep_the_first(self, report_target):
        collection_import(target=report_target, collection=_collection((1, 110, 0, 10)), kind="report", authoritative=False)

        run = collection_import(target=report_target, collection=_collection((1, 106, 5, 6)), kind="report",
                            authoritative=False)

        assert list(Snapshot.objects.filter(target=report_target).values_list("snap_id", flat=True)) == [110]
        assert "overlaps snapshot 110" in run.warnings[0]

    def test_adjacent_intervals_and_other_instances_are_kept(self, report_target):
        collection_import(target=report_target, collection=_collection((1, 101, 0, 1)), kind="extract", authoritative=True)

        run = collection_import(target=report_target, collection=_collection((1, 102, 1, 2), (2, 101, 0, 1)), kind="report",
                            authoritative=False)

        assert run.snapshots_added == 2 and not run.warnings

    def test_a_global_report_overlaps_every_instance(self, report_target):
        collection_import(target=report_target, collection=_collection((1, 101, 0, 1)), kind="extract", authoritative=True)

        run = collection_import(target=report_target, collection=_collection((0, 101, 0, 1)), kind="report",
                            authoritative=False)

        assert run.snapshots_added == 0 and "overlaps snapshot 101 of instance 1" in run.warnings[0]
