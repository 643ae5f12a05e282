"""The fleet page says, per target, how long ago its last successful collection (or import) ended; "never"
when there is none, whatever later run failed."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target

pytestmark = pytest.mark.django_db


def _cell(page: str, target: str) -> str:
    row = re.search(rf'<tr data-target="{target}">(.*?)</tr>', page, re.S)[1]
    return re.search(r'data-col="last_collected"[^>]*>([^<]*)</td>', row)[1]


def _run(target: Target, status: str, ended_ago: dt.timedelta) -> CollectionRun:
    end = timezone.now() - ended_ago
    return CollectionRun.objects.create(target=target, status=status, queued_at=end - dt.timedelta(seconds=30),
                                        started_at=end - dt.timedelta(seconds=20), finished_at=end)


class FleetLastCollectedTests:
    def test_it_counts_from_the_last_successful_run_not_a_later_failed_one(self, viewer_client, seed_tiers):
        sales = Target.objects.create(name="sales", mode=Target.Mode.NOPACK, dsn="db1:1521/SALES", username="TS")
        _run(sales, CollectionRun.Status.SUCCEEDED, dt.timedelta(minutes=42, seconds=10))
        _run(sales, CollectionRun.Status.FAILED, dt.timedelta(minutes=5))

        page = viewer_client.get("/").content.decode()

        assert _cell(page, "sales") == "42 min ago"

    def test_a_target_never_collected_says_never(self, viewer_client, seed_tiers):
        legacy = Target.objects.create(name="legacy", mode=Target.Mode.REPORT)
        _run(legacy, CollectionRun.Status.FAILED, dt.timedelta(hours=2))

        page = viewer_client.get("/").content.decode()

        assert _cell(page, "legacy") == "never"
