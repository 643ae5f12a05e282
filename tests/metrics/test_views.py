"""Who may scrape /metrics: a bearer token or an allowed address; off when neither is set; a statement timeout."""

from __future__ import annotations

import psycopg
import pytest
from django.db import connection

from apps.targets.models import Target
from tests.metrics.conftest import TOKEN, scrape

pytestmark = pytest.mark.django_db


def test_it_is_off_with_a_message_when_neither_token_nor_addresses_are_set(client, settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = "", []

    response = scrape(client)

    assert response.status_code == 404
    assert b"TIERSCOPE_METRICS_TOKEN" in response.content and b"TIERSCOPE_METRICS_ALLOW" in response.content


def test_it_answers_the_right_bearer_token(client, metrics_token):
    assert scrape(client).status_code == 200


def test_it_refuses_a_wrong_or_missing_token(client, metrics_token):
    wrong, missing = scrape(client, token="guess"), client.get("/metrics")

    assert wrong.status_code == 401 and b"wrong" in wrong.content
    assert missing.status_code == 401 and missing["WWW-Authenticate"].startswith("Bearer")


def test_it_answers_an_allowed_address_without_a_token(client, settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = "", ["10.0.0.0/8", "127.0.0.1/32"]

    assert client.get("/metrics", REMOTE_ADDR="10.1.2.3").status_code == 200


def test_it_refuses_an_address_outside_the_allow_list(client, settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = "", ["10.0.0.0/8"]

    response = client.get("/metrics", REMOTE_ADDR="192.168.1.9")

    assert response.status_code == 403 and b"192.168.1.9 is not in TIERSCOPE_METRICS_ALLOW" in response.content


def test_a_token_also_opens_it_to_an_address_not_allowed(client, settings):
    settings.TIERSCOPE_METRICS_TOKEN, settings.TIERSCOPE_METRICS_ALLOW = TOKEN, ["10.0.0.0/8"]

    assert client.get("/metrics", REMOTE_ADDR="192.168.1.9", HTTP_AUTHORIZATION=f"Bearer {TOKEN}").status_code == 200
    assert client.get("/metrics", REMOTE_ADDR="192.168.1.9").status_code == 401


def test_it_needs_no_login_and_sets_no_session(client, metrics_token):
    response = scrape(client)

    assert response.status_code == 200 and "sessionid" not in response.cookies


def test_a_scrape_stops_at_the_statement_timeout(client, metrics_token, settings, seed_tiers):
    # Another session holds a lock the collector's reads wait on: the scrape gives up with a 503 and a message.
    settings.TIERSCOPE_METRICS_STATEMENT_TIMEOUT_MS = 300
    params = connection.get_connection_params()
    dsn = {key: params[key] for key in ("host", "port", "user", "password", "dbname") if params.get(key)}
    with psycopg.connect(**dsn, autocommit=False) as other:
        other.execute(f"LOCK TABLE {Target._meta.db_table} IN ACCESS EXCLUSIVE MODE")
        response = scrape(client)
        other.rollback()

    assert response.status_code == 503
    assert b"PostgreSQL did not answer in time" in response.content


def test_the_system_check_names_a_bad_allow_entry(settings):
    from apps.metrics.apps import check_metrics_allow

    settings.TIERSCOPE_METRICS_ALLOW = ["10.0.0.0/8", "not-a-network"]

    errors = check_metrics_allow()

    assert [error.id for error in errors] == ["metrics.E001"] and "not-a-network" in errors[0].msg
