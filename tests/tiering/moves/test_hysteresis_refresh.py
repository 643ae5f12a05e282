"""Hysteresis end to end: a segment oscillating around a break-even, a collection and a refresh a day through
recommendation_refresh, a DBA who makes every move advised; its advice does not bounce, and a lasting change
moves it back on the tier set's seventh day, with the reason on the page."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.models import Segment
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, SegmentStat, Snapshot
from apps.tiering import rules
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.services import recommendation_refresh

START = dt.datetime(2026, 10, 1, tzinfo=dt.timezone.utc)
GB = 1024**3
SIZE_GB = 1000
KEY = SegmentKey("APP", "EVENTS", "", "TABLE")
BREAK_EVEN = 0.8  # seed-2009: fast disk's $/GB (2) / hi-cap disk's $/IOPS (2.5)


@pytest.fixture
def target(db, seed_tiers) -> Target:
    # Moves are free and any saving is worth its DDL: only hysteresis holds a move here.
    TierSet.objects.filter(name="seed-2009").update(move_cost_usd=0, min_saving_usd_per_month=0)
    target = Target.objects.create(name="osc", mode=Target.Mode.DEMO, tier_set_id="seed-2009")
    TablespaceTier.objects.create(target=target, tablespace_name="DATA", tier=Tier.objects.get(name="hi-cap disk"))
    return target


def _day(target: Target, day: int, intensity: float) -> Recommendation:
    """Collect one day of hourly snapshots at ``intensity`` (IOPS per GB), refresh on a one-day window, and
    return the segment's current recommendation."""
    base = START + dt.timedelta(days=day)
    requests = round(intensity * SIZE_GB * 3600)
    snapshots = tuple(
        Snapshot(dbid=7, instance_number=1, snap_id=10_000 + day * 24 + hour,
                 begin_at=base + dt.timedelta(hours=hour), end_at=base + dt.timedelta(hours=hour + 1),
                 startup_at=START - dt.timedelta(days=30), top_n_only=False, tablespace_io=(),
                 segment_stats=(SegmentStat(key=KEY, tablespace_name="DATA", obj_number=1, dataobj_number=1,
                                            physical_read_requests=requests, physical_write_requests=0,
                                            physical_reads_blocks=requests),))
        for hour in range(23)
    )
    collection = Collection(
        database=DatabaseInfo(dbid=7, db_name="OSC", release="19.0.0.0.0", is_rac=False, instances=(1,)),
        snapshots=snapshots,
        segments=(SegmentInfo(key=KEY, tablespace_name="DATA", bytes=SIZE_GB * GB, blocks=SIZE_GB * GB // 8192),),
    )
    now = base + dt.timedelta(hours=23, minutes=30)
    collection_store(target=target, collection=collection, kind="demo",
                     state=CollectState(now=now, history_start_at=now - dt.timedelta(days=1)))
    recommendation_refresh(target_id=target.id, now=now, window_days=1)
    return Recommendation.objects.current(target_id=target.id).select_related(
        "run", "segment", "current_tier", "cost_tier", "recommended_tier").get(
        segment=Segment.objects.get(target=target, object_name=KEY.object_name))


def _replay(target: Target, intensities: list[float]) -> list[Recommendation]:
    """A day each; the DBA makes each move advised before the next day (the tablespace goes to that tier)."""
    recs = []
    for day, intensity in enumerate(intensities):
        rec = _day(target, day, intensity)
        recs.append(rec)
        if rec.action == "move":
            TablespaceTier.objects.filter(target=target, tablespace_name="DATA").update(tier=rec.recommended_tier)
    return recs


@pytest.mark.django_db
class HysteresisRefreshTests:
    def test_a_segment_oscillating_around_a_break_even_does_not_bounce(self, target):
        # 10 % above, then below, the fast/hi-cap break-even, day after day.
        recs = _replay(target, [BREAK_EVEN * (1.1 if day % 2 == 0 else 0.9) for day in range(10)])

        assert recs[0].intensity == pytest.approx(0.88) and recs[1].intensity == pytest.approx(0.72)
        assert [rec.action for rec in recs] == ["move"] + ["keep"] * 9
        assert [rec.current_tier.name for rec in recs[1:]] == ["fast disk"] * 9
        # Without hysteresis the cost model would have sent it back every other day.
        assert [rec.cost_tier.name for rec in recs[:4]] == ["fast disk", "hi-cap disk", "fast disk", "hi-cap disk"]
        held = recs[1]
        assert held.recommended_tier.name == "fast disk" and held.savings_usd == 0
        assert held.findings & (1 << rules.FINDING_CODES.index("held_back"))
        reasons = explain([held], target=target)[0]
        assert reasons.action == "keep" and reasons.ddl == ""
        assert reasons.reasons[0].code == "held_back"
        assert reasons.reasons[0].text.startswith("Held on fast disk: hi-cap disk is a tier it left")
        assert "crossed the break-even by only 10% (needs 25%)" in reasons.reasons[0].text
        assert "advised back only 1 of 7 days" in reasons.reasons[0].text

    def test_a_lasting_change_moves_back_after_the_tier_sets_days(self, target):
        # Hot for 3 days (up to fast disk), then cold for good, 50 % below the break-even.
        recs = _replay(target, [BREAK_EVEN * 1.5] * 3 + [BREAK_EVEN * 0.5] * 8)

        assert [rec.action for rec in recs] == ["move", "keep", "keep"] + ["keep"] * 6 + ["move", "keep"]
        assert recs[9].current_tier.name == "fast disk" and recs[9].recommended_tier.name == "hi-cap disk"
        assert recs[10].current_tier.name == "hi-cap disk"
        # The held days say how many of the 7 the move back has been advised.
        said = [explain([rec], target=target)[0].reasons[0].text for rec in recs[3:9]]
        assert [f"advised back only {n} of 7 days" in text for n, text in zip(range(1, 7), said)] == [True] * 6
        assert all("crossed the break-even" not in text for text in said)

    def test_the_days_and_band_are_the_tier_sets(self, target):
        TierSet.objects.filter(name="seed-2009").update(hysteresis_days=2, hysteresis_band=0.1)

        recs = _replay(target, [BREAK_EVEN * 1.5] * 2 + [BREAK_EVEN * 0.85] * 3)

        assert [rec.action for rec in recs] == ["move", "keep", "keep", "move", "keep"]
