"""A site with a row behind every URL: the demo target collected, a connection check, the schedule."""

from __future__ import annotations

import pytest
from django.test import Client


@pytest.fixture
def site_ids(demo_target, collect, admin_user, viewer) -> dict[str, object]:
    from django.contrib.auth.models import Group
    from django.contrib.contenttypes.models import ContentType
    from django.utils import timezone
    from django_celery_beat.models import ClockedSchedule, CrontabSchedule, SolarSchedule

    from apps.snapshots.models import CollectionRun, Segment
    from apps.snapshots.services import schedule_install
    from apps.targets.models import Target, TargetCheck
    from apps.tiering.models import Tier

    run = collect(demo_target)
    assert run.status == "succeeded", run.error
    schedule_install()
    check = TargetCheck.objects.create(target=demo_target, queued_at=timezone.now(), requested_by="ada")
    # A row for every admin model that has none yet, so its change/delete/history pages are reached too.
    Group.objects.create(name="dbas")
    CrontabSchedule.objects.create(minute="0", hour="4")
    SolarSchedule.objects.create(event="sunrise", latitude=48.1, longitude=11.6)
    ClockedSchedule.objects.create(clocked_time=timezone.now())
    from apps.targets.models import StorageLocation

    StorageLocation.objects.create(target=demo_target, name="+DATA", kind="asm")
    from apps.tiering.models import TierCalibration

    TierCalibration.objects.create(tier=Tier.objects.order_by("pk").first(), source="fio", read_iops=1000.0,
                                   file_name="randread.json", file_sha256="0" * 64, uploaded_at=timezone.now())
    from allauth.socialaccount.models import SocialAccount

    SocialAccount.objects.create(user=viewer, provider="keycloak", uid="vera-sub", extra_data={})  # docs/sso.md
    from apps.alerts.models import AlertMessage, AlertRule, AlertState

    rule = AlertRule.objects.create(name="dbas", email_to="dbas@example.com")  # docs/alerts.md
    AlertState.objects.create(rule=rule, key="failures:demo", changed_at=timezone.now())
    AlertMessage.objects.create(rule=rule, destination="mailto:dbas@example.com", subject="demo failed",
                                body="demo failed 3 times in a row", created_at=timezone.now())
    from apps.tiering.budget.services import budget_run_remember, fleet_budget

    budget_run_remember(budget=fleet_budget(tier_name="flash", gb=5), author=admin_user, author_name="ada",
                        how="remembered on purpose")
    # A failed and a good login, so the admin's axes pages have rows to show.
    Client(REMOTE_ADDR="198.51.100.7").post("/accounts/login/", {"username": "vera", "password": "wrong"})
    Client(REMOTE_ADDR="198.51.100.8").post("/accounts/login/", {"username": "ada", "password": "ada-pass-1"})
    from apps.tiering.plans.services import plan_create

    plan = plan_create(target=demo_target, author=admin_user, author_name="ada", all_worth_moving=True)
    from apps.apitokens.services import token_create

    api_token = token_create(user=admin_user, name="ci", expires_days=None, now=timezone.now()).token  # docs/api-tokens.md
    return {
        "name": demo_target.name,
        "plan_id": plan.pk,
        "segment_id": Segment.objects.filter(target=demo_target).order_by("pk").first().pk,
        "run_id": CollectionRun.objects.filter(target=demo_target).order_by("pk").first().pk,
        "tier_id": Tier.objects.order_by("pk").first().pk,
        "check_id": check.pk,
        "content_type_id": ContentType.objects.get_for_model(Target).pk,
        "view_on_site_object_id": demo_target.pk,
        "token_id": api_token.pk,
    }
