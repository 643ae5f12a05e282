"""A token request has its user's role, as a page request does; its writes are audited as that user's."""

from __future__ import annotations

import pytest
from django.test import Client

from apps.core.models import AuditLogEntry

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api")]

RENAME = "/test-api/rename-me/"


def post(key: str, first_name: str):
    return Client(REMOTE_ADDR="192.0.2.20").post(RENAME, {"first_name": first_name},
                                                 HTTP_AUTHORIZATION=f"Bearer {key}", content_type="application/json")


class RoleTests:
    def test_a_viewer_token_cannot_do_an_admin_only_thing(self, viewer, make_token):
        response = post(make_token(viewer).key, "Vera")

        assert response.status_code == 403
        viewer.refresh_from_db()
        assert viewer.first_name == ""

    def test_an_admin_token_can_and_the_change_is_audited_as_the_admin(self, admin_user, make_token):
        response = post(make_token(admin_user).key, "Ada")

        assert response.status_code == 200
        admin_user.refresh_from_db()
        assert admin_user.first_name == "Ada"
        change = AuditLogEntry.objects.filter(content_type__model="user", object_pk=str(admin_user.pk),
                                              action=AuditLogEntry.Action.UPDATE).get()
        assert change.actor == admin_user
        assert change.actor_name == "ada"

    def test_a_token_post_needs_no_csrf_token(self, admin_user, make_token):
        # A key in a header is not sent by a browser on its own, so there is nothing to forge (DRF exempts it).
        client = Client(enforce_csrf_checks=True, REMOTE_ADDR="192.0.2.20")
        response = client.post(RENAME, {"first_name": "Ada"}, content_type="application/json",
                               HTTP_AUTHORIZATION=f"Bearer {make_token(admin_user).key}")
        assert response.status_code == 200


class BodyLimitTests:
    """The body guard runs before DRF: it takes a valid key's user as the request's, for the size a role may send."""

    def body(self, size: int) -> str:
        return '{"first_name": "Ada", "pad": "' + "x" * size + '"}'

    def test_an_admin_token_may_send_a_body_larger_than_an_anonymous_one(self, admin_user, make_token, settings):
        response = Client(REMOTE_ADDR="192.0.2.20").post(
            RENAME, self.body(64 * 1024), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {make_token(admin_user).key}")

        assert response.status_code == 200, response.content

    def test_a_viewer_token_gets_the_viewers_refusal_past_the_form_limit(self, viewer, make_token):
        from apps.core.config import get_config

        response = Client(REMOTE_ADDR="192.0.2.20").post(
            RENAME, self.body(get_config()["FORM_MAX_BODY_BYTES"] + 1), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {make_token(viewer).key}")

        assert response.status_code == 403
        assert b"Only admins upload files" in response.content

    def test_a_bad_key_is_anonymous_to_the_guard(self, admin_user, make_token):
        key = make_token(admin_user).key
        response = Client(REMOTE_ADDR="192.0.2.20").post(
            RENAME, self.body(64 * 1024), content_type="application/json",
            HTTP_AUTHORIZATION=f"Bearer {key[:-2]}zz")

        assert response.status_code == 413
