"""Did a move pay? A segment's before-window against its after-window, priced, and the verdict in words.

For a move at ``t`` (apps.snapshots.models.SegmentMove) the before-window is
[t - B, t) on the tablespace it left, the after-window [t, t + A) on the one it
reached (B and A chosen by the DBA, BEFORE_AFTER_DAYS each by default); the
figures of each are apps.snapshots.before_after's. Then:

* **predicted**: the segment's recommendation current just before the move
  (the latest run computed at or before ``t``): its cost after and its IO time
  saved per day. Where none was computed before the move (a demo back-filled
  at once, a target added after the move), the cost model on the
  before-window's figures: the segment's p95 IOPS and size priced on the tier
  it reached, and its read requests per day times the read time it left less
  the one it reached (measured on that tablespace over the before-window, else
  the tier's nominal latency). The page says which.
* **cost now**: the cost model on the after-window's figures (p95 IOPS, size) on
  the tier of the tablespace it reached, per month.
* **IO time saved, measured**: IO time per day before less after.

Verdict (:func:`judge`): *too early* while the after-window holds fewer than
VERDICT_MIN_SNAPSHOTS snapshots or VERDICT_MIN_SHARE of the before-window's;
*paid* when the IO time saved measured is at least 0 (for a move down for
money, predicted to lose IO time: when it loses no more than predicted plus
VERDICT_COST_TOLERANCE of it, and a second) and the cost now is at most the
predicted one plus VERDICT_COST_TOLERANCE of it (and a cent);
*did not pay* otherwise; *not judged* when a figure it needs is unknown (said
which). IO requests/s changed by more than VERDICT_LOAD_FACTOR between the
windows: the sentence says the comparison is confounded by the load change.
"""

from __future__ import annotations

import datetime as dt
import math
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

import numpy as np

from apps.core.config import get_config
from apps.snapshots.before_after import (
    Interval,
    WindowFigures,
    intervals_in,
    segment_window_figures,
    snapshots_in,
    tablespace_read_ms,
)
from apps.snapshots.models import Segment, SegmentMove, Snapshot
from apps.snapshots.storage_map import storage_map_read
from apps.tiering import costmodel
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.rules import in_words
from apps.tiering.tiers import tier_to_model

PAID, DID_NOT_PAY, TOO_EARLY, NOT_JUDGED = "paid", "did not pay", "too early", "not judged"
_CENT = Decimal("0.01")


@dataclass(frozen=True)
class Prediction:
    """What was expected of the move: cost per month after it, IO time saved per day (None: unknown)."""

    cost_usd_per_month: Decimal | None
    io_time_saved_s_per_day: float | None
    source: str  # in words: which recommendation, or the cost model on the before-window


@dataclass(frozen=True)
class Comparison:
    """A segment's two windows side by side, and (for a move) what it was predicted to do and the verdict."""

    before: WindowFigures
    after: WindowFigures
    move: SegmentMove | None
    prediction: Prediction | None
    cost_before_usd_per_month: Decimal | None
    cost_now_usd_per_month: Decimal | None
    needed_snapshots: int
    verdict: str | None
    sentence: str

    @property
    def io_time_saved_s_per_day(self) -> float | None:
        if self.before.io_time_s_per_day is None or self.after.io_time_s_per_day is None:
            return None
        return self.before.io_time_s_per_day - self.after.io_time_s_per_day

    @property
    def io_time_lost_s_per_day(self) -> float | None:
        saved = self.io_time_saved_s_per_day
        return None if saved is None else -saved

    @property
    def load_factor(self) -> float | None:
        return load_factor(self.before, self.after)

    @property
    def windows(self) -> tuple[WindowFigures, WindowFigures]:
        return self.before, self.after


