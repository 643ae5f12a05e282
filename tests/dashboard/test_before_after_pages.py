"""The before and after view on the pages: a compare-period report's periods, the window form, the plan page."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.http import QueryDict

from apps.dashboard.periods.before_after import window_choice

pytestmark = pytest.mark.django_db
COMPARE_FIXTURES = Path(__file__).resolve().parents[1] / "targets" / "awr_report" / "fixtures"


class WindowChoiceTests:
    def test_it_takes_the_days_asked_for_and_the_defaults_otherwise_saying_why(self):
        def days(choice):
            return choice.before_days, choice.after_days

        assert days(window_choice(QueryDict("before_days=3&after_days=1.5"))) == (3.0, 1.5)
        assert days(window_choice(QueryDict(""))) == (7.0, 7.0)
        bad = window_choice(QueryDict("before_days=abc&after_days=90"))
        assert days(bad) == (7.0, 7.0)
        assert bad.error == ("before days must be a number of days from 0.25 to 60, not 'abc': 7 used; "
                             "after days must be a number of days from 0.25 to 60, not '90': 7 used")


class SegmentPageTests:
    def test_a_segment_of_a_compare_period_report_shows_its_two_periods(self, viewer_client):
        from apps.snapshots.imports import report_import
        from apps.snapshots.models import Segment
        from apps.targets.models import Target

        target = Target.objects.create(name="cdb1", mode=Target.Mode.REPORT)
        report_import(target=target, data=(COMPARE_FIXTURES / "awrdiff_19c.txt").read_bytes(),
                      filename="awrdiff_19c.txt")
        orders = Segment.objects.get(target=target, object_name="ORDERS")
        html = viewer_client.get(f"/targets/cdb1/segments/{orders.pk}/").content.decode()
        assert "Compare-period report: period 1 against period 2" in html
        assert "<th class=\"num\">Period 1</th><th class=\"num\">Period 2</th>" in html
        assert 'data-verdict="periods"' in html

    def test_a_segment_that_never_moved_shows_no_before_and_after(self, viewer_client, demo_target, collect):
        from apps.snapshots.models import Segment

        collect(demo_target)
        unmoved = Segment.objects.get(target=demo_target, object_name="CUSTOMERS")
        assert 'id="before-after"' not in viewer_client.get(
            f"/targets/demo/segments/{unmoved.pk}/").content.decode()
        moved = Segment.objects.get(target=demo_target, object_name="CUSTOMERS_PK")
        html = viewer_client.get(f"/targets/demo/segments/{moved.pk}/?after_days=xyz").content.decode()
        assert 'data-verdict="paid"' in html and "after days must be a number of days" in html


class PlanPageTests:
    def test_mark_verified_is_refused_with_the_reason_until_the_after_windows_fill(
            self, client, admin_user, django_user_model, demo_target, collect):
        from apps.tiering.models import Recommendation
        from apps.tiering.plans.services import plan_create, plan_transition

        collect(demo_target)
        bob = django_user_model.objects.create_superuser(username="bob", email="", password="x")
        rec = Recommendation.objects.current(target_id=demo_target.id).filter(
            action="move", segment__object_name="ORDER_ITEMS_PK").get()
        plan = plan_create(target=demo_target, author=admin_user, author_name="ada", segment_ids=[rec.segment_id])
        plan_transition(plan_id=plan.pk, to="approved", user=bob)
        plan_transition(plan_id=plan.pk, to="executed", user=admin_user)
        client.force_login(admin_user)
        page = client.get(f"/plans/{plan.pk}/").content.decode()
        assert 'id="plan-verdict"' in page and 'data-verdict="too early"' in page
        assert "disabled title=\"plan " in page
        response = client.post(f"/plans/{plan.pk}/state/", {"to": "verified"}, follow=True)
        assert (f"plan {plan.pk} cannot be verified yet: the after-window of step 1 (SOE.ORDER_ITEMS_PK) holds 0 "
                "snapshots, a verdict needs") in response.content.decode()
        plan.refresh_from_db()
        assert plan.state == "executed"
