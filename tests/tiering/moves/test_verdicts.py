"""Before and after a move: the demo's built-in move pays; the verdict rules on figures made up for them;
unknown figures stay unknown; a compare-period report's two periods."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path

import pytest

from apps.snapshots.before_after import WindowFigures, compare_periods
from apps.snapshots.models import Segment, SegmentMove, SegmentStat
from apps.targets.demo.moves import BUILTIN_HOURS_BEFORE, BUILTIN_SEGMENT, BUILTIN_TABLESPACE
from apps.tiering.moves import verdicts
from apps.tiering.moves.verdicts import Prediction, judge

T = dt.datetime(2026, 11, 20, tzinfo=dt.timezone.utc)
COMPARE_FIXTURES = Path(__file__).resolve().parents[2] / "targets" / "awr_report" / "fixtures"


def window(label: str, *, snapshots: int = 168, reads: int | None = 3_600_000, writes: int | None = 36_000,
           read_ms: float | None = 5.0, optimized: int | None = 0) -> WindowFigures:
    """A window of hourly snapshots (``reads`` read requests over ``snapshots`` hours)."""
    return WindowFigures(label=label, start_at=T, stop_at=T, tablespace_name="TS", snapshots=snapshots,
                         covered_s=snapshots * 3600.0, unmeasured=0 if reads is not None else snapshots,
                         read_requests=reads, write_requests=writes, optimized_reads=optimized,
                         iops_p95=None if reads is None else 10.0, read_ms=read_ms)


PREDICTED = Prediction(Decimal("10.00"), 1000.0, "made up")


def judged(after: WindowFigures, *, cost_now: str | None = "10.00",
           prediction: Prediction = PREDICTED) -> tuple[str, str]:
    """judge()'s verdict and sentence for ``after`` against the default before-window, ``cost_now`` $ a month."""
    return judge(before=window("before"), after=after, prediction=prediction,
                 cost_now_usd_per_month=None if cost_now is None else Decimal(cost_now))


