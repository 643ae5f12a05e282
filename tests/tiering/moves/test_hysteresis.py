"""Hysteresis (apps.tiering.moves.hysteresis): no bouncing around a break-even, day by day; a lasting change moves.

Pure: no database. The replay plays a refresh a day through judge(), with a DBA who makes every move the
day it is advised, as the end-to-end test (test_hysteresis_refresh.py) does through recommendation_refresh.
"""

from __future__ import annotations

from decimal import Decimal

import numpy as np
import pytest

from apps.tiering import costmodel
from apps.tiering.moves.hysteresis import MEMORY_DAYS, HeldBack, History, Settings, crossed_share, judge, why_held

HICAP, FAST = 1, 2
TIERS = {
    HICAP: costmodel.DeviceTier(name="hi-cap disk", device_cost_usd=Decimal(250), device_gb=1000, device_iops=100),
    FAST: costmodel.DeviceTier(name="fast disk", device_cost_usd=Decimal(600), device_gb=300, device_iops=300),
}
BREAK_EVEN = 0.8  # fast disk's $/GB (2) / hi-cap disk's $/IOPS (2.5): the seed's fast/hi-cap break-even
GB = 100.0


def _cheapest(intensity: float, current: int) -> int:
    """The cost model's tier of a 100 GB segment between the two tiers (ties keep the current one)."""
    ids = list(TIERS)
    costs = costmodel.cost_matrix([TIERS[i] for i in ids], np.array([intensity * GB]), np.array([GB]))
    choice = costmodel.cheapest(costs, [TIERS[i] for i in ids], np.array([ids.index(current)]))
    return ids[int(choice[0])]


def _replay(intensities: list[float], *, start: int = HICAP, settings: Settings = Settings(),
            dba_moves: bool = True) -> list[tuple[int, int, int]]:
    """(current, cost model's, recommended) tier of one segment on each day; the history of each day is the
    rows of the days before (at most memory_days), as advice_history reads them."""
    rows: list[tuple[int, int, int]] = []
    held: set[int] = set()  # the days a move back was held
    current = start
    for intensity in intensities:
        cost = _cheapest(intensity, current)
        earlier = rows[::-1][:settings.memory_days]
        history = History(
            segment_id=np.full(len(earlier), 7, dtype=np.int64), age=np.arange(1, len(earlier) + 1, dtype=np.int64),
            current_tier_id=np.array([r[0] for r in earlier], dtype=np.int64),
            cost_tier_id=np.array([r[1] for r in earlier], dtype=np.int64),
            recommended_tier_id=np.array([r[2] for r in earlier], dtype=np.int64),
            held_back=np.array([r in held for r in range(len(rows) - 1, len(rows) - 1 - len(earlier), -1)]),
        ) if earlier else History.empty()
        verdict = judge(segment_id=np.array([7]), current_tier_id=np.array([current]), cost_tier_id=np.array([cost]),
                        intensity=np.array([intensity]), tiers=TIERS, history=history, settings=settings)
        recommended = current if verdict.held[0] else cost
        if verdict.held[0]:
            held.add(len(rows))
        rows.append((current, cost, recommended))
        if dba_moves:
            current = recommended
    return rows


def _moves(rows: list[tuple[int, int, int]]) -> list[int]:
    """The days on which a move was recommended."""
    return [day for day, (current, _, recommended) in enumerate(rows) if recommended != current]