def needed_snapshots(before_snapshots: int) -> int:
    """Snapshots an after-window needs for a verdict: VERDICT_MIN_SNAPSHOTS, and VERDICT_MIN_SHARE of the
    before-window's.

    >>> needed_snapshots(168), needed_snapshots(24)
    (42, 24)
    """
    config = get_config()
    return max(int(config["VERDICT_MIN_SNAPSHOTS"]),
               math.ceil(float(config["VERDICT_MIN_SHARE"]) * before_snapshots))


def load_factor(before: WindowFigures, after: WindowFigures) -> float | None:
    """After's IO requests/s over before's (None: unknown or no IO before)."""
    if before.io_requests_per_s is None or after.io_requests_per_s is None or not before.io_requests_per_s:
        return None
    return after.io_requests_per_s / before.io_requests_per_s


def judge(*, before: WindowFigures, after: WindowFigures, prediction: Prediction,
          cost_now_usd_per_month: Decimal | None) -> tuple[str, str]:
    """(verdict, the sentence stating it with its figures). Pure: reads only its arguments and the tunables."""
    needed = needed_snapshots(before.snapshots)
    if after.snapshots < needed:
        return TOO_EARLY, (f"Too early: the after-window holds {after.snapshots} snapshot"
                           f"{'s' if after.snapshots != 1 else ''}; a verdict needs {needed} (at least "
                           f"{get_config()['VERDICT_MIN_SNAPSHOTS']}, and "
                           f"{float(get_config()['VERDICT_MIN_SHARE']):.0%} of the before-window's "
                           f"{before.snapshots}).")
    saved = (None if before.io_time_s_per_day is None or after.io_time_s_per_day is None
             else before.io_time_s_per_day - after.io_time_s_per_day)
    unknown = [name for name, value in (("the IO time per day before", before.io_time_s_per_day),
                                        ("the IO time per day after", after.io_time_s_per_day),
                                        ("the cost now", cost_now_usd_per_month),
                                        ("the predicted cost", prediction.cost_usd_per_month)) if value is None]
    caveat = _load_caveat(before, after)
    if unknown:
        return NOT_JUDGED, f"Not judged: {' and '.join(unknown)} {'is' if len(unknown) == 1 else 'are'} not known.{caveat}"
    assert saved is not None and cost_now_usd_per_month is not None and prediction.cost_usd_per_month is not None
    tolerance = Decimal(str(get_config()["VERDICT_COST_TOLERANCE"]))
    limit = prediction.cost_usd_per_month * (1 + tolerance) + _CENT
    as_predicted = cost_now_usd_per_month <= limit
    expected = prediction.io_time_saved_s_per_day
    predicted_saved = ("" if expected is None else f", {duration_words(expected)} predicted" if expected >= 0
                       else f", {duration_words(-expected)} lost predicted")
    io_words = (f"IO time went from {duration_words(before.io_time_s_per_day)} to "
                f"{duration_words(after.io_time_s_per_day)} a day ({saved_words(saved)}{predicted_saved})")
    cost_words = (f"it costs {_usd(cost_now_usd_per_month)}/month against {_usd(prediction.cost_usd_per_month)}"
                  f"/month predicted")
    # A move down for money (predicted to lose IO time) pays when it loses no more than predicted, within the
    # tolerance; any other move must not read slower than before.
    down = expected is not None and expected < 0
    time_ok = saved >= 0 or (expected is not None and expected < 0 and saved >= expected * (1 + float(tolerance)) - 1.0)
    if time_ok and as_predicted:
        return PAID, f"Paid: {io_words}, and {cost_words}.{caveat}"
    why = [] if time_ok else [f"it reads slower than {'predicted' if down else 'before'}"]
    if not as_predicted:
        why.append(f"its cost is more than {tolerance:.0%} above the prediction")
    return DID_NOT_PAY, f"Did not pay ({' and '.join(why)}): {io_words}, and {cost_words}.{caveat}"