class JudgeTests:
    def test_it_is_too_early_while_the_after_window_holds_fewer_snapshots_than_a_verdict_needs(self):
        # 168 before: a quarter is 42, above the minimum of 24.
        verdict, sentence = judged(window("after", snapshots=41))
        assert verdict == verdicts.TOO_EARLY
        assert sentence == ("Too early: the after-window holds 41 snapshots; a verdict needs 42 (at least 24, and 25% "
                            "of the before-window's 168).")
        enough = window("after", snapshots=42, reads=900_000, writes=9_000, read_ms=0.5)  # the same load
        assert judged(enough)[0] == verdicts.PAID

    def test_it_paid_when_reads_got_faster_and_the_cost_is_as_predicted(self):
        # 3.6M reads in 168 h = 514,286 a day: at 5 ms 42 min 51 s a day, at 0.5 ms 4 min 17 s.
        verdict, sentence = judged(window("after", read_ms=0.5), cost_now="10.99")
        assert verdict == verdicts.PAID
        assert sentence == ("Paid: IO time went from 42 min 51 s to 4 min 17 s a day (38 min 34 s saved, 16 min 40 s "
                            "predicted), and it costs $10.99/month against $10.00/month predicted.")

    def test_it_did_not_pay_when_reads_got_slower_or_the_cost_went_past_the_tolerance(self):
        slower = judged(window("after", read_ms=6.0))
        assert slower[0] == verdicts.DID_NOT_PAY
        assert slower[1].startswith("Did not pay (it reads slower than before): IO time went from 42 min 51 s to "
                                    "51 min 26 s a day (8 min 34 s lost")
        dearer = judged(window("after", read_ms=0.5), cost_now="11.02")  # above $10.00 + 10 % + 1 cent
        assert dearer[0] == verdicts.DID_NOT_PAY
        assert "its cost is more than 10% above the prediction" in dearer[1]

    def test_a_move_down_for_money_pays_when_it_loses_no_more_io_time_than_predicted(self):
        # A cold segment sent to a cheaper, slower tier: predicted to lose 8 min 34 s a day for its saving.
        down = Prediction(Decimal("2.00"), -514.3, "made up")
        verdict, sentence = judged(window("after", read_ms=6.0), cost_now="2.00", prediction=down)
        assert verdict == verdicts.PAID
        assert sentence == ("Paid: IO time went from 42 min 51 s to 51 min 26 s a day (8 min 34 s lost, 8 min 34 s "
                            "lost predicted), and it costs $2.00/month against $2.00/month predicted.")
        # Losing more than predicted (past the tolerance) did not pay.
        worse = judged(window("after", read_ms=7.0), cost_now="2.00", prediction=down)
        assert worse[0] == verdicts.DID_NOT_PAY
        assert worse[1].startswith("Did not pay (it reads slower than predicted): ")

    def test_a_load_change_past_the_factor_is_said_to_confound_the_comparison(self):
        verdict, sentence = judged(window("after", reads=8_000_000, read_ms=0.5))
        assert verdict == verdicts.PAID
        assert sentence.endswith("Confounded by a load change: IO requests/s went from 6.0 to 13.3 (2.2×), more than "
                                 "the 2× the comparison allows.")
        calm = judged(window("after", reads=7_000_000, read_ms=0.5))
        assert "Confounded" not in calm[1]

    def test_unknown_figures_stay_unknown_and_are_not_judged(self):
        after = window("after", reads=None)
        assert (after.io_requests_per_s, after.io_time_s_per_day, after.flash_hit_share) == (None, None, None)
        verdict, sentence = judged(after, cost_now=None)
        assert verdict == verdicts.NOT_JUDGED
        assert sentence == "Not judged: the IO time per day after and the cost now are not known."
        no_latency = window("before", read_ms=None)
        assert no_latency.io_time_s_per_day is None and no_latency.io_requests_per_s == pytest.approx(3_636_000 / 604_800)

    def test_a_window_without_reads_has_no_flash_hit_share_rather_than_zero(self):
        assert window("w", reads=0, optimized=0).flash_hit_share is None
        assert window("w", reads=1000, optimized=250).flash_hit_share == 0.25


@pytest.mark.django_db
class DemoMoveTests:
    def test_the_demo_s_built_in_move_is_detected_and_paid_with_its_figures(self, demo_target, collect):
        collect(demo_target)

        move = SegmentMove.objects.get(target=demo_target)
        assert (move.segment.object_name, move.from_tablespace, move.to_tablespace, move.source) == (
            BUILTIN_SEGMENT.object_name, "SOE_INDEX", BUILTIN_TABLESPACE, "collected")
        created_hour = demo_target.created_at.replace(minute=0, second=0, microsecond=0)
        assert move.moved_at == created_hour - dt.timedelta(hours=BUILTIN_HOURS_BEFORE + 1)
        comparison = verdicts.move_comparison(move=move, before_days=7, after_days=7)
        before, after = comparison.before, comparison.after
        # 8 days were back-filled: 4.5 of them before the move (at least 100 hours), 84 hours after it.
        assert before.snapshots >= 100 and after.snapshots in (84, 85)
        # The flash cache served part of its reads on fast disk; on flash, with FLASH_CACHE NONE, none.
        assert before.flash_hit_share > 0.1 and after.flash_hit_share == 0
        # The tablespaces' measured read times: flash 0.3 ms; fast disk's 5 ms brought down by the reads the flash
        # cache served there at its 0.3 ms (as a real database's file statistics time them).
        assert 0.5 < before.read_ms < 4.0 and 0.2 < after.read_ms < 0.4
        assert comparison.io_time_saved_s_per_day == pytest.approx(
            before.io_time_s_per_day - after.io_time_s_per_day)
        assert comparison.io_time_saved_s_per_day > 0.5 * before.io_time_s_per_day
        # No recommendation was computed before the move (one back-fill): the cost model on the before-window.
        assert comparison.prediction.source.startswith("the cost model on the before-window")
        assert comparison.prediction.io_time_saved_s_per_day > 0
        assert comparison.cost_now_usd_per_month is not None
        assert comparison.verdict == verdicts.PAID
        assert comparison.sentence.startswith("Paid: IO time went from ")
        assert f"it costs ${comparison.cost_now_usd_per_month:,.2f}/month" in comparison.sentence

    def test_collecting_the_demo_again_records_no_second_move(self, demo_target, collect):
        collect(demo_target)
        collect(demo_target)
        assert SegmentMove.objects.filter(target=demo_target).count() == 1


