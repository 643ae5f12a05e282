"""The schedule: one beat entry fans out per target; per-target intervals are read at each tick."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.snapshots.services import schedule_install, snapshot_collect, targets_due
from apps.targets.models import Target


@pytest.mark.django_db
class ScheduleTests:
    def test_it_installs_the_beat_entries_once(self):
        from django_celery_beat.models import PeriodicTask

        schedule_install()
        schedule_install()

        tasks = dict(PeriodicTask.objects.values_list("name", "task"))
        assert tasks["collect-due-targets"] == "apps.snapshots.tasks.snapshot_collect_due"
        assert tasks["prune-old-snapshots"] == "apps.snapshots.tasks.snapshot_prune"
        assert tasks["reap-stuck-runs"] == "apps.snapshots.tasks.runs_reap"
        assert tasks["reap-stuck-refreshes"] == "apps.tiering.tasks.refreshes_reap"
        assert tasks["reap-stuck-checks"] == "apps.targets.tasks.target_checks_reap"
        assert tasks["segment-stat-partitions-ahead"] == "apps.snapshots.tasks.partitions_ahead"
        assert tasks["evaluate-alerts"] == "apps.alerts.tasks.alerts_evaluate"
        assert tasks["resume-target-deletions"] == "apps.targets.tasks.target_purges_resume"
        assert PeriodicTask.objects.count() == 8

    def test_an_interval_changed_in_the_admin_applies_at_the_next_tick(self, demo_target, admin_client):
        snapshot_collect(target_id=demo_target.id, trigger="command")
        demo_target.refresh_from_db()
        collected_at = demo_target.next_collect_at - dt.timedelta(minutes=60)

        # Edit through the admin form, as a DBA would; beat keeps running untouched.
        response = admin_client.post(
            f"/admin/targets/target/{demo_target.id}/change/",
            {
                "name": "demo", "mode": "demo", "dsn": "", "username": "", "password": "",
                "interval_minutes": "15", "enabled": "on", "tier_set": "seed-2009", "demo_seed": "42",
                "tablespace_tiers-TOTAL_FORMS": "0", "tablespace_tiers-INITIAL_FORMS": "0",
            },
        )
        assert response.status_code == 302, response.content[:500]
        # The next run is due at the old time, and afterwards every 15 minutes.
        demo_target.refresh_from_db()
        assert demo_target.interval_minutes == 15
        due_at = demo_target.next_collect_at
        assert demo_target.id not in targets_due(now=due_at - dt.timedelta(seconds=1))
        assert targets_due(now=due_at) == [demo_target.id]
        demo_target.refresh_from_db()
        assert demo_target.next_collect_at == due_at + dt.timedelta(minutes=15)
        assert collected_at < due_at

    def test_a_due_target_is_claimed_by_one_tick_only(self, demo_target):
        now = timezone.now()

        first = targets_due(now=now)
        second = targets_due(now=now)

        assert first == [demo_target.id]
        assert second == []

    def test_disabled_and_report_only_targets_are_never_due(self, db):
        Target.objects.create(name="off", mode=Target.Mode.DEMO, enabled=False)
        Target.objects.create(name="reports", mode=Target.Mode.REPORT)

        assert targets_due(now=timezone.now()) == []


@pytest.mark.django_db
class PruneTests:
    def _snapshot(self, target: Target, snap_id: int, end_at: dt.datetime) -> None:
        from apps.snapshots.models import Snapshot

        Snapshot.objects.create(target=target, kind="report", dbid=1, instance_number=1, snap_id=snap_id,
                                begin_at=end_at - dt.timedelta(hours=1), end_at=end_at, startup_at=end_at,
                                top_n_only=True)

    def test_it_keeps_retention_days_before_each_targets_latest_snapshot(self, db):
        from apps.snapshots.models import Snapshot
        from apps.snapshots.services import snapshot_prune

        now = timezone.now()
        live = Target.objects.create(name="live", mode=Target.Mode.DEMO)
        reports = Target.objects.create(name="reports", mode=Target.Mode.REPORT)
        self._snapshot(live, 1, now - dt.timedelta(days=40))
        self._snapshot(live, 2, now - dt.timedelta(hours=1))
        # An AWR report from 2014: the report-only target's only data.
        self._snapshot(reports, 1, dt.datetime(2014, 3, 1, tzinfo=dt.timezone.utc))

        deleted = snapshot_prune(now=now)

        assert deleted == 1
        assert list(Snapshot.objects.filter(target=live).values_list("snap_id", flat=True)) == [2]
        assert Snapshot.objects.filter(target=reports).count() == 1
