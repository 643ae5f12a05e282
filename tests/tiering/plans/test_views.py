"""Plan pages: viewers read and export, admins make plans and move their states (CSRF), an author never approves."""

from __future__ import annotations

import csv
import io

import pytest
from django.test import Client

from apps.tiering.models import Recommendation
from apps.tiering.plans.models import Plan
from apps.tiering.plans.selectors import plan_export
from apps.tiering.plans.services import plan_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


@pytest.fixture
def plan(collected, admin_user):
    return plan_create(target=collected, author=admin_user, author_name="ada", all_worth_moving=True)


class PlanPagesTests:
    def test_viewers_read_the_list_the_plan_and_its_exports(self, viewer_client, plan):
        assert f'href="/plans/{plan.pk}/"' in viewer_client.get("/plans/").content.decode()
        page = viewer_client.get(f"/plans/{plan.pk}/").content.decode()
        assert 'id="steps-table"' in page and 'id="plan-next"' not in page
        script = viewer_client.get(f"/plans/{plan.pk}/export.sql")
        assert script["Content-Disposition"] == f'attachment; filename="tierscope_plan_{plan.pk}_demo.sql"'
        assert "WHENEVER SQLERROR EXIT FAILURE" in script.content.decode()
        download = viewer_client.get(f"/plans/{plan.pk}/export.csv")
        assert download.streaming  # made as its steps are read
        body = b"".join(download.streaming_content).decode()
        assert body == plan_export(plan=plan, fmt="csv")
        rows = list(csv.reader(io.StringIO(body)))
        assert len(rows) == plan.steps_count + 1

    def test_viewers_make_no_plan_and_change_no_state(self, viewer_client, plan, collected):
        assert viewer_client.get("/targets/demo/plans/new/").status_code == 403
        assert viewer_client.post("/targets/demo/plans/new/", {"mode": "worth"}).status_code == 403
        assert viewer_client.post(f"/plans/{plan.pk}/state/", {"to": "approved"}).status_code == 403
        assert Plan.objects.get().state == "draft"

    def test_an_admin_makes_a_plan_of_ticked_recommendations(self, admin_client, collected):
        moves = list(Recommendation.objects.current(target_id=collected.id).filter(action="move")
                     .order_by("-savings_usd", "segment_id").values_list("segment_id", flat=True)[:3])
        page = admin_client.get("/targets/demo/plans/new/").content.decode()
        assert f'value="{moves[0]}"' in page
        response = admin_client.post("/targets/demo/plans/new/", {"mode": "selected", "segments": moves,
                                                                  "note": "CHG-1"})
        plan = Plan.objects.get()
        assert response["Location"] == f"/plans/{plan.pk}/"
        assert set(plan.steps.filter(kind="move").values_list("segment_id", flat=True)) == set(moves)
        assert (plan.note, plan.source) == ("CHG-1", "selected (3 recommendations)")

    def test_a_form_without_a_choice_says_what_is_missing(self, admin_client, collected):
        page = admin_client.post("/targets/demo/plans/new/", {"mode": "budget", "budget_gb": "10"}).content.decode()
        assert "A budget needs its GB and its tier." in page and not Plan.objects.exists()

    def test_its_author_cannot_approve_it_and_another_admin_does_with_a_csrf_token(self, plan, admin_client,
                                                                                 other_admin):
        page = admin_client.get(f"/plans/{plan.pk}/").content.decode()
        assert "another admin approves it" in page and 'id="plan-next"' not in page
        admin_client.post(f"/plans/{plan.pk}/state/", {"to": "approved"})
        assert Plan.objects.get().state == "draft"

        bob = Client(enforce_csrf_checks=True)
        bob.force_login(other_admin)
        assert bob.post(f"/plans/{plan.pk}/state/", {"to": "approved"}).status_code == 403  # no token
        page = bob.get(f"/plans/{plan.pk}/")
        assert 'id="plan-next"' in page.content.decode()
        token = page.cookies["csrftoken"].value
        response = bob.post(f"/plans/{plan.pk}/state/", {"to": "approved", "csrfmiddlewaretoken": token})
        assert response.status_code == 302
        plan.refresh_from_db()
        assert (plan.state, plan.approved_by_name) == ("approved", "bob")
