"""Move plans through the API: made, approved by another admin and marked executed with the plan pages'
services (audited), listed and read by viewers, and their script exported as text."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from apps.core.models import AuditLogEntry
from apps.tiering.models import Recommendation
from apps.tiering.plans.models import Plan
from apps.tiering.plans.selectors import plan_export

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


@pytest.fixture
def other_admin_api(django_user_model):
    client = APIClient()
    client.force_login(django_user_model.objects.create_superuser(username="bob", email="", password="bob-pass-1"))
    return client


def test_an_admin_makes_a_plan_of_chosen_segments_and_it_is_audited(admin_api, collected):
    moves = list(Recommendation.objects.current(target_id=collected.id).filter(action="move")
                 .order_by("-savings_usd", "segment_id").values_list("segment_id", flat=True)[:3])

    response = admin_api.post("/api/v1/plans/", {"target": "demo", "mode": "selected", "segments": moves,
                                                 "note": "CHG-1"}, format="json")

    assert response.status_code == 201, response.json()
    plan = Plan.objects.get(pk=response.json()["id"])
    assert set(plan.steps.filter(kind="move").values_list("segment_id", flat=True)) == set(moves)
    assert (response.json()["state"], response.json()["note"], response.json()["created_by_name"]) == \
        ("draft", "CHG-1", "ada")
    created = AuditLogEntry.objects.get(content_type__model="plan", object_pk=str(plan.pk),
                                        action=AuditLogEntry.Action.CREATE)
    assert created.actor_name == "ada" or created.actor.username == "ada"


def test_approve_by_another_admin_then_executed(admin_api, other_admin_api, collected):
    plan_id = admin_api.post("/api/v1/plans/", {"target": "demo", "mode": "worth"}, format="json").json()["id"]

    own = admin_api.post(f"/api/v1/plans/{plan_id}/state/", {"to": "approved"}, format="json")
    approved = other_admin_api.post(f"/api/v1/plans/{plan_id}/state/", {"to": "approved"}, format="json")
    executed = admin_api.post(f"/api/v1/plans/{plan_id}/state/", {"to": "executed"}, format="json")

    assert own.status_code == 409 and "another admin approves it" in own.json()["detail"]
    assert (approved.status_code, approved.json()["approved_by_name"]) == (200, "bob")
    assert (executed.status_code, executed.json()["state"]) == (200, "executed")
    changes = AuditLogEntry.objects.filter(content_type__model="plan", object_pk=str(plan_id),
                                           action=AuditLogEntry.Action.UPDATE)
    assert changes.count() == 2


def test_a_plan_its_steps_and_its_script_are_read_by_viewers(admin_api, viewer_api, collected):
    plan_id = admin_api.post("/api/v1/plans/", {"target": "demo", "mode": "worth"}, format="json").json()["id"]
    plan = Plan.objects.get(pk=plan_id)

    listed = viewer_api.get("/api/v1/plans/?target=demo&state=draft").json()
    steps = viewer_api.get(f"/api/v1/plans/{plan_id}/steps/?limit=1000").json()
    script = viewer_api.get(f"/api/v1/plans/{plan_id}/script/")

    assert [p["id"] for p in listed["results"]] == [plan_id]
    assert [s["position"] for s in steps["results"]] == sorted(s["position"] for s in steps["results"])
    assert steps["count"] == plan.steps_count
    assert script["Content-Type"] == "application/sql; charset=utf-8"
    assert script.content.decode() == plan_export(plan=plan, fmt="sql")
    assert "NOT APPROVED" in script.content.decode()


def test_a_viewer_makes_no_plan_and_moves_no_state(viewer_api, admin_api, collected):
    plan_id = admin_api.post("/api/v1/plans/", {"target": "demo", "mode": "worth"}, format="json").json()["id"]

    assert viewer_api.post("/api/v1/plans/", {"target": "demo", "mode": "worth"}, format="json").status_code == 403
    assert viewer_api.post(f"/api/v1/plans/{plan_id}/state/", {"to": "approved"}, format="json").status_code == 403
    assert list(Plan.objects.values_list("state", flat=True)) == ["draft"]


@pytest.mark.parametrize(("body", "named"), [
    ({"target": "demo", "mode": "selected"}, "segments"),
    ({"target": "demo", "mode": "budget", "budget_gb": 10}, "budget_gb"),
    ({"target": "demo", "mode": "budget", "budget_gb": 10, "budget_tier": "gold"}, "budget_tier"),
    ({"target": "nope", "mode": "worth"}, "target"),
    ({"target": "demo", "mode": "selected", "segments": [2**62]}, "segments"),
    ({"target": "demo", "mode": "everything"}, "mode"),
])
def test_a_plan_that_cannot_be_made_is_a_400_naming_the_field(admin_api, collected, body, named):
    response = admin_api.post("/api/v1/plans/", body, format="json")

    assert response.status_code == 400
    assert named in response.json()["errors"]
    assert not Plan.objects.exists()


def test_an_unknown_state_is_a_400_and_an_unknown_plan_a_404(admin_api, db):
    assert admin_api.post("/api/v1/plans/1/state/", {"to": "approved"}, format="json").status_code == 404
    assert admin_api.get("/api/v1/plans/1/script/").status_code == 404
