"""The API tokens page: a user's own tokens, a new key shown once, revoke by POST; each audited."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from apps.apitokens.models import ApiToken
from apps.apitokens.services import token_revoke
from apps.core.models import AuditLogEntry

pytestmark = pytest.mark.django_db

KEY = re.compile(r"tsk_[0-9a-f]{8}_[A-Za-z0-9_-]{43}")


class TokenPageTests:
    def test_the_navbar_links_to_it_for_every_role(self, viewer_client):
        page = viewer_client.get("/").content.decode()
        assert 'href="/accounts/api-tokens/"' in page

    def test_it_lists_only_the_users_own_tokens_with_their_state(self, viewer_client, viewer, admin_user,
                                                                  make_token):
        make_token(viewer, name="nightly report")
        revoked = make_token(viewer, name="old job").token
        token_revoke(token=revoked, now=timezone.now())
        make_token(admin_user, name="admin's")

        page = viewer_client.get("/accounts/api-tokens/").content.decode()

        assert "nightly report" in page and "old job" in page and "admin&#x27;s" not in page
        assert ">active<" in page and ">revoked " in page

    def test_creating_shows_the_key_once_and_the_list_never_again(self, viewer_client, viewer):
        response = viewer_client.post("/accounts/api-tokens/new/", {"name": "ci", "expires_days": 30})

        assert response.status_code == 200
        assert "no-store" in response["Cache-Control"]
        keys = set(KEY.findall(response.content.decode()))
        assert len(keys) == 1
        key = keys.pop()
        token = ApiToken.objects.get(user=viewer, name="ci")
        assert key.startswith(f"tsk_{token.prefix}_")
        assert (token.expires_at - token.created_at).days == 30
        assert f'curl -H "Authorization: Bearer {key}" http://testserver/api/v1/targets/' in response.content.decode()
        listing = viewer_client.get("/accounts/api-tokens/").content.decode()
        assert f"tsk_{token.prefix}_" in listing
        assert not KEY.search(listing)

    @pytest.mark.parametrize(("data", "message"), [
        ({"name": "ci", "expires_days": 400}, "Expiry must be 1 to 365 days, not 400."),
        ({"name": "", "expires_days": 30}, "This field is required."),
    ])
    def test_it_refuses_bad_input_naming_the_field_and_makes_nothing(self, viewer_client, data, message):
        response = viewer_client.post("/accounts/api-tokens/new/", data)

        assert response.status_code == 400
        assert message in response.content.decode()
        assert not ApiToken.objects.exists()

    def test_it_refuses_a_name_in_use(self, viewer_client, viewer, make_token):
        make_token(viewer, name="ci")

        response = viewer_client.post("/accounts/api-tokens/new/", {"name": "ci", "expires_days": 30})

        assert response.status_code == 400
        assert "vera already has a token named &#x27;ci&#x27;" in response.content.decode()
        assert ApiToken.objects.count() == 1

    def test_it_revokes_the_users_own_token_by_post(self, viewer_client, viewer, make_token):
        token = make_token(viewer).token

        assert viewer_client.get(f"/accounts/api-tokens/{token.pk}/revoke/").status_code == 405
        response = viewer_client.post(f"/accounts/api-tokens/{token.pk}/revoke/", follow=True)

        token.refresh_from_db()
        assert token.revoked_at is not None
        assert "Revoked API token &#x27;ci&#x27;" in response.content.decode()

    def test_it_does_not_find_another_users_token(self, viewer_client, admin_user, make_token):
        token = make_token(admin_user).token

        assert viewer_client.post(f"/accounts/api-tokens/{token.pk}/revoke/").status_code == 404
        token.refresh_from_db()
        assert token.revoked_at is None

    def test_creating_and_revoking_are_audited_as_the_user_without_the_hash(self, viewer_client, viewer):
        page = viewer_client.post("/accounts/api-tokens/new/", {"name": "ci", "expires_days": 30}).content.decode()
        key = KEY.search(page)[0]
        token = ApiToken.objects.get(name="ci")
        viewer_client.post(f"/accounts/api-tokens/{token.pk}/revoke/")

        entries = AuditLogEntry.objects.filter(content_type__model="apitoken", object_pk=str(token.pk))
        created = entries.get(action=AuditLogEntry.Action.CREATE)
        revoked = entries.get(action=AuditLogEntry.Action.UPDATE)
        assert (created.actor, revoked.actor) == (viewer, viewer)
        assert created.changes_dict["name"] == ["None", "ci"]
        assert list(revoked.changes_dict) == ["revoked_at"]
        for entry in (created, revoked):
            assert "key_hash" not in entry.changes_dict
            assert token.key_hash not in str(entry.changes) and key.split("_", 2)[2] not in str(entry.changes)
