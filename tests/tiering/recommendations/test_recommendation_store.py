"""Storing a refresh: a new run written beside the current one (in parallel when large), then switched to."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest

from apps.tiering.models import Recommendation, RecommendationRun
from apps.tiering.recommendations import services

FIGURES = ("segment_id", "iops", "read_iops", "write_iops", "size_bytes", "intensity", "read_requests",
           "write_requests", "current_tier_id", "recommended_tier_id", "cost_now_usd", "cost_after_usd", "savings_usd",
           "io_time_saved_s_per_day", "action", "findings", "flash_blocks", "flash_cache")


@pytest.fixture
def parallel_from_one_row(settings):
    """A call that makes every refresh write its run on parallel connections (RECOMMENDATION_PARALLEL_ROWS 1)."""
    from apps.core.config import get_config

    def apply() -> None:
        settings.TIERSCOPE = {**getattr(settings, "TIERSCOPE", {}), "RECOMMENDATION_PARALLEL_ROWS": 1}
        get_config.cache_clear()

    yield apply
    get_config.cache_clear()


def _current(target_id: int) -> list[tuple]:
    """The current run's figures, floats to 12 significant digits: a refresh sums a segment's samples in the order
    the database returns them, so two refreshes of the same figures may differ in their last bits (a CI saw
    42427.701628050185 and 42427.70162805014 s saved a day)."""
    rows = Recommendation.objects.current(target_id=target_id).order_by("segment_id").values_list(*FIGURES)
    return [tuple(float(f"{v:.12g}") if isinstance(v, float) else v for v in row) for row in rows]


def _current_run(target_id: int) -> RecommendationRun:
    return RecommendationRun.objects.get(target_id=target_id, state=RecommendationRun.State.CURRENT)


def test_rows_written_by_parallel_connections_are_those_written_by_one(transactional_db, demo_target, collect,
                                                                       parallel_from_one_row):
    collect(demo_target)
    first = _current_run(demo_target.id)
    on_one_connection = _current(demo_target.id)
    parallel_from_one_row()

    services.recommendation_refresh(target_id=demo_target.id, now=first.computed_at)

    run = _current_run(demo_target.id)
    assert run.pk != first.pk and run.recommendations == len(on_one_connection) > 100
    assert _current(demo_target.id) == on_one_connection
    # The run it replaced was of the same day: shown nowhere, and deleted with its rows once the refresh is
    # stored (a task, run at once here).
    assert list(RecommendationRun.objects.filter(target=demo_target)) == [run]
    assert Recommendation.objects.filter(run_id=first.pk).count() == 0


@pytest.mark.django_db
def test_pruning_runs_twice_deletes_them_once(demo_target, monkeypatch, collect):
    from apps.tiering.tasks import recommendation_runs_prune

    monkeypatch.setattr(services, "recommendation_runs_prune_task", mock.Mock())  # not after each refresh
    collect(demo_target)
    now = _current_run(demo_target.id).computed_at
    services.recommendation_refresh(target_id=demo_target.id, now=now)
    services.recommendation_refresh(target_id=demo_target.id, now=now)
    shown = _current(demo_target.id)

    deleted = [recommendation_runs_prune(demo_target.id), recommendation_runs_prune(demo_target.id)]

    assert deleted == [2, 0]
    assert RecommendationRun.objects.filter(target=demo_target).count() == 1
    assert _current(demo_target.id) == shown


def test_a_failed_writer_leaves_the_current_run_shown_and_the_next_refresh_clears_its_rows(
        transactional_db, demo_target, monkeypatch, collect, parallel_from_one_row):
    collect(demo_target)
    before = _current(demo_target.id)
    now = _current_run(demo_target.id).computed_at
    parallel_from_one_row()
    copy = services.copy_from_arrays
    calls = []

    def second_writer_fails(cursor, table, data):
        calls.append(table)
        if len(calls) == 2:
            raise OSError("connection reset by peer")
        return copy(cursor, table, data)

    monkeypatch.setattr(services, "copy_from_arrays", second_writer_fails)
    with pytest.raises(OSError, match="connection reset"):
        services.recommendation_refresh(target_id=demo_target.id, now=now + dt.timedelta(hours=1))

    assert _current(demo_target.id) == before
    left = RecommendationRun.objects.get(target=demo_target, state=RecommendationRun.State.WRITING)
    assert 0 < Recommendation.objects.filter(run=left).count() < len(before)

    monkeypatch.setattr(services, "copy_from_arrays", copy)
    services.recommendation_refresh(target_id=demo_target.id, now=now + dt.timedelta(hours=2))

    assert not RecommendationRun.objects.filter(pk=left.pk).exists()
    assert not Recommendation.objects.filter(run_id=left.pk).exists()
    assert _current(demo_target.id) == before


@pytest.mark.django_db
def test_a_segments_history_is_its_row_in_the_last_run_of_each_day(demo_target, collect):
    from apps.dashboard.segment.selectors import segment_recommendation_history
    from apps.snapshots.models import Segment

    collect(demo_target)
    collected = _current_run(demo_target.id).computed_at
    # Hours from the first midnight after the collection: two runs on one day, then one a day, whatever the
    # hour the test runs at (hours counted from the collection itself cross midnight late in the day).
    midnight = dt.datetime.combine(collected.date() + dt.timedelta(days=1), dt.time(), tzinfo=dt.timezone.utc)
    for hours in (1, 2, 25, 49):
        services.recommendation_refresh(target_id=demo_target.id, now=midnight + dt.timedelta(hours=hours))
    segment = Segment.objects.filter(target=demo_target).order_by("id").first()

    history = segment_recommendation_history(segment=segment)

    # The collection's own run is the last of its day.
    assert [r.computed_at for r in history] == [midnight + dt.timedelta(hours=h) for h in (49, 25, 2)] + [collected]
    assert [r.is_current for r in history] == [True, False, False, False]


@pytest.mark.django_db
def test_the_admin_lists_the_runs_read_only(admin_client, demo_target, collect):
    collect(demo_target)
    run = _current_run(demo_target.id)

    listing = admin_client.get("/admin/tiering/recommendationrun/")
    page = admin_client.get(f"/admin/tiering/recommendationrun/{run.pk}/change/")

    assert listing.status_code == 200 and b"current" in listing.content
    assert page.status_code == 200 and b'name="_save"' not in page.content
    assert admin_client.get("/admin/tiering/recommendationrun/add/").status_code == 403