class HysteresisReplayTests:
    def test_a_segment_oscillating_inside_the_band_moves_once_and_never_back(self):
        # 12.5 % either side of the break-even, day after day for 60 days: the first crossing moves it up
        # (nothing to come back from), every later day's advice to go back down is held.
        days = [BREAK_EVEN * (1.125 if day % 2 == 0 else 0.875) for day in range(60)]

        rows = _replay(days)

        assert _moves(rows) == [0]
        assert all(current == FAST for current, _, _ in rows[1:])
        assert [cost for _, cost, _ in rows[:4]] == [FAST, HICAP, FAST, HICAP]  # without hysteresis: a bounce a day

    def test_a_segment_oscillating_past_the_band_every_day_does_not_bounce_either(self):
        # 40 % either side: the band is crossed, but the advice to go back never holds 7 days in a row.
        days = [BREAK_EVEN * (1.4 if day % 2 == 0 else 0.6) for day in range(60)]

        assert _moves(_replay(days)) == [0]

    def test_a_weekly_swing_shorter_than_the_days_needed_does_not_bounce(self):
        # 3 days hot, 3 days cold, far past the band: the move back is advised 3 days at most.
        days = [BREAK_EVEN * (2.0 if (day // 3) % 2 == 0 else 0.3) for day in range(60)]

        assert _moves(_replay(days)) == [0]

    def test_a_lasting_change_moves_back_on_its_seventh_day(self):
        # Up on day 0; from day 5 on the segment is cold for good (50 % below the break-even).
        days = [BREAK_EVEN * 1.5] * 5 + [BREAK_EVEN * 0.5] * 20

        rows = _replay(days)

        assert _moves(rows) == [0, 11]  # advised back on days 5..11: the 7th day of advice moves it
        assert rows[11] == (FAST, HICAP, HICAP)
        assert all(recommended == current for current, _, recommended in rows[5:11])

    def test_the_days_follow_the_tier_set(self):
        days = [BREAK_EVEN * 1.5] * 5 + [BREAK_EVEN * 0.5] * 20

        assert _moves(_replay(days, settings=Settings(band=0.25, days=3))) == [0, 7]
        assert _moves(_replay(days, settings=Settings(band=0.25, days=0))) == [0, 5]

    def test_a_tier_left_more_than_the_memory_ago_is_forgotten_after_a_quiet_week(self):
        # Ten quiet days on fast disk (no advice back): hi-cap disk has left the week read, so a move there
        # is a move like any other. A week of stable advice is no bounce.
        days = [BREAK_EVEN * 1.5] * 10 + [BREAK_EVEN * 0.9] * 3

        assert _moves(_replay(days)) == [0, 10]

    def test_a_lasting_change_inside_the_band_never_moves_back(self):
        days = [BREAK_EVEN * 1.5] * 5 + [BREAK_EVEN * 0.85] * 40

        assert _moves(_replay(days)) == [0]
        assert _moves(_replay(days, settings=Settings(band=0.1, days=7))) == [0, 11]

    def test_advice_that_bounces_while_nobody_acts_stops_bouncing(self):
        # The DBA makes no move: the advice went to fast disk, then away (keep), so fast disk is a tier it was
        # advised to leave; advising it again takes the band and the days.
        days = [BREAK_EVEN * (1.1 if day % 2 == 0 else 0.9) for day in range(30)]

        rows = _replay(days, dba_moves=False)

        assert _moves(rows) == [0]
        assert all(current == HICAP for current, _, _ in rows)

    def test_the_same_move_advised_day_after_day_is_not_a_move_back(self):
        rows = _replay([BREAK_EVEN * 1.1] * 10, dba_moves=False)

        assert _moves(rows) == list(range(10))


class JudgeTests:
    def _judge(self, *, current, cost, intensity, history_rows, settings=Settings()):
        """One segment (id 7) judged on ``history_rows``: (age, current, cost, recommended[, held back])."""
        rows = np.array([(*row, 0)[:5] for row in history_rows], dtype=np.int64).reshape(-1, 5)
        history = History(segment_id=np.full(len(rows), 7, dtype=np.int64), age=rows[:, 0],
                          current_tier_id=rows[:, 1], cost_tier_id=rows[:, 2], recommended_tier_id=rows[:, 3],
                          held_back=rows[:, 4] > 0)
        return judge(segment_id=np.array([7]), current_tier_id=np.array([current]), cost_tier_id=np.array([cost]),
                     intensity=np.array([intensity]), tiers=TIERS, history=history, settings=settings)

    def test_a_first_move_is_not_held(self):
        verdict = self._judge(current=HICAP, cost=FAST, intensity=0.81, history_rows=[(1, HICAP, HICAP, HICAP)])

        assert not verdict.back[0] and not verdict.held[0]

    def test_a_move_to_a_tier_it_was_on_is_a_move_back(self):
        verdict = self._judge(current=FAST, cost=HICAP, intensity=0.3, history_rows=[
            (1, FAST, FAST, FAST), (2, HICAP, FAST, FAST)])

        assert verdict.back[0] and verdict.band_ok[0] and verdict.days_advised[0] == 1 and verdict.held[0]

    def test_the_days_count_today_and_the_unbroken_runs_before(self):
        # Advised back on ages 1, 2 and 4: age 3 (advised to stay) breaks the streak.
        verdict = self._judge(current=FAST, cost=HICAP, intensity=0.3, history_rows=[
            (1, FAST, HICAP, FAST), (2, FAST, HICAP, FAST), (3, FAST, FAST, FAST), (4, FAST, HICAP, FAST),
            (5, HICAP, FAST, FAST)])

        assert verdict.days_advised[0] == 3

    def test_a_run_without_the_segment_breaks_the_streak(self):
        verdict = self._judge(current=FAST, cost=HICAP, intensity=0.3, history_rows=[
            (1, FAST, HICAP, FAST), (3, FAST, HICAP, FAST), (4, HICAP, FAST, FAST)])

        assert verdict.days_advised[0] == 2

    @pytest.mark.parametrize(("current", "cost", "intensity", "crosses"), [
        (HICAP, FAST, 1.0, True),  # 25 % above: up
        (HICAP, FAST, 0.99, False),
        (FAST, HICAP, 0.6, True),  # 25 % below: down
        (FAST, HICAP, 0.61, False),
    ])
    def test_the_band_is_a_share_of_the_break_even_on_the_side_of_the_move(self, current, cost, intensity, crosses):
        verdict = self._judge(current=current, cost=cost, intensity=intensity, history_rows=[
            (age, current, cost, current) for age in range(1, 7)] + [(7, cost, cost, cost)])

        assert verdict.days_advised[0] == 7
        assert verdict.band_ok[0] == crosses
        assert verdict.held[0] == (not crosses)

    def test_an_unknown_intensity_never_crosses_the_band(self):
        verdict = self._judge(current=FAST, cost=HICAP, intensity=np.nan, history_rows=[
            (age, FAST, HICAP, FAST) for age in range(1, 8)] + [(8, HICAP, HICAP, HICAP)])

        assert verdict.back[0] and not verdict.band_ok[0] and verdict.held[0]

    def test_a_held_move_back_keeps_the_tier_it_left_in_memory(self):
        # The runs read no longer show it on hi-cap disk, but one of them held the same move back.
        rows = [(age, FAST, FAST, FAST) for age in range(1, 7)] + [(7, FAST, HICAP, FAST, 1)]

        assert self._judge(current=FAST, cost=HICAP, intensity=0.7, history_rows=rows).held[0]
        assert not self._judge(current=FAST, cost=HICAP, intensity=0.7, history_rows=rows[:-1]).back[0]

    def test_the_memory_is_a_week_or_the_days_needed(self):
        assert Settings(days=3).memory_days == MEMORY_DAYS == 7
        assert Settings(days=60).memory_days == 60

    def test_segments_not_sent_elsewhere_and_unknown_tiers_are_not_judged(self):
        history = History(segment_id=np.array([1, 2, 3]), age=np.array([1, 1, 1]),
                          current_tier_id=np.array([FAST, FAST, FAST]), cost_tier_id=np.array([FAST, FAST, FAST]),
                          recommended_tier_id=np.array([FAST, FAST, FAST]), held_back=np.zeros(3, dtype=bool))
        verdict = judge(segment_id=np.array([1, 2, 3]), current_tier_id=np.array([HICAP, HICAP, -1]),
                        cost_tier_id=np.array([HICAP, 99, FAST]), intensity=np.array([0.1, 9.0, 9.0]), tiers=TIERS,
                        history=history, settings=Settings())

        assert not verdict.back.any() and not verdict.held.any()


class WordsTests:
    def test_crossed_share_is_past_the_break_even_towards_the_move(self):
        assert crossed_share(1.0, TIERS[HICAP], TIERS[FAST]) == pytest.approx(0.25)
        assert crossed_share(0.6, TIERS[FAST], TIERS[HICAP]) == pytest.approx(0.25)
        assert crossed_share(0.7, TIERS[HICAP], TIERS[FAST]) == pytest.approx(-0.125)
        assert crossed_share(None, TIERS[HICAP], TIERS[FAST]) is None

    def test_it_says_what_the_move_back_lacks(self):
        band_only = why_held(current_tier="fast disk", recommended_tier="hi-cap disk",
                             held=HeldBack(0.1, Settings(), 9))
        days_only = why_held(current_tier="fast disk", recommended_tier="hi-cap disk",
                             held=HeldBack(0.5, Settings(), 2))

        assert "crossed the break-even by only 10% (needs 25%)" in band_only and "days" not in band_only.split(";")[1]
        assert "advised back only 2 of 7 days" in days_only and "crossed" not in days_only
        assert days_only.startswith("Held on fast disk: hi-cap disk is a tier it left or was advised to leave")
