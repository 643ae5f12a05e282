"""Bearer API tokens on a DRF view: the user and token for a good key, a 401 saying why for any other."""

from __future__ import annotations

import logging
from datetime import timedelta

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from apps.apitokens.models import ApiToken
from apps.apitokens.services import token_revoke
from apps.core.models import AuditLogEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api")]

WHOAMI = "/test-api/whoami/"


def call(key: str, address: str = "192.0.2.10", path: str = WHOAMI):
    return Client(REMOTE_ADDR=address).get(path, HTTP_AUTHORIZATION=f"Bearer {key}")


class AuthenticationTests:
    def test_it_authenticates_a_valid_key_as_its_user_and_token(self, viewer, make_token):
        created = make_token(viewer)

        response = call(created.key)

        assert response.status_code == 200
        assert response.json() == {"user": "vera", "token": created.token.prefix}

    def test_it_refuses_an_expired_key_saying_when_it_expired(self, viewer, make_token):
        created = make_token(viewer, days=1, now=timezone.now() - timedelta(days=2))

        response = call(created.key)

        assert response.status_code == 401
        assert response["WWW-Authenticate"] == 'Bearer realm="api"'
        assert f"API token tsk_{created.token.prefix}_… expired at" in response.json()["detail"]

    def test_it_refuses_a_revoked_key_saying_so(self, viewer, make_token):
        created = make_token(viewer)
        token_revoke(token=created.token, now=timezone.now())

        response = call(created.key)

        assert response.status_code == 401
        assert "was revoked at" in response.json()["detail"]

    def test_it_refuses_a_wrong_secret_and_an_unknown_prefix_alike(self, viewer, make_token):
        created = make_token(viewer)
        wrong_secret = created.key[:-4] + ("AAAA" if not created.key.endswith("AAAA") else "BBBB")
        unknown_prefix = "tsk_00000000_" + created.key.split("_", 2)[2]

        for key in (wrong_secret, unknown_prefix):
            response = call(key)
            assert response.status_code == 401, key
            assert "no such token, or a wrong secret" in response.json()["detail"]

    @pytest.mark.parametrize("header", ["Bearer", "Bearer a b", "Bearer tsk_nonsense", "Bearer tsk_clé"])
    def test_it_refuses_a_malformed_bearer_header_with_401(self, viewer, header):
        response = Client(REMOTE_ADDR="192.0.2.10").get(WHOAMI, HTTP_AUTHORIZATION=header)

        assert response.status_code == 401
        assert response.json()["detail"].startswith("Malformed")

    def test_it_refuses_the_key_of_a_deactivated_user(self, viewer, make_token):
        created = make_token(viewer)
        viewer.is_active = False
        viewer.save()

        response = call(created.key)

        assert response.status_code == 401
        assert "deactivated user" in response.json()["detail"]

    def test_it_leaves_requests_without_a_bearer_header_to_the_other_classes(self, viewer, client):
        assert client.get(WHOAMI).status_code == 401  # no credentials at all
        client.force_login(viewer)
        assert client.get(WHOAMI).json()["user"] == "vera"  # a session still works

    def test_it_logs_and_audits_each_refusal_with_address_and_reason(self, viewer, make_token, caplog):
        created = make_token(viewer)
        token_revoke(token=created.token, now=timezone.now())

        with caplog.at_level(logging.WARNING, logger="apps.apitokens"):
            call(created.key, address="198.51.100.23")

        logged = [r.getMessage() for r in caplog.records if r.name == "apps.apitokens.authentication"]
        assert len(logged) == 1
        assert "198.51.100.23" in logged[0] and "was revoked at" in logged[0] and "failure 1" in logged[0]
        entry = AuditLogEntry.objects.get(additional_data__action="api token refused")
        assert entry.object_pk == str(created.token.pk)
        assert "198.51.100.23" in entry.additional_data["detail"]
        assert entry.additional_data["outcome"].startswith("refused: API token")
        assert created.key not in str(entry.additional_data)


class LastUsedTests:
    def test_it_records_the_last_use_at_most_once_a_minute(self, viewer, make_token):
        start = timezone.now()
        created = make_token(viewer, now=start - timedelta(hours=1))

        with time_machine.travel(start, tick=False):
            call(created.key, address="192.0.2.10")
        with time_machine.travel(start + timedelta(seconds=59), tick=False):
            call(created.key, address="192.0.2.11")
        token = ApiToken.objects.get(pk=created.token.pk)
        # The second use, within the minute, wrote nothing.
        assert (token.last_used_at, token.last_used_address) == (start, "192.0.2.10")

        with time_machine.travel(start + timedelta(seconds=61), tick=False):
            call(created.key, address="192.0.2.11")
        token.refresh_from_db()
        assert (token.last_used_at, token.last_used_address) == (start + timedelta(seconds=61), "192.0.2.11")

    def test_a_use_within_the_minute_makes_no_write(self, viewer, make_token, django_assert_num_queries):
        created = make_token(viewer)
        call(created.key)  # the first use writes

        # The token read (with its user) and nothing else: no UPDATE.
        from apps.apitokens.services import token_authenticate

        with django_assert_num_queries(1):
            token_authenticate(key=created.key, address="192.0.2.10", now=timezone.now())
