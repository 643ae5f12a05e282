"""A failing target: one mail after N failures in a row, none while it stays failed, one when it recovers."""

from __future__ import annotations

import pytest

from apps.alerts.models import AlertMessage

pytestmark = pytest.mark.django_db


def test_it_mails_once_after_n_failures_and_once_on_recovery(smtp, target, rule, end_run):
    for _ in range(2):
        end_run(target, "failed")
    # Two failures: under the rule's three.
    assert smtp.messages == []

    end_run(target, "failed")
    # The third: one mail, to the rule's address, naming the target.
    assert len(smtp.messages) == 1
    mail = smtp.messages[0]
    assert mail["To"] == "dba@example.com" and "prod: collection failing" in mail["Subject"]
    assert "3 collection(s) failed in a row" in mail.get_payload()

    for _ in range(3):
        end_run(target, "failed")
    # Still failing: nothing more.
    assert len(smtp.messages) == 1

    end_run(target, "succeeded")
    # Collected again: one recovery mail.
    assert len(smtp.messages) == 2
    assert smtp.messages[1]["Subject"].startswith("[tierscope] RESOLVED prod: collection failing")
    assert list(AlertMessage.objects.values_list("status", flat=True)) == ["sent", "sent"]


def test_a_targets_own_rule_replaces_the_global_one(smtp, target, rule, end_run):
    from apps.alerts.models import AlertRule

    AlertRule.objects.create(name="prod owners", target=target, failures_in_a_row=1, missed_intervals=None,
                             heartbeats=False, email_to="owner@example.com")

    end_run(target, "failed")

    assert [mail["To"] for mail in smtp.messages] == ["owner@example.com"]


def test_a_run_failed_by_the_reaper_counts_as_a_failure(smtp, target, django_capture_on_commit_callbacks):
    import datetime as dt

    from django.utils import timezone

    from apps.alerts.models import AlertRule
    from apps.snapshots.models import CollectionRun
    from apps.snapshots.runs import runs_reap

    AlertRule.objects.create(name="one is enough", target=target, failures_in_a_row=1, missed_intervals=None,
                             heartbeats=False, email_to="dba@example.com")
    now = timezone.now()
    CollectionRun.objects.create(target=target, status="queued", queued_at=now - dt.timedelta(hours=2))

    with django_capture_on_commit_callbacks(execute=True):
        assert len(runs_reap(now=now)) == 1

    assert [mail["Subject"] for mail in smtp.messages] == ["[tierscope] prod: collection failing"]
