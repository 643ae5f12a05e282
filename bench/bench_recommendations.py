"""The refresh bench of `make bench`: recommendations for the 100k-segment target of bench/run.py (7 days of
hourly statistics with their daily rollups), a whole refresh as a collection runs it (window figures, cost
model, seed rules, store), steady and in the first and last hours of a day, its parts one by one, and what the
window figures cost computed from the raw statistics instead of the rollups.

Split from bench/run.py by concern (run.py loads the data set and drives the benches); also the timing
helpers both use. Needs Django set up (bench/run.py does it); run alone with
``.venv/bin/python bench/run.py --only recommendations``.
"""

from __future__ import annotations

import datetime as dt
import statistics
import time
from unittest import mock


def timed(fn):
    """(what ``fn()`` returns, the seconds it took)."""
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def quiet(limit_s: float = 300.0) -> float:
    """Wait until no autovacuum works on the bench's database (the undone hours leave dead rows behind,
    and on two cores a vacuum of the 16.8M-row statistics table competes with what is measured);
    returns the seconds waited."""
    from django.db import connection

    start = time.perf_counter()
    while time.perf_counter() - start < limit_s:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'autovacuum worker' "
                           "AND datname = current_database()")
            if not cursor.fetchone()[0]:
                break
        time.sleep(1)
    return time.perf_counter() - start


def bench_recommendations(target) -> dict:
    """Refreshes of the loaded target (window figures from the rollups, cost model, rules, store).

    The data set ends at 22:00, so the two hours after it are the cases of a
    day: the refresh after its last (24th) snapshot, which rolls that
    snapshot up into the day's rollup and reads the heaviest last day; and
    the refresh after the first snapshot of the next day, whose window moves
    on a day: its base is the one prepared after an earlier refresh (as the
    worker does, off the refresh's path: timed apart) plus the day just
    ended, or, when none was prepared, every complete day merged again. The
    last day is first rolled up again hour by hour as a live target's is (its
    RollupDay and the parts since it was last written whole).
    Each such hour is stored by the ingest path, refreshed as a collection
    does, then undone. "Steady": a refresh with nothing new. The parts are
    timed one by one (a refresh reads the window and the segments at once).
    The raw aggregate is what the window figures cost without rollups: p95
    over every hourly row, in PostgreSQL.
    """
    from django.db.models import Max

    from apps.snapshots import figures
    from apps.snapshots.models import Snapshot
    from apps.snapshots.rollups import segment_days_roll_up
    from apps.snapshots.windows import raw_window_figures, window_base_drop, window_base_prepare, window_figures
    from apps.targets.models import TablespaceTier
    from apps.tiering.models import Tier
    from apps.tiering.recommendations import decision, services

    now = Snapshot.objects.filter(target=target).aggregate(m=Max("end_at"))["m"]
    last_day = now.date()
    hour = dt.timedelta(hours=1)
    # The refresh would queue the next day's base to a worker; here it is built and timed where wanted.
    # Each group starts on a quiet database (see quiet); the waits are reported. What a refresh leaves
    # to the worker is done here: the next day's bases where said, the runs replaced after each refresh.
    with mock.patch.object(figures, "window_base_prepare_task"), \
            mock.patch.object(services, "recommendation_runs_prune_task"):
        _day_rolled_up_hourly(target, last_day)
        window_base_drop(target_id=target.id)
        waited = [quiet()]
        cold_s = _refresh(target, now)
        steady = [_refresh(target, now) for _ in range(5)]
        waited.append(quiet())
        late = [_next_hour(target, now + hour) for _ in range(3)]
        # As the worker prepares after the day's last collection: the days shared, then the whole base.
        _, prepare_s = timed(lambda: window_base_prepare(target_id=target.id, last_day=last_day, days=7,
                                                          day_ends=True))
        # The day ends: as after its last hour (undone above), no part of it is left to merge.
        segment_days_roll_up(target_id=target.id, now=now + 2 * hour)
        waited.append(quiet())
        first_of_day = [_next_hour(target, now + 2 * hour) for _ in range(3)]
        waited.append(quiet())
        shared_only = [_next_hour(target, now + 2 * hour, prepared="shared") for _ in range(3)]
        waited.append(quiet())
        unprepared = [_next_hour(target, now + 2 * hour, prepared="none") for _ in range(2)]
        waited.append(quiet())
        # The parts of one steady refresh.
        figures, window_s = timed(lambda: window_figures(target_id=target.id, last_day=last_day, days=7))
        segments, segments_s = timed(lambda: services.segment_arrays(target_id=target.id))
        tiers = list(Tier.objects.filter(tier_set=target.tier_set))
        mapped = {m.tier_id: m.tier for m in TablespaceTier.objects.filter(target=target).select_related("tier")}
        columns, build_s = timed(lambda: decision.build_recommendations(
            target=target, tiers=tiers, segments=segments, figures=figures, mapped_tiers=mapped,
            residency=services._latest_residency(target.id, segments.segment_id), now=now, window_days=7))
        _, store_s = timed(lambda: services.recommendation_store(target_id=target.id, columns=columns, now=now))
        services.recommendation_runs_prune(target_id=target.id)
    raw, raw_s = timed(lambda: raw_window_figures(target_id=target.id, last_day=last_day, days=7))
    assert len(raw) == len(figures)

    def figures_of(hours: list[dict]) -> dict:
        return {"ingest_s": round(statistics.median(h["ingest_s"] for h in hours), 3),
                "refresh_s": {"median": round(statistics.median(h["refresh_s"] for h in hours), 3),
                              "best": round(min(h["refresh_s"] for h in hours), 3),
                              "worst": round(max(h["refresh_s"] for h in hours), 3)},
                "roll_up_s": round(statistics.median(h["roll_up_s"] for h in hours), 3)}

    return {
        "segments": len(segments), "hours": 168, "segment_stat_rows": 168 * len(segments),
        "refresh_steady_s": {"median": round(statistics.median(steady), 3), "best": round(min(steady), 3),
                             "worst": round(max(steady), 3)},
        "last_hour_of_a_day": figures_of(late),
        "first_hour_of_a_day": figures_of(first_of_day),
        "first_hour_of_a_day_shared_days_prepared": figures_of(shared_only),
        "first_hour_of_a_day_unprepared": figures_of(unprepared),
        "next_day_bases_prepared_off_path_s": round(prepare_s, 3),
        "refresh_without_any_base_s": round(cold_s, 3),
        "parts_s": {"window_figures": round(window_s, 3), "segments": round(segments_s, 3),
                    "cost_model_and_rules": round(build_s, 3), "store": round(store_s, 3)},
        "window_from_raw_statistics_s": round(raw_s, 3),
        "waited_for_autovacuum_s": [round(w, 1) for w in waited],
    }


