"""Recommendations from stored figures: percentiles, costs, savings, IO time, reasons, DDL."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentStat, Snapshot
from apps.tiering.models import Recommendation
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import COLD, HOT, hourly_snapshots, recommendation_of


@pytest.fixture
def target(refresh_target) -> Target:
    """tests/conftest.py's ``refresh_target``: HOT on hi-cap disk, COLD on flash."""
    return refresh_target


@pytest.mark.django_db
class RecommendationRefreshTests:
    def test_it_places_the_busy_hour_by_the_95th_percentile(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        hot = recommendation_of(target, HOT)
        # 10 of 100 hours at 100 IOPS: the p95 hour is a busy one.
        assert hot.iops == pytest.approx(100.0)
        assert hot.intensity == pytest.approx(50.0)
        assert hot.statistic == "p95" and hot.window_days == 7

    def test_it_can_use_the_average_instead(self, target):
        recommendation_refresh(target_id=target.id, now=NOW, statistic="avg")

        assert recommendation_of(target, HOT).iops == pytest.approx((10 * 100 + 90 * 1) / 100)

    def test_it_prices_the_move_with_the_seed_model(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        hot = recommendation_of(target, HOT)
        # hi-cap disk: $/IOPS 2.5, $/GB 0.25 -> max(100*2.5, 2*0.25) = 250; flash: $/IOPS 0.08, $/GB 30 -> 60.
        assert hot.current_tier.name == "hi-cap disk"
        assert hot.recommended_tier.name == "flash"
        assert hot.cost_now_usd == Decimal("250.00")
        assert hot.cost_after_usd == Decimal("60.00")
        assert hot.savings_usd == Decimal("190.00")
        assert hot.action == "move"

    def test_it_demotes_a_cold_segment_off_flash(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        cold = recommendation_of(target, COLD)
        assert cold.current_tier.name == "flash"
        assert cold.recommended_tier.name == "hi-cap disk"
        assert cold.savings_usd == Decimal("3000.00") - Decimal("25.00")

    def test_it_estimates_io_time_saved_from_measured_tablespace_latency(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        hot = recommendation_of(target, HOT)
        reads_per_day = (10 * 360_000 + 90 * 3600) / (100 / 24)
        # measured 12.5 ms on SLOW, nominal 0.2 ms on flash
        assert hot.io_time_saved_s_per_day == pytest.approx(reads_per_day * (12.5 - 0.2) / 1000)

    def test_it_writes_ddl_with_quoted_identifiers_into_a_mapped_tablespace(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        ddl = explain([recommendation_of(target, HOT)], target=target)[0].ddl
        assert 'ALTER TABLE "APP"."Hot Orders" MOVE' in ddl
        assert '"FLASHY"' in ddl

    def test_it_explains_itself(self, target):
        recommendation_refresh(target_id=target.id, now=NOW)

        reasons = explain([recommendation_of(target, HOT)], target=target)[0].reasons
        assert reasons and reasons[0].code == "cheaper_tier"
        assert "flash" in reasons[0].text

    def test_it_keeps_one_history_row_per_segment_and_day(self, target, django_capture_on_commit_callbacks):
        with django_capture_on_commit_callbacks(execute=True):  # the runs replaced are deleted after each refresh
            recommendation_refresh(target_id=target.id, now=NOW)
            recommendation_refresh(target_id=target.id, now=NOW + dt.timedelta(minutes=5))
            recommendation_refresh(target_id=target.id, now=NOW + dt.timedelta(days=1))

        segment = Segment.objects.get(target=target, object_name=HOT.object_name)
        assert Recommendation.objects.filter(segment=segment).count() == 2
        assert Recommendation.objects.current().filter(segment=segment).count() == 1


@pytest.mark.django_db
class RefreshWindowTests:
    """What a refresh reads of the rollups, and what it leaves prepared for the next day."""

    def test_the_last_day_just_rolled_up_is_not_read_back(self, target, monkeypatch):
        from tests.snapshots.stored_series import days_read

        read = days_read(monkeypatch)

        recommendation_refresh(target_id=target.id, now=NOW)

        assert read and NOW.date() not in read
        assert recommendation_of(target, HOT).iops == pytest.approx(100.0)

    @pytest.mark.parametrize("late", [False, True], ids=["last-day-only", "with-a-late-snapshot"])
    def test_the_refresh_that_rolls_snapshots_up_counts_them_while_their_roll_up_commits(
            self, transactional_db, target, monkeypatch, late):
        import time

        from apps.snapshots import rollups as store

        recommendation_refresh(target_id=target.id, now=NOW)  # rolls the fixture's 100 hours up
        later = NOW + dt.timedelta(hours=1)
        snaps = [hourly_snapshots(1, lambda h: 3600, lambda h: 0, HOT, "SLOW", 12.5)[0]]
        snaps[0] = Snapshot(**{**snaps[0].__dict__, "snap_id": 1100, "begin_at": NOW, "end_at": later})
        if late:  # a snapshot of two days ago, collected only now: one roll-up changes both days
            end = NOW - dt.timedelta(days=2, minutes=30)
            snaps.append(Snapshot(**{**snaps[0].__dict__, "snap_id": 5000, "begin_at": end - dt.timedelta(hours=1),
                                     "end_at": end, "segment_stats": (
                                         SegmentStat(key=HOT, tablespace_name="SLOW", obj_number=1, dataobj_number=1,
                                                     physical_read_requests=7000, physical_write_requests=0),)}))
        collection_store(target=target, collection=Collection(
            database=DatabaseInfo(dbid=7, db_name="T1", release="19.0.0.0.0", is_rac=False, instances=(1,)),
            snapshots=tuple(snaps)), kind="demo", state=CollectState(now=later, history_start_at=NOW))
        write = store._day_write

        def slow_write(cursor, target_id, day, merged):
            write(cursor, target_id, day, merged)
            time.sleep(0.5)  # the roll-up commits well after the window could have read the days

        monkeypatch.setattr(store, "_day_write", slow_write)

        recommendation_refresh(target_id=target.id, now=later)

        # 10 busy hours at 360,000 reads, 90 at 3,600; then the next hour's 3,600 and the late 7,000.
        assert recommendation_of(target, HOT).read_requests == 10 * 360_000 + 90 * 3600 + 3600 + (7000 if late else 0)

    def test_a_live_window_leaves_the_next_days_base_prepared(self, target, django_capture_on_commit_callbacks):
        from apps.snapshots.models import WindowBase

        with django_capture_on_commit_callbacks(execute=True):
            recommendation_refresh(target_id=target.id, now=NOW + dt.timedelta(minutes=10))

        # The window's base (6 days before NOW's) and the 5 of them the next day's window shares; at noon,
        # with an hourly collection, not yet the next day's whole base.
        first = NOW.date() - dt.timedelta(days=6)
        assert sorted(WindowBase.objects.filter(target=target).values_list("first_day", "last_day")) == [
            (first, NOW.date() - dt.timedelta(days=1)), (first + dt.timedelta(days=1), NOW.date() - dt.timedelta(days=1))]

    def test_the_days_last_collection_prepares_the_next_days_whole_base(self, target,
                                                                         django_capture_on_commit_callbacks):
        from apps.snapshots.models import WindowBase

        target.interval_minutes = 12 * 60  # the next collection is after midnight
        target.save()
        with django_capture_on_commit_callbacks(execute=True):
            recommendation_refresh(target_id=target.id, now=NOW + dt.timedelta(minutes=10))

        assert (NOW.date() - dt.timedelta(days=5), NOW.date()) in set(
            WindowBase.objects.filter(target=target).values_list("first_day", "last_day"))

    def test_a_window_of_an_old_report_prepares_nothing(self, target, django_capture_on_commit_callbacks):
        from apps.snapshots.models import WindowBase

        with django_capture_on_commit_callbacks(execute=True):
            recommendation_refresh(target_id=target.id, now=NOW + dt.timedelta(days=3))

        # Only the base of the window itself.
        assert list(WindowBase.objects.filter(target=target).values_list("first_day", "last_day")) == [
            (NOW.date() - dt.timedelta(days=6), NOW.date() - dt.timedelta(days=1))]


@pytest.mark.django_db
class RecommendationExplanationTests:
    def test_the_words_shown_later_come_from_the_same_decision_as_the_stored_action(self, demo_target, collect):
        from apps.tiering import rules
        from apps.tiering.recommendations.selectors import recommendation_list

        collect(demo_target)
        recs = list(recommendation_list(target_id=demo_target.id))
        explanations = explain(recs, target=demo_target)

        assert len(recs) > 60
        for rec, explanation in zip(recs, explanations):
            codes = {reason.code for reason in explanation.reasons}
            assert set(rules.finding_codes(rec.findings)) <= codes, rec.segment
            assert bool(explanation.ddl) == (rec.action not in ("keep", "not_worth_moving")), rec.segment
        assert {"move", "keep"} <= {rec.action for rec in recs}

    def test_a_skewed_partitioned_table_is_explained_from_its_other_partitions(self, demo_target, collect):
        from apps.tiering import rules

        collect(demo_target)
        skew = 1 << rules.FINDING_CODES.index("partition_skew")
        recs = Recommendation.objects.current(target_id=demo_target.id).select_related(
            "run", "segment", "current_tier", "cost_tier", "recommended_tier")
        rec = next((rec for rec in recs if rec.findings & skew), None)

        assert rec is not None, "the demo's ORDERS partitions are skewed"
        reasons = explain([rec], target=demo_target)[0].reasons
        assert any(r.code == "partition_skew" and rec.segment.object_name in r.text for r in reasons)
