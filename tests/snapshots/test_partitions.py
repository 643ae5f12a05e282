"""Raw segment statistics live in daily partitions: made ahead and on demand, dropped whole by retention."""

from __future__ import annotations

import dataclasses
import datetime as dt

import pytest
from django.db import connection

from apps.core.config import get_config
from apps.snapshots import partitions
from apps.snapshots.models import RollupDay, SegmentStat, Snapshot
from apps.snapshots.services import snapshot_prune
from apps.targets.models import Target
from tests.snapshots.stored_series import END, series, store


def _children() -> dict[str, int]:
    """Every partition of snapshots_segmentstat (pg_inherits) with its row count."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
                       "WHERE i.inhparent = 'snapshots_segmentstat'::regclass")
        names = [row[0] for row in cursor.fetchall()]
        counts = {}
        for name in names:
            cursor.execute(f'SELECT count(*) FROM "{name}"')
            counts[name] = cursor.fetchone()[0]
    return counts


def _exists(name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname = %s", [name])
        return cursor.fetchone()[0] == 1


def _shifted(snapshots, by: dt.timedelta):
    return [dataclasses.replace(s, begin_at=s.begin_at - by, end_at=s.end_at - by, startup_at=s.startup_at - by)
            for s in snapshots]


@pytest.fixture
def retention_days(settings):
    def set_days(days: int) -> None:
        settings.TIERSCOPE = {**getattr(settings, "TIERSCOPE", {}), "RETENTION_DAYS": days}
        get_config.cache_clear()

    yield set_days
    get_config.cache_clear()


@pytest.mark.django_db
class PartitionStoreTests:
    def test_rows_land_in_the_partition_of_their_utc_day(self):
        target = Target.objects.create(name="daily", mode=Target.Mode.DEMO)
        store(target, series(60, 30, seed=1))  # 30 hourly snapshots ending 23:30: two days

        children = _children()

        last, first = partitions.partition_name(END.date()), partitions.partition_name(END.date() - dt.timedelta(days=1))
        assert children[last] == SegmentStat.objects.filter(end_at__date=END.date()).count() > 0
        assert children[first] == SegmentStat.objects.filter(end_at__lt=END.replace(hour=0, minute=0)).count() > 0
        assert sum(children.values()) == SegmentStat.objects.count()

    def test_a_report_years_old_loads_into_a_partition_made_for_its_day(self):
        target = Target.objects.create(name="2019", mode=Target.Mode.REPORT)
        old = _shifted(series(60, 3, seed=2), END - dt.datetime(2019, 5, 14, 5, 30, tzinfo=dt.UTC))

        store(target, old, kind="report")

        assert _children()["snapshots_segmentstat_p20190514"] == SegmentStat.objects.count() > 0

    def test_creating_partitions_is_idempotent(self):
        day = dt.date(2030, 1, 1)

        first = partitions.partitions_ensure([day, day + dt.timedelta(days=1)])
        again = partitions.partitions_ensure([day, day + dt.timedelta(days=1)])

        assert first == [day, day + dt.timedelta(days=1)]
        assert again == []
        assert partitions.partition_days().count(day) == 1

    def test_the_periodic_task_creates_today_and_the_days_ahead(self):
        now = dt.datetime(2031, 3, 30, 22, 0, tzinfo=dt.UTC)

        partitions.partitions_ahead(now=now, days_ahead=3)

        assert [d for d in partitions.partition_days() if d.year == 2031] == [
            dt.date(2031, 3, 30) + dt.timedelta(days=n) for n in range(4)]


    def test_a_row_written_around_the_store_is_caught_by_the_default_partition_then_moved_to_its_day(self):
        target = Target.objects.create(name="by hand", mode=Target.Mode.DEMO)
        store(target, series(60, 2, seed=8))
        stat = SegmentStat.objects.first()
        day = dt.datetime(2012, 2, 29, 10, tzinfo=dt.UTC)
        moved = Snapshot.objects.create(target=target, kind="demo", dbid=7, instance_number=1, snap_id=99,
                                        begin_at=day - dt.timedelta(hours=1), end_at=day, startup_at=day,
                                        top_n_only=False)
        SegmentStat.objects.bulk_create([SegmentStat(snapshot=moved, segment_id=stat.segment_id, end_at=day,
                                                     interval_s=3600.0)])
        assert _children()[partitions.DEFAULT] == 1

        partitions.partitions_ahead(now=END, days_ahead=0)

        assert _children()[partitions.DEFAULT] == 0
        assert _children()["snapshots_segmentstat_p20120229"] == 1


@pytest.mark.django_db
class PartitionRetentionTests:
    def test_days_no_target_needs_lose_their_partition_and_their_rollups(self, retention_days):
        live = Target.objects.create(name="live", mode=Target.Mode.DEMO)
        report = Target.objects.create(name="2019", mode=Target.Mode.REPORT)
        store(live, series(60, 24 * 5, seed=3))  # five whole days ending END's day
        store(report, _shifted(series(60, 3, seed=4), END - dt.datetime(2019, 5, 14, 5, 30, tzinfo=dt.UTC)),
               kind="report")
        report_rows = SegmentStat.objects.filter(snapshot__target=report).count()
        retention_days(2)

        snapshot_prune(now=END)

        horizon = END - dt.timedelta(days=2)  # 21:30 two days before the last day: that day is cut
        for n in (3, 4):
            day = END.date() - dt.timedelta(days=n)
            assert not _exists(partitions.partition_name(day))
            assert not RollupDay.objects.filter(target=live, day=day).exists()
        cut = partitions.partition_name(horizon.date())
        assert _exists(cut)
        assert not SegmentStat.objects.filter(snapshot__target=live, end_at__lt=horizon).exists()
        assert SegmentStat.objects.filter(end_at__gte=horizon).count() == _children()[cut] + sum(
            count for name, count in _children().items() if name > cut)
        assert not Snapshot.objects.filter(target=live, end_at__lt=horizon).exists()
        # The report-only target's old day outlives the retention: its own latest snapshot is its horizon.
        assert _children()["snapshots_segmentstat_p20190514"] == report_rows > 0

    def test_a_day_another_target_still_needs_keeps_its_partition_and_loses_only_the_old_rows(self, retention_days):
        ahead = Target.objects.create(name="ahead", mode=Target.Mode.DEMO)
        behind = Target.objects.create(name="behind", mode=Target.Mode.DEMO)
        store(ahead, series(60, 24 * 5, seed=5))
        store(behind, _shifted(series(60, 24 * 3, seed=6), dt.timedelta(days=2)))  # its latest: 2 days earlier
        retention_days(1)

        snapshot_prune(now=END)

        needed = END.date() - dt.timedelta(days=3)  # before ahead's horizon, within behind's
        assert _exists(partitions.partition_name(needed))
        assert not SegmentStat.objects.filter(snapshot__target=ahead, end_at__date=needed).exists()
        assert SegmentStat.objects.filter(snapshot__target=behind, end_at__date=needed).exists()
        assert not _exists(partitions.partition_name(END.date() - dt.timedelta(days=4)))

    def test_a_failed_drop_leaves_the_partitions_and_snapshots_as_they_were(self, monkeypatch):
        target = Target.objects.create(name="kept", mode=Target.Mode.DEMO)
        store(target, series(60, 30, seed=7))
        day = END.date() - dt.timedelta(days=1)
        before = Snapshot.objects.count()

        class Broken:
            class objects:  # noqa: N801 - stands in for the manager
                @staticmethod
                def filter(**kwargs):
                    raise RuntimeError("delete failed")

        monkeypatch.setattr("apps.snapshots.partitions.Snapshot", Broken)
        with pytest.raises(RuntimeError):
            partitions.partitions_drop([day])

        assert _exists(partitions.partition_name(day))
        assert Snapshot.objects.count() == before