def _day_rolled_up_hourly(target, day: dt.date) -> None:
    """Roll the day's snapshots up again one at a time, each as at its end, as the hourly roll-ups of a live
    target leave a day still going on (its rollup and the parts since it was last written whole)."""
    from apps.snapshots.models import RollupDay, RollupHour, Snapshot
    from apps.snapshots.rollups import segment_days_roll_up

    RollupDay.objects.filter(target=target, day=day).delete()
    RollupHour.objects.filter(target=target, day=day).delete()
    for pk, end_at in Snapshot.objects.filter(target=target, end_at__date=day).order_by("end_at").values_list(
            "pk", "end_at"):
        Snapshot.objects.filter(pk=pk).update(rolled_up=False)
        segment_days_roll_up(target_id=target.id, now=end_at)


def _refresh(target, now: dt.datetime) -> float:
    """The seconds of one refresh; then, untimed, the runs it replaced are deleted, as the worker does
    after it (call with the refresh's tasks patched out)."""
    from apps.tiering.recommendations import services

    _, seconds = timed(lambda: services.recommendation_refresh(target_id=target.id, now=now))
    services.recommendation_runs_prune(target_id=target.id)
    return seconds


def _next_hour(target, end: dt.datetime, *, prepared: str = "whole") -> dict:
    """The hourly collection ending at ``end`` of every segment: stored by the ingest path, then the
    refresh that follows it (which rolls the new snapshot up first), both committed as in a worker;
    then undone (the snapshot deleted, the rollups and window bases put back as they were).
    ``prepared``: the bases prepared for the next day's window are used ("whole"), only the one of the
    days it shares with the current window ("shared"), or none."""
    from apps.snapshots import figures
    from apps.snapshots.models import RollupDay, RollupHour, WindowBase
    from apps.snapshots.models import Snapshot as SnapshotModel
    from apps.snapshots.services import collection_store
    from apps.targets.base import CollectState
    from apps.targets.demo.schema import last_full_snap_id
    from apps.targets.rows import Collection, DatabaseInfo, Snapshot
    from bench.fleet_data import fleet_segment_stats, to_segment_stat

    n_segments = target.segments.count()
    snap_id = last_full_snap_id(end)
    stats = tuple(to_segment_stat(row)[1] for row in fleet_segment_stats(n_segments, 1, 11, first_snap_id=snap_id))
    snapshot = Snapshot(dbid=98, instance_number=1, snap_id=snap_id, begin_at=end - dt.timedelta(hours=1), end_at=end,
                        startup_at=end - dt.timedelta(days=60), segment_stats=stats, top_n_only=False)
    collection = Collection(database=DatabaseInfo(dbid=98, db_name="BIG", release="19.0.0.0.0", is_rac=False,
                                                  instances=(1,)), snapshots=(snapshot,), collected_at=end)
    day = end.astimezone(dt.timezone.utc).date()
    saved_day = RollupDay.objects.filter(target=target, day=day).first()
    saved_parts = list(RollupHour.objects.filter(target=target, day=day))
    saved_bases = list(WindowBase.objects.filter(target=target))
    if prepared != "whole" and saved_bases:
        later = WindowBase.objects.filter(target=target, first_day__gt=min(b.first_day for b in saved_bases))
        (later if prepared == "none" else later.filter(last_day=max(b.last_day for b in saved_bases))).delete()
    roll_up = figures.segment_days_roll_up
    roll_up_s = []

    def timed_roll_up(**kwargs):
        changed, seconds = timed(lambda: roll_up(**kwargs))
        roll_up_s.append(seconds)
        return changed

    try:
        _, ingest_s = timed(lambda: collection_store(
            target=target, collection=collection, kind="demo",
            state=CollectState(now=end, history_start_at=end - dt.timedelta(hours=2))))
        # The refresh's roll-up, timed where the refresh calls it.
        with mock.patch.object(figures, "segment_days_roll_up", timed_roll_up):
            refresh_s = _refresh(target, end)
    finally:
        SnapshotModel.objects.filter(target=target, end_at=end).delete()
        if saved_day:
            saved_day.save()
        else:
            RollupDay.objects.filter(target=target, day=day).delete()
        RollupHour.objects.filter(target=target, day=day).delete()
        RollupHour.objects.bulk_create(saved_parts)
        WindowBase.objects.filter(target=target).delete()
        WindowBase.objects.bulk_create(saved_bases)
        # The delete's trigger marked the day's other snapshots for a new roll-up; the day is put back whole.
        SnapshotModel.objects.filter(target=target, end_at__date=day).update(rolled_up=True)
    return {"ingest_s": round(ingest_s, 3), "refresh_s": round(refresh_s, 3), "roll_up_s": sum(roll_up_s)}
