"""/manage/targets/: the targets page for admins: the list, add and edit with the admin's checks, delete."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target, TargetCheck

pytestmark = pytest.mark.django_db

LIST = "/manage/targets/"
ADD = "/manage/targets/add/"


def live(name: str = "prod", **fields) -> Target:
    target = Target(name=name, mode=Target.Mode.NOPACK, dsn="dbhost1:1521/PROD", username="TIERSCOPE", **fields)
    target.set_password("s3cret-pw")
    target.save()
    return target


class TargetsPageAccessTests:
    @pytest.mark.parametrize("url", [LIST, ADD, "/manage/targets/prod/edit/", "/manage/targets/prod/delete/"])
    def test_it_refuses_viewers(self, viewer_client, url, db):
        live()
        assert viewer_client.get(url).status_code == 403

    def test_it_refuses_viewers_every_write(self, viewer_client, db):
        target = live()
        posts = {ADD: {"name": "x", "mode": "demo"}, "/manage/targets/prod/edit/": {"name": "renamed"},
                 "/manage/targets/prod/delete/": {"confirm_name": "prod"}, "/manage/targets/prod/check/": {}}
        for url, data in posts.items():
            assert viewer_client.post(url, data).status_code == 403, url
        target.refresh_from_db()
        assert target.name == "prod" and not TargetCheck.objects.exists()

    def test_it_sends_anonymous_users_to_login(self, client):
        response = client.get(LIST)
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")

    def test_it_links_the_page_for_admins_and_not_for_viewers(self, admin_client, client, viewer, demo_target):
        assert f'href="{LIST}"' in admin_client.get("/").content.decode()
        client.force_login(viewer)
        assert f'href="{LIST}"' not in client.get("/").content.decode()

    def test_the_check_page_leads_back_to_this_page_not_the_admin(self, admin_client, db):
        target = live()
        check = TargetCheck.objects.create(target=target, queued_at=timezone.now(), requested_by="ada")
        body = admin_client.get(f"/targets/prod/check/{check.pk}/").content.decode()
        assert f'<a href="{LIST}">Back to targets</a>' in body and "/admin/targets/target/" not in body


class TargetsListTests:
    def test_it_shows_mode_state_last_success_next_due_and_queue(self, admin_client, db):
        now = timezone.now()
        target = live(collect_queue="dc2", next_collect_at=now + dt.timedelta(minutes=42))
        CollectionRun.objects.create(target=target, status="succeeded", queued_at=now - dt.timedelta(minutes=20),
                                     finished_at=now - dt.timedelta(minutes=17))
        CollectionRun.objects.create(target=target, status="failed", queued_at=now - dt.timedelta(minutes=5),
                                     finished_at=now - dt.timedelta(minutes=5), error="ORA-12541: no listener")
        from apps.snapshots.services import schedule_install

        schedule_install()

        row = next(r for r in admin_client.get(LIST).context["rows"] if r.target.name == "prod")
        body = admin_client.get(LIST).content.decode()

        assert row.last_success == "17\xa0minutes ago"
        assert row.next_due.startswith("in 41\xa0minutes") or row.next_due.startswith("in 42\xa0minutes")
        assert row.last_run.status == "failed"
        assert "No Diagnostics Pack: reads only" in body and "<code>dc2</code>" in body
        assert "ORA-12541: no listener" in body
        assert "s3cret" not in body and target.password_encrypted not in body

    def test_it_says_never_for_a_target_never_collected_and_explains_report_targets(self, admin_client, db):
        from apps.snapshots.services import schedule_install

        schedule_install()
        live()
        Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        Target.objects.create(name="idle", mode=Target.Mode.DEMO, enabled=False)

        rows = {r.target.name: r for r in admin_client.get(LIST).context["rows"]}

        assert rows["prod"].last_success == "never" and rows["prod"].next_due.startswith("due now")
        assert rows["sales"].next_due == "never: fed by imports"
        assert rows["idle"].next_due == "never: disabled"

    def test_it_warns_when_beats_schedule_is_not_installed(self, admin_client, db):
        live()
        response = admin_client.get(LIST)
        assert 'id="schedule-off"' in response.content.decode()
        assert response.context["rows"][0].next_due.startswith("never: beat's schedule is not installed")

    def test_it_offers_collect_and_test_only_for_live_targets(self, admin_client, db):
        live()
        Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        body = admin_client.get(LIST).content.decode()
        assert 'action="/targets/prod/collect/"' in body and 'action="/manage/targets/prod/check/"' in body
        assert 'action="/targets/sales/collect/"' not in body and 'action="/manage/targets/sales/check/"' not in body
        assert 'href="/targets/sales/import/"' in body and 'href="/manage/targets/sales/delete/"' in body

    def test_it_reads_a_fixed_number_of_queries_whatever_the_targets(self, admin_client, db,
                                                                   django_assert_max_num_queries):
        for number in range(15):
            target = live(f"db{number}")
            CollectionRun.objects.create(target=target, status="succeeded", queued_at=timezone.now())
            TargetCheck.objects.create(target=target, queued_at=timezone.now(), status="passed")
        with django_assert_max_num_queries(10):
            assert admin_client.get(LIST).status_code == 200


class TargetsListWordsTests:
    def test_it_says_how_long_ago_the_last_check_was_asked_for(self, admin_client, db):
        target = live()
        TargetCheck.objects.create(target=target, status="failed", error="ORA-01017: invalid username/password",
                                   queued_at=timezone.now() - dt.timedelta(hours=3, minutes=5))

        row = admin_client.get(LIST).context["rows"][0]
        body = admin_client.get(LIST).content.decode()

        assert row.last_check_ago == "3\xa0hours ago" and row.check_badge == "failed"
        assert "ORA-01017: invalid username/password" in body