def _load_caveat(before: WindowFigures, after: WindowFigures) -> str:
    factor = load_factor(before, after)
    limit = float(get_config()["VERDICT_LOAD_FACTOR"])
    if factor is None or 1 / limit <= factor <= limit:
        return ""
    return (f" Confounded by a load change: IO requests/s went from {before.io_requests_per_s:,.1f} to "
            f"{after.io_requests_per_s:,.1f} ({factor:.1f}×), more than the {limit:g}× the comparison allows.")


def move_comparison(*, move: SegmentMove, before_days: float, after_days: float,
                    tiers: dict[str, Tier] | None = None) -> Comparison:
    """The before and after of one move, its prediction, cost now and verdict. ``tiers``: the target's
    tablespace tiers (:func:`tablespace_tiers`), when the caller compares several moves of one target."""
    segment = move.segment
    t = move.moved_at
    before = segment_window_figures(target_id=segment.target_id, segment_id=segment.id,
                                    tablespace_name=move.from_tablespace, start_at=t - dt.timedelta(days=before_days),
                                    stop_at=t, label="before")
    after = segment_window_figures(target_id=segment.target_id, segment_id=segment.id,
                                   tablespace_name=move.to_tablespace, start_at=t,
                                   stop_at=t + dt.timedelta(days=after_days), label="after")
    tiers = tablespace_tiers(segment.target_id) if tiers is None else tiers
    basis = segment.target.tier_set.basis
    to_tier, from_tier = tiers.get(move.to_tablespace), tiers.get(move.from_tablespace)
    prediction = predicted(segment=segment, at=t, before=before, to_tier=to_tier, from_tier=from_tier,
                           to_read_ms=_read_ms_on(segment, move.to_tablespace, before))
    cost_now = cost_usd_per_month(segment, after, to_tier, basis)
    verdict, sentence = judge(before=before, after=after, prediction=prediction, cost_now_usd_per_month=cost_now)
    return Comparison(before=before, after=after, move=move, prediction=prediction,
                      cost_before_usd_per_month=cost_usd_per_month(segment, before, from_tier, basis),
                      cost_now_usd_per_month=cost_now, needed_snapshots=needed_snapshots(before.snapshots),
                      verdict=verdict, sentence=sentence)


def periods_comparison(*, segment: Segment, first: Snapshot, second: Snapshot) -> Comparison:
    """The two periods of a compare-period report (its two snapshots), side by side (no move, no verdict)."""
    windows = [segment_window_figures(target_id=segment.target_id, segment_id=segment.id,
                                      tablespace_name=segment.tablespace_name, start_at=snap.begin_at,
                                      stop_at=snap.end_at, label=label, snapshot_id=snap.pk)
               for snap, label in ((first, "period 1"), (second, "period 2"))]
    tier = tablespace_tiers(segment.target_id).get(segment.tablespace_name)
    basis = segment.target.tier_set.basis
    costs = [cost_usd_per_month(segment, window, tier, basis) for window in windows]
    words = [f"IO requests/s {_num(w.io_requests_per_s)}, IO time {duration_words(w.io_time_s_per_day)} a day"
             for w in windows]
    sentence = f"Period 1: {words[0]}; period 2: {words[1]}.{_load_caveat(*windows)}"
    return Comparison(before=windows[0], after=windows[1], move=None, prediction=None,
                      cost_before_usd_per_month=costs[0], cost_now_usd_per_month=costs[1],
                      needed_snapshots=needed_snapshots(windows[0].snapshots), verdict=None, sentence=sentence)


