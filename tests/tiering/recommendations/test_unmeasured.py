"""Top-N gaps stay unknown end to end: never 0 IOPS, never a move, costs as lower bounds, bounds kept.

An AWR report lists only its top segments per section. A segment listed under
"Segments by Logical Reads" but not under the request sections, or listed
nowhere, had its requests read as 0 and was sent to the slowest tier (issue 15,
case 1). These tests store such a report's rows and read the recommendation.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, Snapshot
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import GB, NOW
from tests.tiering.stored_targets import (
    LISTED,
    LOGICAL_ONLY,
    RAC_KEY,
    UNBOUNDED,
    UNLISTED,
    flashy_stat,
    rac_interval_store,
    report_target_store,
)


def _rec(target: Target, key: SegmentKey) -> Recommendation:
    segment = Segment.objects.get(target=target, object_name=key.object_name)
    return Recommendation.objects.current().select_related("run", "current_tier", "recommended_tier").get(
        segment=segment)


@pytest.mark.django_db
class UnmeasuredSegmentTests:
    def test_a_segment_listed_only_by_logical_reads_is_not_measured_and_keeps_its_bound(self, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        rec = _rec(target, LOGICAL_ONLY)
        assert rec.measured is False
        assert rec.iops is None and rec.read_iops is None and rec.intensity is None
        assert rec.read_requests_per_day is None
        assert rec.iops_bound == pytest.approx((5_000_000 + 360) / 3600)

    def test_an_unmeasured_segment_whose_tier_depends_on_the_unknown_is_never_moved(self, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        # LOGICAL_ONLY: hi-cap disk at 0 IOPS, flash at its bound; UNBOUNDED: no bound at all.
        for key in (LOGICAL_ONLY, UNBOUNDED):
            rec = _rec(target, key)
            assert rec.action not in ("move", "move_partitions"), key
            assert rec.recommended_tier_id == rec.current_tier_id, key
            # 100 GB on flash at $30/GB: the GB part alone, the least it can cost.
            assert rec.cost_now_usd == Decimal("3000.00"), key
            assert rec.savings_usd == Decimal("0.00"), key

    def test_a_move_that_holds_over_the_whole_bound_is_made_and_saves_the_lesser_saving(self, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        # UNLISTED: at most 0.5 IOPS on 100 GB of flash; hi-cap disk is cheaper at 0 and at 0.5 IOPS alike.
        rec = _rec(target, UNLISTED)
        assert rec.measured is False
        assert rec.action == "move" and rec.recommended_tier.name == "hi-cap disk"
        # flash $30/GB -> hi-cap max($0.25/GB x 100, $2.5/IOPS x 0.5): $3000 - $25 at either end.
        assert rec.savings_usd == Decimal("2975.00")

    def test_a_segment_listed_nowhere_gets_the_reports_bound_for_unlisted_segments(self, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        rec = _rec(target, UNLISTED)
        assert rec.measured is False and rec.iops is None
        assert rec.iops_bound == pytest.approx(1800 / 3600)

    def test_without_a_bound_the_figure_is_unknown_and_unbounded(self, seed_tiers):
        target = report_target_store(unlisted_bound=None)

        assert _rec(target, UNBOUNDED).iops_bound is None
        assert _rec(target, UNLISTED).iops_bound is None
        assert _rec(target, UNLISTED).measured is False

    def test_a_measured_segment_keeps_its_figures(self, seed_tiers):
        target = report_target_store(unlisted_bound=1800)

        rec = _rec(target, LISTED)
        assert rec.measured is True and rec.iops_bound is None
        assert rec.iops == pytest.approx(1.0)


@pytest.mark.django_db
class UnmeasuredExportTests:
    def _rows(self, target: Target) -> dict[str, dict[str, str]]:
        import csv
        import io

        from apps.tiering.recommendations.export import export_csv, export_rows

        recs = Recommendation.objects.current(target_id=target.id).select_related("segment")
        text = export_csv(export_rows(recs, target))
        return {row["object_name"]: row for row in csv.DictReader(io.StringIO(text))}

    def test_the_csv_leaves_an_unmeasured_figure_empty_and_says_so(self, seed_tiers):
        rows = self._rows(report_target_store(unlisted_bound=1800))

        row = rows["LOGICAL_ONLY"]
        assert row["iops"] == "" and row["read_iops"] == "" and row["intensity"] == ""
        assert row["measured"] == "false"
        assert float(row["iops_bound"]) == pytest.approx((5_000_000 + 360) / 3600, rel=1e-3)
        assert rows["UNBOUNDED"]["iops_bound"] == ""
        assert rows["LISTED"]["measured"] == "true" and float(rows["LISTED"]["iops"]) == pytest.approx(1.0)

    def test_the_json_gives_null_for_an_unmeasured_figure(self, seed_tiers):
        import json

        from apps.tiering.recommendations.export import export_json, export_rows

        target = report_target_store(unlisted_bound=None)
        recs = Recommendation.objects.current(target_id=target.id).select_related("segment")
        rows = {row["object_name"]: row for row in json.loads(export_json(export_rows(recs, target)))}
        assert rows["UNLISTED"]["iops"] is None and rows["UNLISTED"]["iops_bound"] is None
        assert rows["UNLISTED"]["measured"] is False


def _awr_target(*, with_samples: bool) -> Target:
    """A live-AWR-like target: one DBA_HIST_SEG_STAT snapshot (top N) naming HOT only; with_samples adds
    the V$ sample of the same hour, complete (every segment), which names COLD with no IO."""
    hot, cold = SegmentKey("APP", "HOT", "", "TABLE"), SegmentKey("APP", "COLD", "", "TABLE")
    target = Target.objects.create(name="awr", mode=Target.Mode.AWR, tier_set_id="seed-2009")
    TablespaceTier.objects.create(target=target, tablespace_name="FLASHY",
                                  tier=Tier.objects.get(tier_set="seed-2009", name="flash"))
    begin = NOW - dt.timedelta(hours=1)
    awr = Snapshot(dbid=7, instance_number=1, snap_id=100, begin_at=begin, end_at=NOW,
                   startup_at=NOW - dt.timedelta(days=30), top_n_only=True,
                   segment_stats=(flashy_stat(hot, physical_read_requests=36_000, physical_write_requests=0),))
    database = DatabaseInfo(dbid=7, db_name="AWR", release="19.0.0.0.0", is_rac=False, instances=(1,))
    sizes = tuple(SegmentInfo(key=key, tablespace_name="FLASHY", bytes=100 * GB, blocks=100 * GB // 8192)
                  for key in (hot, cold))
    state = CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8))
    collection_store(target=target, collection=Collection(database=database, snapshots=(awr,), segments=sizes),
                     kind="awr", state=state)
    if with_samples:
        sample = Snapshot(dbid=7, instance_number=1, snap_id=5000, begin_at=begin, end_at=NOW,
                          startup_at=NOW - dt.timedelta(days=30), top_n_only=False,
                          segment_stats=(flashy_stat(hot, physical_read_requests=36_000, physical_write_requests=0),
                                         flashy_stat(cold, physical_read_requests=0, physical_write_requests=0)))
        collection_store(target=target, collection=Collection(database=database, snapshots=(sample,), segments=sizes),
                         kind="sample", state=state)
    recommendation_refresh(target_id=target.id, now=NOW)
    return target


@pytest.mark.django_db
class LiveAwrGapTests:
    def test_a_segment_awr_never_captured_is_not_measured_without_a_v_sample(self, seed_tiers):
        target = _awr_target(with_samples=False)

        cold = _rec(target, SegmentKey("APP", "COLD", "", "TABLE"))
        assert cold.measured is False and cold.iops is None and cold.iops_bound is None
        assert cold.action not in ("move", "move_partitions")
        assert _rec(target, SegmentKey("APP", "HOT", "", "TABLE")).measured is True

    def test_a_complete_v_sample_measures_what_awr_left_out(self, seed_tiers):
        target = _awr_target(with_samples=True)

        cold = _rec(target, SegmentKey("APP", "COLD", "", "TABLE"))
        assert cold.measured is True and cold.iops == 0.0


@pytest.mark.django_db
class PartialCaptureTests:
    """AWR captured a segment in 1 of 24 hourly snapshots (no V$ sample): its p95 over the day is the 2nd
    largest of 24 values, 23 of which AWR did not keep. It was the p95 of the one value kept (its busiest
    hour), moving a mostly idle segment to flash."""

    def _target(self) -> Target:
        hot, busy_once = SegmentKey("APP", "HOT", "", "TABLE"), SegmentKey("APP", "BUSY_ONCE", "", "TABLE")
        target = Target.objects.create(name="awr24", mode=Target.Mode.AWR, tier_set_id="seed-2009")
        TablespaceTier.objects.create(target=target, tablespace_name="FLASHY",
                                      tier=Tier.objects.get(tier_set="seed-2009", name="hi-cap disk"))
        snapshots = []
        for hour in range(24):
            end = NOW - dt.timedelta(hours=23 - hour)
            stats = [flashy_stat(hot, physical_read_requests=360_000, physical_write_requests=0)]
            if hour == 5:
                stats.append(flashy_stat(busy_once, physical_read_requests=3_600_000, physical_write_requests=0))
            snapshots.append(Snapshot(dbid=7, instance_number=1, snap_id=100 + hour, begin_at=end - dt.timedelta(hours=1),
                                      end_at=end, startup_at=NOW - dt.timedelta(days=30), top_n_only=True,
                                      segment_stats=tuple(stats)))
        database = DatabaseInfo(dbid=7, db_name="AWR", release="19.0.0.0.0", is_rac=False, instances=(1,))
        sizes = tuple(SegmentInfo(key=key, tablespace_name="FLASHY", bytes=10 * GB, blocks=10 * GB // 8192)
                      for key in (hot, busy_once))
        collection_store(target=target, collection=Collection(database=database, snapshots=tuple(snapshots),
                                                              segments=sizes),
                         kind="awr", state=CollectState(now=NOW, history_start_at=NOW - dt.timedelta(days=8)))
        return target

    @pytest.mark.parametrize("statistic", ["p95", "avg"])
    def test_a_statistic_that_needs_uncaptured_snapshots_is_not_measured(self, seed_tiers, statistic):
        target = self._target()
        recommendation_refresh(target_id=target.id, now=NOW, statistic=statistic)

        busy_once = _rec(target, SegmentKey("APP", "BUSY_ONCE", "", "TABLE"))
        assert busy_once.measured is False and busy_once.iops is None
        assert busy_once.action not in ("move", "move_partitions")
        hot = _rec(target, SegmentKey("APP", "HOT", "", "TABLE"))
        assert hot.measured is True and hot.iops == pytest.approx(100.0)

    def test_the_raw_window_agrees_with_the_rollups(self, seed_tiers):
        from apps.snapshots.figures import window_read, window_span
        from apps.snapshots.windows import raw_window_figures

        target = self._target()
        for statistic in ("p95", "avg", "max"):
            span = window_span(target_id=target.id, now=NOW, days=7, statistic=statistic)
            rolled, _ = window_read(span, now=NOW)
            raw = raw_window_figures(target_id=target.id, last_day=span.last_day, days=7, statistic=statistic)
            assert list(rolled.segment_id) == list(raw.segment_id)
            assert list(rolled.gaps) == list(raw.gaps), statistic
            assert rolled.iops == pytest.approx(raw.iops), statistic


@pytest.mark.django_db
class IncompleteRacIntervalTests:
    """Instance reports of a RAC database each measure one instance. With only some of them imported,
    the database's figure for the interval is a lower bound: a segment listed only by logical reads on
    instance 1 read 164,600 blocks on instance 2, and was sent to hi-cap disk (issue 15, case 1)."""

    def test_one_instance_of_two_leaves_every_figure_a_lower_bound(self, seed_tiers):
        target = Target.objects.create(name="rac", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        TablespaceTier.objects.create(target=target, tablespace_name="FLASHY",
                                      tier=Tier.objects.get(tier_set="seed-2009", name="flash"))
        rac_interval_store(target, 1)

        rec = _rec(target, RAC_KEY)
        assert rec.measured is False and rec.iops is None and rec.iops_bound is None
        assert rec.action not in ("move", "move_partitions")

    def test_both_instances_make_the_interval_whole(self, seed_tiers):
        target = Target.objects.create(name="rac", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        TablespaceTier.objects.create(target=target, tablespace_name="FLASHY",
                                      tier=Tier.objects.get(tier_set="seed-2009", name="flash"))
        rac_interval_store(target, 1)
        rac_interval_store(target, 2)

        rec = _rec(target, RAC_KEY)
        assert rec.measured is True and rec.iops == pytest.approx(72 / 3600)
        assert rec.action == "move" and rec.recommended_tier.name == "hi-cap disk"
