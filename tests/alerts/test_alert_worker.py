"""On a real worker and broker: a receiver that fails twice gets the message at the third try, after backoffs."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.alerts.models import AlertMessage, AlertRule
from apps.core.config import get_config
from tests.waiting import wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_retries(monkeypatch):
    """The worker's retries one second apart, doubling (read from its environment at start)."""
    monkeypatch.setenv("TIERSCOPE_ALERT_SEND_BACKOFF_S", "1")
    monkeypatch.setenv("TIERSCOPE_ALERT_SEND_MAX_RETRIES", "3")
    get_config.cache_clear()
    yield
    get_config.cache_clear()


def test_a_failing_receiver_gets_the_message_once_it_answers(quick_retries, celery_worker, httpserver):
    from apps.alerts.tasks import alert_send

    for _ in range(2):
        httpserver.expect_ordered_request("/hook", method="POST").respond_with_data("busy", status=503)
    httpserver.expect_ordered_request("/hook", method="POST").respond_with_data("ok")
    rule = AlertRule.objects.create(name="hook", webhooks=httpserver.url_for("/hook"))
    message = AlertMessage.objects.create(rule=rule, destination=httpserver.url_for("/hook"), subject="s",
                                          body="b", payload={"title": "s"}, created_at=timezone.now())

    alert_send.delay(message.pk)

    wait_for(lambda: AlertMessage.objects.get(pk=message.pk).status == "sent", timeout_s=60,
             what="the message to be delivered at its third try")
    message.refresh_from_db()
    assert message.attempts == 3 and message.last_error == ""
    assert len(httpserver.log) == 3
    httpserver.check_assertions()