def predicted(*, segment: Segment, at: dt.datetime, before: WindowFigures, to_tier: Tier | None,
              from_tier: Tier | None, to_read_ms: float | None) -> Prediction:
    """The recommendation current just before ``at``, else the cost model on the before-window."""
    rec = (Recommendation.objects.filter(segment_id=segment.id, run__computed_at__lte=at,
                                         run__state__in=[RecommendationRun.State.CURRENT,
                                                         RecommendationRun.State.HISTORY])
           .select_related("run").order_by("-run__computed_at").first())
    basis = segment.target.tier_set.basis
    if rec is not None:
        cost = None if rec.cost_after_usd is None else _month(basis.per_month(rec.cost_after_usd))
        return Prediction(cost, rec.io_time_saved_s_per_day,
                          f"the recommendation computed {rec.run.computed_at:%Y-%m-%d %H:%M} UTC")
    saved = None
    if before.read_requests_per_day is not None and before.read_ms is not None:
        destination_ms = to_read_ms if to_read_ms is not None else (to_tier.read_latency_ms if to_tier else None)
        if destination_ms is not None:
            saved = before.read_requests_per_day * (before.read_ms - destination_ms) / 1000.0
    return Prediction(cost_usd_per_month(segment, before, to_tier, basis), saved,
                      "the cost model on the before-window's figures (no recommendation was computed before the move)")


def cost_usd_per_month(segment: Segment, window: WindowFigures, tier: Tier | None,
                       basis: costmodel.BillingBasis) -> Decimal | None:
    """The segment's cost on ``tier`` with the window's p95 IOPS and its size, per month (None: unknown)."""
    if tier is None or window.iops_p95 is None or not segment.size_bytes:
        return None
    costs = costmodel.cost_matrix([tier_to_model(tier)], np.array([window.iops_p95]),
                                  np.array([segment.size_bytes / 1024**3]), pooled=True)
    return _month(basis.per_month(Decimal(str(round(float(costs[0, 0]), 2)))))


def moved_windows_ready(*, move: SegmentMove, before_days: float, after_days: float,
                        intervals: list[Interval] | None = None) -> tuple[int, int]:
    """(snapshots in the move's after-window, snapshots it needs for a verdict); ``intervals``: the target's
    snapshots read once (apps.snapshots.before_after.snapshot_intervals) when many moves are counted."""
    t = move.moved_at
    if intervals is None:
        before = snapshots_in(target_id=move.target_id, start_at=t - dt.timedelta(days=before_days), stop_at=t)
        after = snapshots_in(target_id=move.target_id, start_at=t, stop_at=t + dt.timedelta(days=after_days))
    else:
        before = intervals_in(intervals, start_at=t - dt.timedelta(days=before_days), stop_at=t)
        after = intervals_in(intervals, start_at=t, stop_at=t + dt.timedelta(days=after_days))
    return after, needed_snapshots(before)


def _read_ms_on(segment: Segment, tablespace: str, window: WindowFigures) -> float | None:
    """The measured read time of ``tablespace`` over ``window`` (where the segment went, before it went)."""
    return tablespace_read_ms(target_id=segment.target_id, tablespace_name=tablespace, start_at=window.start_at,
                              stop_at=window.stop_at)


def tablespace_tiers(target_id: int) -> dict[str, Tier]:
    """Each tablespace's effective tier, as the refresh prices it: the hand map, else its locations'
    (apps.snapshots.storage_map)."""
    placed = {name: p.tier_id for name, p in storage_map_read(target_id=target_id).placements.items()
              if p.tier_id is not None}
    tiers = Tier.objects.in_bulk(set(placed.values()))
    return {name: tiers[tier_id] for name, tier_id in placed.items()}


def _month(amount: Decimal | None) -> Decimal | None:
    return None if amount is None else amount.quantize(_CENT, ROUND_HALF_UP)


def _usd(amount: Decimal) -> str:
    return f"${amount:,.2f}"


def _num(value: float | None) -> str:
    return "not measured" if value is None else f"{value:,.1f}"


def saved_words(saved: float) -> str:
    """IO time saved (or lost, when negative) in words."""
    return f"{duration_words(saved)} saved" if saved >= 0 else f"{duration_words(-saved)} lost"


def duration_words(seconds: float | None) -> str:
    """A duration as the pages write it; unknown when None.

    >>> duration_words(8.24), duration_words(184), duration_words(7300), duration_words(None)
    ('8.2 s', '3 min 4 s', '2 h 1 min', 'unknown')
    """
    return "unknown" if seconds is None else in_words.duration(seconds)
