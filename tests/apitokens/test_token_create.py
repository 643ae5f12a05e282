"""Making and revoking tokens: the key once, only its hash kept, names and expiry bounded."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.utils import timezone

from apps.apitokens.models import ApiToken
from apps.apitokens.services import token_create, token_revoke

pytestmark = pytest.mark.django_db


def every_stored_text() -> str:
    """Every column of every token row and of the audit log, as the database holds them."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT row_to_json(t)::text FROM apitokens_apitoken t")
        tokens = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT row_to_json(a)::text FROM core_auditlogentry a")
        audit = [row[0] for row in cursor.fetchall()]
    return json.dumps(tokens + audit)


class TokenCreateTests:
    def test_it_keeps_no_key_or_secret_in_clear_in_the_database(self, viewer, make_token):
        created = make_token(viewer)
        secret = created.key.split("_", 2)[2]

        stored = every_stored_text()
        assert created.token.prefix in stored  # the row is there, found by its public prefix
        assert created.key not in stored
        assert secret not in stored

    def test_it_expires_after_the_default_days_unless_told(self, viewer, make_token, settings):
        now = timezone.now()
        default = make_token(viewer, name="default", now=now).token
        short = make_token(viewer, name="short", days=7, now=now).token

        assert default.expires_at == now + timedelta(days=settings.TIERSCOPE_API_TOKEN_DAYS)
        assert short.expires_at == now + timedelta(days=7)

    @pytest.mark.parametrize("days", [0, -1, 366])
    def test_it_refuses_an_expiry_outside_one_to_the_maximum(self, viewer, make_token, days):
        with pytest.raises(ValidationError, match="1 to 365 days"):
            make_token(viewer, days=days)
        assert not ApiToken.objects.exists()

    def test_it_refuses_a_name_the_user_already_has_and_frees_it_on_revoke(self, viewer, admin_user, make_token):
        first = make_token(viewer, name="ci").token
        with pytest.raises(ValidationError, match="vera already has a token named 'ci'"):
            make_token(viewer, name="ci")
        make_token(admin_user, name="ci")  # names are per user

        token_revoke(token=first, now=timezone.now())
        second = make_token(viewer, name="ci").token
        assert second.pk != first.pk
        assert ApiToken.objects.filter(user=viewer, name="ci").count() == 2

    @pytest.mark.parametrize(("name", "message"), [("  ", "needs a name"), ("x" * 65, "at most 64")])
    def test_it_refuses_an_empty_or_long_name(self, viewer, name, message):
        with pytest.raises(ValidationError, match=message):
            token_create(user=viewer, name=name, expires_days=None, now=timezone.now())

    def test_it_revokes_once(self, viewer, make_token):
        token = make_token(viewer).token
        at = timezone.now()

        assert token_revoke(token=token, now=at) is True
        assert token_revoke(token=token, now=at + timedelta(hours=1)) is False
        token.refresh_from_db()
        assert token.revoked_at == at
