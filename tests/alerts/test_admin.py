"""Rules are made in the admin; a message's secret parts never show there."""

from __future__ import annotations

import pytest

from apps.alerts.models import AlertMessage, AlertRule

pytestmark = pytest.mark.django_db


def test_an_admin_makes_a_global_rule_with_a_threshold_in_dollars(admin_client):
    response = admin_client.post("/admin/alerts/alertrule/add/", {
        "name": "finops", "target": "", "enabled": "on", "failures_in_a_row": "3", "missed_intervals": "",
        "heartbeats": "on", "new_moves_usd_per_month": "250.50", "plan_changes": "on",
        "email_to": "a@example.com, b@example.com", "webhooks": "https://hooks.example.com/x\nslack://T/B/C",
    })

    assert response.status_code == 302, response.content.decode()[:2000]
    rule = AlertRule.objects.get(name="finops")
    assert str(rule.new_moves_usd_per_month) == "250.50" and rule.missed_intervals is None
    assert rule.destinations == ["email:a@example.com,b@example.com", "https://hooks.example.com/x", "slack://T/B/C"]


def test_the_message_list_hides_webhook_tokens(admin_client):
    from django.utils import timezone

    AlertMessage.objects.create(destination="slack://TOKENA/TOKENB/TOKENC", subject="s", body="b",
                                created_at=timezone.now())

    page = admin_client.get("/admin/alerts/alertmessage/").content.decode()

    assert "slack://…" in page
    assert "TOKENA" not in page and "TOKENB" not in page and "TOKENC" not in page
