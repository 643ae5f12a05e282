"""Recompute with the task broker down: said on the page, and the refresh it could not send marked failed (its own
module: it commits, where tests/dashboard/recommendations/test_recompute.py shares one import across its tests)."""

from __future__ import annotations

import pytest
from kombu.exceptions import OperationalError

from apps.core.models import AuditLogEntry
from apps.tiering import tasks
from apps.tiering.models import Refresh
from tests.dashboard.report_target import report_imported


@pytest.mark.django_db(transaction=True)
def test_with_the_broker_down_it_says_so_and_the_refresh_is_failed(admin_client, seed_tiers, monkeypatch,
                                                                  django_capture_on_commit_callbacks):
    # transaction=True: the refresh is sent when the view's transaction commits, as in production.
    ppd = report_imported(django_capture_on_commit_callbacks)

    def refused(*args, **kwargs):
        raise OperationalError("Connection refused")

    monkeypatch.setattr(tasks.refresh_run, "apply_async", refused)
    response = admin_client.post("/targets/ppd/recompute/", follow=True)

    page = response.content.decode()
    assert "Recompute of ppd not queued: Not queued: the task broker did not answer" in page
    assert 'data-status="failed"' in page
    refresh = Refresh.objects.filter(target=ppd).order_by("-queued_at", "-id").first()
    assert refresh.status == Refresh.Status.FAILED and "broker" in refresh.error
    assert AuditLogEntry.objects.get(additional_data__action="recompute").additional_data["outcome"].startswith(
        "not queued")
