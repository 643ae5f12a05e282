"""Admins see every user's tokens in the Django admin, read-only, and revoke them there; no key is made there."""

from __future__ import annotations

import pytest

from apps.apitokens.models import ApiToken

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/apitokens/apitoken/"


class ApiTokenAdminTests:
    def test_it_lists_every_users_tokens(self, admin_client, viewer, admin_user, make_token):
        make_token(viewer, name="veras-job")
        make_token(admin_user, name="adas-job")

        page = admin_client.get(CHANGELIST).content.decode()

        assert "veras-job" in page and "adas-job" in page

    def test_it_shows_a_token_read_only_and_has_no_add_form(self, admin_client, viewer, make_token):
        token = make_token(viewer).token

        page = admin_client.get(f"{CHANGELIST}{token.pk}/change/").content.decode()

        assert token.key_hash in page  # shown, as text
        assert 'name="key_hash"' not in page and 'name="name"' not in page  # never an input
        assert admin_client.get(f"{CHANGELIST}add/").status_code == 403

    def test_an_admin_revokes_another_users_token_with_the_action(self, admin_client, viewer, make_token):
        token = make_token(viewer).token

        response = admin_client.post(CHANGELIST, {"action": "revoke", "_selected_action": [token.pk]}, follow=True)

        token.refresh_from_db()
        assert token.revoked_at is not None
        assert "Revoked 1 token(s): ci." in response.content.decode()

    def test_viewers_do_not_get_in(self, viewer_client, viewer, make_token):
        make_token(viewer)
        response = viewer_client.get(CHANGELIST)
        assert response.status_code == 302 and response["Location"].startswith("/admin/login/")
        assert ApiToken.objects.get().revoked_at is None
