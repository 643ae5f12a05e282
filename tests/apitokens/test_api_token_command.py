"""`manage.py api_token`: the key printed once on standard output, revoke and list by name, clear refusals."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client

from apps.apitokens.models import ApiToken
from apps.core.models import AuditLogEntry

pytestmark = pytest.mark.django_db

KEY = re.compile(r"tsk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("api_token", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


class ApiTokenCommandTests:
    def test_it_prints_only_the_key_on_standard_output(self, viewer):
        out, err = run("vera", "--name", "nightly report", "--expires-days", "30")

        assert KEY.fullmatch(out.strip())
        token = ApiToken.objects.get(user=viewer, name="nightly report")
        assert out.strip().startswith(f"tsk_{token.prefix}_")
        assert (token.expires_at - token.created_at).days == 30
        assert "made API token 'nightly report' of vera" in err and "shown only now" in err

    @pytest.mark.usefixtures("api")
    def test_its_key_authenticates_as_the_user(self, viewer):
        key, _ = run("vera", "--name", "ci")
        response = Client().get("/test-api/whoami/", HTTP_AUTHORIZATION=f"Bearer {key.strip()}")
        assert response.json()["user"] == "vera"

    def test_it_refuses_an_unknown_user(self, db):
        with pytest.raises(CommandError, match="No user named 'nobody'."):
            run("nobody", "--name", "ci")
        assert not ApiToken.objects.exists()

    def test_it_refuses_a_duplicate_name(self, viewer):
        run("vera", "--name", "ci")
        with pytest.raises(CommandError, match="vera already has a token named 'ci'; revoke it first"):
            run("vera", "--name", "ci")
        assert ApiToken.objects.count() == 1

    def test_it_refuses_an_expiry_past_the_maximum(self, viewer):
        with pytest.raises(CommandError, match="Expiry must be 1 to 365 days, not 366."):
            run("vera", "--name", "ci", "--expires-days", "366")

    def test_it_refuses_expires_days_without_name(self, viewer):
        with pytest.raises(CommandError, match="--expires-days goes with --name"):
            run("vera", "--list", "--expires-days", "3")

    def test_it_revokes_by_name(self, viewer):
        run("vera", "--name", "ci")

        out, _ = run("vera", "--revoke", "ci")

        token = ApiToken.objects.get(name="ci")
        assert token.revoked_at is not None
        assert out.strip() == f"revoked API token 'ci' (tsk_{token.prefix}_…) of vera"
        with pytest.raises(CommandError, match="vera has no unrevoked API token named 'ci'"):
            run("vera", "--revoke", "ci")

    def test_it_lists_the_users_tokens_with_their_state(self, viewer, admin_user):
        run("vera", "--name", "ci")
        run("vera", "--name", "old")
        run("vera", "--revoke", "old")
        run("ada", "--name", "admins-own")

        out, _ = run("vera", "--list")

        lines = out.splitlines()
        assert lines[0].split() == ["name", "key", "created", "(UTC)", "expires", "(UTC)", "last", "used", "state"]
        rows = {line.split()[0]: line for line in lines[2:]}
        assert set(rows) == {"ci", "old"}
        assert rows["ci"].endswith("active") and "never" in rows["ci"]
        assert rows["old"].endswith("revoked")
        assert not KEY.search(out)

    def test_it_says_when_the_user_has_none(self, viewer):
        out, _ = run("vera", "--list")
        assert out.strip() == "vera has no API token."

    def test_its_changes_are_audited_as_the_command(self, viewer):
        run("vera", "--name", "ci")
        run("vera", "--revoke", "ci")

        entries = AuditLogEntry.objects.filter(content_type__model="apitoken").order_by("pk")
        assert [e.action for e in entries] == [AuditLogEntry.Action.CREATE, AuditLogEntry.Action.UPDATE]
        assert all(e.actor_name.startswith("manage.py api_token (os user ") for e in entries)

    def test_the_expiry_default_comes_from_the_settings(self, viewer, settings):
        settings.TIERSCOPE_API_TOKEN_DAYS = 7
        run("vera", "--name", "ci")
        token = ApiToken.objects.get(name="ci")
        assert token.expires_at - token.created_at == timedelta(days=7)
