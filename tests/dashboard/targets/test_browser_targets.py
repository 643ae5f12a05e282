"""The targets page in a real browser: an admin adds a demo target, tests its connection and collects it on a
real worker from the list, then finds the create in the audit log by filtering."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser import login, shot

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


class TargetsPageBrowserTests:
    def test_an_admin_adds_tests_and_collects_a_target_then_finds_it_in_the_audit_log(
        self, page, live_server, admin_user, seed_tiers, celery_worker_queue
    ):
        from apps.snapshots.models import CollectionRun
        from apps.snapshots.services import schedule_install
        from apps.targets.models import Target, TargetCheck

        schedule_install()  # beat's fan-out, as setup_periodic_tasks writes it
        Target.objects.create(name="sales", mode=Target.Mode.REPORT)
        login(page, live_server, admin_user.username)
        page.click("nav >> text=Targets")
        page.wait_for_url(f"{live_server.url}/manage/targets/")
        page.click("#target-add")
        page.fill("#id_name", "lab")
        page.select_option("#id_mode", "demo")
        # Only the fields the mode uses: no connection for the simulation, its seed instead.
        # (waited for: the form's script may still be loading when the mode is chosen; it then applies it)
        expect(page.locator("#id_dsn")).to_be_hidden()
        expect(page.locator("#id_demo_seed")).to_be_visible()
        page.click("#target-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/manage/targets/")
        assert "Added target lab (demo)" in page.locator(".messages:not([hidden])").inner_text()
        row = page.locator("#targets-table tr[data-target=lab]")
        assert row.locator("[data-col=last_success]").inner_text() == "never"
        assert row.locator("[data-col=next_due]").inner_text().startswith("due now")
        assert page.locator("tr[data-target=sales] [data-col=next_due]").inner_text() == "never: fed by imports"

        # Test connection: queued on the worker, the row follows it to the verdict without a reload.
        row.locator("[data-action=check]").click()
        page.wait_for_function(
            "() => document.querySelector('tr[data-target=lab] [data-col=check]').dataset.status === 'passed'",
            timeout=60_000)
        check = TargetCheck.objects.get(target__name="lab")
        assert check.status == "passed" and check.requested_by == admin_user.username
        assert row.locator("[data-role=check-link]").get_attribute("href") == f"/targets/lab/check/{check.pk}/"

        # Collect now: the run is followed in the row until it has succeeded.
        row.locator("[data-action=collect]").click()
        page.wait_for_function(
            "() => document.querySelector('tr[data-target=lab] [data-role=run]').dataset.status === 'succeeded'",
            timeout=120_000)
        run = CollectionRun.objects.get(target__name="lab")
        assert run.status == "succeeded" and run.trigger == "manual" and run.snapshots_added > 0
        assert row.locator("[data-col=last_success]").inner_text() == "just now"
        page.reload()
        assert page.locator("#targets-table tr[data-target=lab] [data-col=last_success]").inner_text() == "just now"
        assert page.locator("tr[data-target=lab] [data-col=next_due]").inner_text().startswith("in ")
        shot(page, "targets")

        # The audit log of this target: what was done from the list, newest first, the create in one line.
        page.click("nav >> text=Audit")
        page.wait_for_url(f"{live_server.url}/audit/")
        page.select_option("#audit-filters select[name=target]", "lab")
        page.click("#audit-filters button[type=submit]")
        page.wait_for_url("**/audit/?**")
        actions = page.locator("#audit-table tbody tr td:nth-child(3)").all_inner_texts()
        assert actions == ["collect now", "test connection", "create"]
        assert "None →" not in page.locator("#audit-table").inner_text()
        line = page.locator("#audit-table [data-role=line]").inner_text()
        assert line == "created target lab (mode demo, tier set seed-2009)"
        shot(page, "audit-filtered")

        # Narrowed to creates of objects named like "lab": that one line alone.
        page.select_option("#audit-filters select[name=action]", "create")
        page.fill("#audit-filters input[name=name]", "LAB")
        page.click("#audit-filters button[type=submit]")
        page.wait_for_url("**action=create**")
        assert page.locator("#audit-table tbody tr").count() == 1
        assert page.locator("#audit-count").inner_text() == "Matching: 1 entry"