@pytest.mark.django_db
class ComparePeriodTests:
    def test_a_compare_period_report_s_two_periods_are_compared_and_unlisted_figures_stay_unknown(self):
        from apps.snapshots.imports import report_import
        from apps.targets.models import Target

        target = Target.objects.create(name="cdb1", mode=Target.Mode.REPORT)
        data = (COMPARE_FIXTURES / "awrdiff_19c.txt").read_bytes()
        run = report_import(target=target, data=data, filename="awrdiff_19c.txt")
        assert run.status == "succeeded", run.error

        first, second = compare_periods(target_id=target.id)
        # In time order: the report prints its later period (snaps 91-92) as its 1st.
        assert (first.snap_id, second.snap_id) == (89, 92)
        orders = Segment.objects.get(target=target, object_name="ORDERS")
        comparison = verdicts.periods_comparison(segment=orders, first=first, second=second)
        # ORDERS is listed in both periods' read and write sections: 11,000 + 3,800 then 12,345 + 4,000 requests.
        assert (comparison.before.label, comparison.after.label) == ("period 1", "period 2")
        # Over each period's elapsed time as the report states it (its times are rounded to the minute).
        elapsed = dict(SegmentStat.objects.filter(segment=orders).values_list("snapshot_id", "interval_s"))
        assert elapsed[first.pk] != first.interval_seconds
        assert comparison.before.io_requests_per_s == pytest.approx(14_800 / elapsed[first.pk])
        assert comparison.after.io_requests_per_s == pytest.approx(16_345 / elapsed[second.pk])
        assert comparison.verdict is None and comparison.sentence.startswith("Period 1: IO requests/s ")
        # CUSTOMERS_PK is in the report's 1st (later) period's read list only: the earlier one is not measured.
        customers_pk = Segment.objects.get(target=target, object_name="CUSTOMERS_PK")
        unlisted = verdicts.periods_comparison(segment=customers_pk, first=first, second=second)
        assert unlisted.before.io_requests_per_s is None and unlisted.before.io_time_s_per_day is None
        assert "IO requests/s not measured" in unlisted.sentence


@pytest.mark.django_db
def test_a_tablespace_priced_by_its_location_is_priced_so_in_the_comparison(demo_target):
    """The verdict prices a window on its tablespace's effective tier (apps.snapshots.storage_map), as the
    refresh does: a tablespace no hand map names takes its location's tier."""
    from apps.snapshots.storage_map import datafiles_store
    from apps.targets.models import StorageLocation
    from apps.targets.rows import DataFile as DataFileRow
    from apps.tiering.models import Tier

    flash = Tier.objects.get(tier_set=demo_target.tier_set, is_flash=True)
    datafiles_store(target_id=demo_target.id, collected_at=T,
                    rows=[DataFileRow("NEW_FLASH", 40, "+FLASH/DEMO/DATAFILE/new_flash.300.1", 10 * 1024**3)])
    StorageLocation.objects.create(target=demo_target, name="+FLASH", kind="asm", tier=flash)

    assert verdicts.tablespace_tiers(demo_target.id)["NEW_FLASH"] == flash
