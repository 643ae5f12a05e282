"""The target page says when the database was recreated (a new DBID) and that the history before it is kept apart."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.models import Snapshot
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db

@pytest.fixture
def target(seed_tiers):
    return build_target(name="inc", segments=5)  # DBID 1, its snapshots ending up to now


def _recreate(target) -> dt.datetime:
    """Three hourly snapshots of a new DBID after the old one's last, numbered from 1 again (as a recreated
    database does); returns the end of the first."""
    first_end_at = Snapshot.objects.filter(target=target).latest("end_at").end_at + dt.timedelta(hours=1)
    Snapshot.objects.bulk_create([
        Snapshot(target=target, kind="demo", dbid=2, instance_number=1, snap_id=k + 1,
                 begin_at=first_end_at + dt.timedelta(hours=k - 1), end_at=first_end_at + dt.timedelta(hours=k),
                 startup_at=first_end_at - dt.timedelta(hours=1), top_n_only=False)
        for k in range(3)
    ])
    return first_end_at


class TargetIncarnationTests:
    def test_it_says_nothing_of_a_target_with_one_database(self, admin_client, target):
        response = admin_client.get("/targets/inc/")

        assert response.status_code == 200
        assert b"recreated" not in response.content

    def test_it_says_when_the_database_was_recreated_and_that_its_history_is_kept_apart(self, admin_client, target):
        recreated_at = _recreate(target)

        response = admin_client.get("/targets/inc/")

        line = response.content.decode()
        assert f"Database recreated on {recreated_at:%Y-%m-%d %H:%M} UTC (DBID 2)" in line
        assert "history before it kept apart" in line
        assert "DBID 1: 6 snapshots" in line
