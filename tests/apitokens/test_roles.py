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
