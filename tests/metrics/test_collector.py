"""The exposition: every figure per target, process and queue, parsed back; unknowns are absent, never 0."""

from __future__ import annotations

import datetime as dt

import pytest
from prometheus_client.parser import text_string_to_metric_families

from apps.core.heartbeat import heartbeat_write
from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from tests.metrics.conftest import scrape


def samples(response) -> dict[tuple[str, tuple], float]:
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=")
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(response.content.decode()) for s in family.samples}


@pytest.fixture
def never_collected(seed_tiers):
    return Target.objects.create(name="idle", mode=Target.Mode.AWR, dsn="db:1521/x", collect_queue="group_a")


@pytest.mark.django_db(transaction=False)
class CollectorTests:
    def test_it_exports_a_collected_targets_figures(self, client, metrics_token, collected, no_heartbeats):
        got = samples(scrape(client))
        demo = (("target", "demo"),)
        run = CollectionRun.objects.get(target=collected)

        # Runs: the last success as Unix time, no failure since, runs by outcome as a counter.
        assert got[("tierscope_target_last_success_timestamp_seconds", demo)] == pytest.approx(
            run.finished_at.timestamp())
        assert got[("tierscope_target_consecutive_failures", demo)] == 0
        assert got[("tierscope_target_runs_total", (("outcome", "succeeded"), ("target", "demo")))] == 1
        assert got[("tierscope_target_runs_total", (("outcome", "failed"), ("target", "demo")))] == 0
        # Segments, costs per month now and after the moves, the saving, moves, flash-cache hits.
        assert got[("tierscope_target_segments", demo)] > 0
        now = got[("tierscope_target_cost_usd_per_month", (("placement", "now"), ("target", "demo")))]
        after = got[("tierscope_target_cost_usd_per_month", (("placement", "recommended"), ("target", "demo")))]
        assert now > 0 and after > 0
        assert got[("tierscope_target_saving_usd_per_month", demo)] == pytest.approx(now - after, abs=0.05)
        assert got[("tierscope_target_moves", demo)] >= 1
        assert 0 <= got[("tierscope_target_flash_cache_hit_ratio", demo)] <= 1
        assert ("tierscope_target_unmeasured_segments", demo) in got

    def test_it_leaves_out_what_was_never_measured(self, client, metrics_token, never_collected, no_heartbeats):
        got = samples(scrape(client))
        idle = (("target", "idle"),)

        # Known: no runs, no segments. Unknown (absent, not 0): last success, costs, moves, flash, unmeasured.
        assert got[("tierscope_target_segments", idle)] == 0
        assert got[("tierscope_target_consecutive_failures", idle)] == 0
        for name in ("tierscope_target_last_success_timestamp_seconds", "tierscope_target_saving_usd_per_month",
                     "tierscope_target_moves", "tierscope_target_flash_cache_hit_ratio",
                     "tierscope_target_unmeasured_segments"):
            assert (name, idle) not in got, name
        assert not [key for key in got if key[0] == "tierscope_target_cost_usd_per_month"]
        # No heartbeat written: no age exported.
        assert not [key for key in got if key[0] == "tierscope_process_heartbeat_age_seconds"]

    def test_it_counts_failures_since_the_last_success(self, client, metrics_token, never_collected):
        at = dt.datetime(2026, 11, 1, tzinfo=dt.UTC)
        for minutes, status in ((0, "failed"), (10, "succeeded"), (20, "failed"), (30, "failed")):
            when = at + dt.timedelta(minutes=minutes)
            CollectionRun.objects.create(target=never_collected, status=status, queued_at=when, finished_at=when)
        got = samples(scrape(client))
        idle = (("target", "idle"),)

        assert got[("tierscope_target_consecutive_failures", idle)] == 2
        assert got[("tierscope_target_runs_total", (("outcome", "failed"), ("target", "idle")))] == 3
        assert got[("tierscope_target_last_success_timestamp_seconds", idle)] == (
            at + dt.timedelta(minutes=10)).timestamp()

    def test_it_exports_heartbeat_ages_and_queue_depths(self, client, metrics_token, never_collected,
                                                        no_heartbeats, settings):
        import time

        heartbeat_write(process="worker", at_s=time.time() - 30)
        got = samples(scrape(client))

        assert got[("tierscope_process_heartbeat_age_seconds", (("process", "worker"),))] >= 30
        assert ("tierscope_process_heartbeat_age_seconds", (("process", "beat"),)) not in got
        # The default queue and the target group's queue, each with its Redis LLEN.
        assert ("tierscope_queue_messages", (("queue", settings.CELERY_TASK_DEFAULT_QUEUE),)) in got
        assert ("tierscope_queue_messages", (("queue", "group_a"),)) in got
