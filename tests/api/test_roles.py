"""Who may call what: anonymous clients nothing, viewers read, admins write and read the audit log; every refusal
is JSON naming the reason, never the login page."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

READS = ["/api/v1/targets/", "/api/v1/runs/", "/api/v1/tier-sets/", "/api/v1/plans/",
         "/api/v1/targets/big/recommendations/", "/api/v1/targets/big/segments/"]


@pytest.mark.parametrize("url", READS + ["/api/v1/audit/"])
def test_anonymous_is_refused_as_json_not_sent_to_the_login_page(anon_api, big, url):
    response = anon_api.get(url)

    assert response.status_code in (401, 403)
    assert response["Content-Type"].startswith("application/json")
    assert "credentials" in response.json()["detail"]


def test_anonymous_write_is_refused_before_anything_is_queued(anon_api, big):
    response = anon_api.post("/api/v1/targets/big/collect/")

    assert response.status_code in (401, 403)
    assert not big.runs.filter(trigger="manual").exists()


def test_the_schema_is_for_signed_in_clients(anon_api, viewer_api):
    assert anon_api.get("/api/schema/").status_code in (401, 403)
    assert viewer_api.get("/api/schema/?format=json").json()["info"]["title"] == "tierscope API"


@pytest.mark.parametrize("url", READS)
def test_a_viewer_reads_every_list(viewer_api, big, url):
    assert viewer_api.get(url).status_code == 200


def test_a_viewer_cannot_write(viewer_api, big):
    response = viewer_api.post("/api/v1/targets/big/collect/")

    assert response.status_code == 403
    assert "admin role" in response.json()["detail"]
    assert not big.runs.filter(trigger="manual").exists()


def test_the_audit_log_is_for_admins_only(viewer_api, admin_api, big):
    assert viewer_api.get("/api/v1/audit/").status_code == 403
    assert admin_api.get("/api/v1/audit/").status_code == 200


def test_a_session_write_without_the_csrf_token_is_refused(csrf_admin_api, big):
    response = csrf_admin_api.post("/api/v1/targets/big/collect/")

    assert response.status_code == 403
    assert "CSRF" in response.json()["detail"]
    assert not big.runs.filter(trigger="manual").exists()
