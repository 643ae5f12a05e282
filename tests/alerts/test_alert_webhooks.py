"""Webhooks: a generic receiver gets the JSON; a dead one leaves a logged error, retries, and the message kept."""

from __future__ import annotations

import json
import logging

import pytest

from apps.alerts.models import AlertMessage, AlertRule
from apps.core.config import get_config
from tests.alerts.conftest import free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def hook_rule(target):
    def make(url: str) -> AlertRule:
        return AlertRule.objects.create(name="hook", failures_in_a_row=1, missed_intervals=None, heartbeats=False,
                                        webhooks=url)
    return make


def test_a_webhook_receives_the_alert_as_json(httpserver, target, hook_rule, end_run):
    httpserver.expect_oneshot_request("/hooks/dba", method="POST").respond_with_data("ok")
    hook_rule(httpserver.url_for("/hooks/dba"))

    end_run(target, "failed")

    httpserver.check_assertions()
    (request, _), = httpserver.log
    assert request.headers["Content-Type"] == "application/json"
    payload = json.loads(request.get_data())
    assert payload["source"] == "tierscope" and payload["rule"] == "hook"
    assert payload["events"] == [{"kind": "failing", "target": "prod", "title": "prod: collection failing",
                                  "detail": payload["events"][0]["detail"], "state": "firing"}]
    assert "1 collection(s) failed in a row" in payload["events"][0]["detail"]


def test_a_dead_receiver_is_retried_logged_and_kept(target, hook_rule, end_run, caplog, eager_retries):
    url = f"http://127.0.0.1:{free_port()}/hook"  # nothing listens there
    hook_rule(url)

    with caplog.at_level(logging.ERROR, logger="apps.alerts.services"):
        end_run(target, "failed")

    message = AlertMessage.objects.get()
    # Every retry was made (eager tasks retry at once), then the message is kept as failed with its error.
    assert message.attempts == get_config()["ALERT_SEND_MAX_RETRIES"] + 1
    assert message.status == "failed"
    assert "webhook http://127.0.0.1" in message.last_error and "not reached" in message.last_error
    errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == message.attempts
    assert "retrying" in errors[0] and "given up" in errors[-1]


def test_a_message_that_failed_is_delivered_once_sent_again(httpserver, target, hook_rule, end_run,
                                                            eager_retries):
    from apps.alerts.tasks import alert_send

    dead = f"http://127.0.0.1:{free_port()}/hook"
    rule = hook_rule(dead)
    end_run(target, "failed")
    message = AlertMessage.objects.get()
    assert message.status == "failed"

    # The receiver is back (here: moved), and the admin's "Send again" queues it.
    httpserver.expect_oneshot_request("/hook", method="POST").respond_with_data("ok")
    AlertMessage.objects.filter(pk=message.pk).update(destination=httpserver.url_for("/hook"), status="pending",
                                                      attempts=0)
    alert_send.delay(message.pk)
    alert_send.delay(message.pk)  # a second delivery of the task sends nothing more

    httpserver.check_assertions()
    message.refresh_from_db()
    assert message.status == "sent" and len(httpserver.log) == 1
    assert rule.messages.count() == 1


def test_an_apprise_url_it_does_not_know_fails_at_once_with_a_message(target, hook_rule, end_run, caplog):
    hook_rule("nosuchservice://token@nowhere")

    with caplog.at_level(logging.DEBUG):
        end_run(target, "failed")

    message = AlertMessage.objects.get()
    assert message.status == "failed" and message.attempts == 1
    assert "not a URL apprise knows" in message.last_error
    # The secret part of the URL is never shown, on the row or in the log (apprise's own lines included).
    assert "token" not in message.last_error
    assert [r for r in caplog.records if r.name.startswith("apprise")]
    assert not [r.getMessage() for r in caplog.records if "token" in r.getMessage()]
