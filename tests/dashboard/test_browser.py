"""The dashboard in a real browser (Debian's Chromium via Playwright) against a live server with demo data."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db.models import Sum

from apps.dashboard.formatting import fmt_pct, fmt_usd_per_month
from tests.browser import assert_drawn, assert_no_csp_violation, login, shot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

class DashboardBrowserTests:
    def test_it_shows_every_page_with_drawn_charts_and_right_numbers(
        self, page, live_server, admin_user, collected, csp_violations
    ):
        from apps.dashboard.recommendations.selectors import RecommendationFilter, recommendation_filtered
        from apps.dashboard.selectors import window_since
        from apps.snapshots.models import Segment, SysStat
        from apps.tiering.models import Recommendation
        from apps.tiering.recommendations.explain import explain
        from apps.tiering.recommendations.export import export_csv, export_rows

        target = collected
        current = Recommendation.objects.current(target_id=target.id).counted()  # a LOB index: in its LOB's row
        sums = current.aggregate(now=Sum("cost_now_usd"), after=Sum("cost_after_usd"), savings=Sum("savings_usd"))
        months = target.tier_set.amortisation_months  # the demo's seed-2009 devices are a purchase: per month

        # Login page, then through the form.
        response = page.goto(f"{live_server.url}/accounts/login/")
        assert "script-src 'self'" in response.headers["content-security-policy"]
        shot(page, "login")
        assert_no_csp_violation(page, csp_violations)
        login(page, live_server, admin_user.username)

        # Fleet: cost, savings and flash-cache ratio as the database has them.
        row = page.locator("#fleet-table tr[data-target=demo]")
        assert row.locator("[data-col=savings]").inner_text() == fmt_usd_per_month(sums["savings"] / months)
        assert row.locator("[data-col=cost_now]").inner_text() == fmt_usd_per_month(sums["now"] / months)
        # Over the window the page uses (the demo holds a day more than it).
        stats = dict(SysStat.objects.filter(snapshot__target=target, snapshot__end_at__gt=window_since())
                     .values_list("name").annotate(s=Sum("value")))
        ratio = stats["physical read flash cache hits"] / stats["physical read IO requests"]
        assert row.locator("[data-col=flash]").inner_text() == fmt_pct(ratio)
        page.locator("#fleet-table th", has_text="Savings").click()  # client-side sort still keeps the row
        assert row.count() == 1
        shot(page, "fleet")
        assert_no_csp_violation(page, csp_violations)

        # Target page: five charts drawn, totals and the top row right.
        page.click("#fleet-table a:text('demo')")
        page.wait_for_url(re.compile(r"/targets/demo/$"))
        for canvas in ("chart-scatter", "chart-skew", "chart-cost", "chart-residency", "chart-flash"):
            assert_drawn(page, canvas)
        assert page.locator("#kpi-now").inner_text() == fmt_usd_per_month(sums["now"] / months)
        assert page.locator("#kpi-savings").inner_text() == fmt_usd_per_month(sums["savings"] / months)
        top = current.order_by("-savings_usd", "segment__owner", "segment__object_name", "segment_id").first()
        first_row = page.locator("#segments-table tbody tr").first
        assert first_row.get_attribute("data-segment-id") == str(top.segment_id)
        assert first_row.locator("[data-col=savings]").inner_text() == fmt_usd_per_month(top.savings_usd / months,
                                                                                           unit=False)
        assert "of capacity serves 80% of IO" in page.locator("#skew-callout").inner_text()
        shot(page, "target")
        assert_no_csp_violation(page, csp_violations)

        # Segment page from the table: three charts, DDL with a copy button.
        first_row.locator("a").first.click()
        page.wait_for_url(re.compile(r"/segments/\d+/$"))
        for canvas in ("chart-io", "chart-size", "chart-residency"):
            assert_drawn(page, canvas)
        segment = Segment.objects.get(pk=top.segment_id)
        assert page.locator("#history-table tbody tr").count() == Recommendation.objects.filter(segment=segment).count()
        top_ddl = explain([top], target=target)[0].ddl
        if top_ddl:
            assert page.locator("#ddl-text").inner_text().strip() == top_ddl.strip()
            page.click("button.copy")
            page.wait_for_function("() => document.querySelector('button.copy').textContent !== 'Copy'")
        shot(page, "segment")
        assert_no_csp_violation(page, csp_violations)

        # Recommendations: filter by owner, totals follow, CSV equals export_csv of the same rows.
        page.goto(f"{live_server.url}/targets/demo/recommendations/")
        assert page.locator("#totals").inner_text().startswith(f"{current.count()} segment")
        owner = sorted(set(current.values_list("segment__owner", flat=True)))[0]
        page.select_option("#id_owner", owner)
        page.click("#filters button[type=submit]")
        page.wait_for_url(re.compile(r"owner="))
        expected = recommendation_filtered(target_id=target.id, filters=RecommendationFilter(owner=owner))
        assert page.locator("#totals b").first.inner_text() == str(expected.count())
        owners = page.locator("#segments-table tbody tr td:first-child").all_inner_texts()
        assert owners and all(text.startswith(f"{owner}.") for text in owners)
        with page.expect_download() as info:
            page.click("#csv-download")
        download = info.value
        assert download.suggested_filename == "tierscope-demo-recommendations.csv"
        assert Path(download.path()).read_bytes().decode("utf-8") == export_csv(export_rows(expected, target))
        page.goto(f"{live_server.url}/targets/demo/recommendations/")
        shot(page, "recommendations")
        assert_no_csp_violation(page, csp_violations)

        # Tiers: grouped by set, intensity shown, admin can edit.
        page.goto(f"{live_server.url}/tiers/")
        flash = page.locator("#set-seed-2009 tr[data-tier=flash]")
        assert flash.locator("[data-col=intensity]").inner_text() != "—"
        assert page.locator("#set-seed-2009 .breakevens").inner_text().count("→") == 2
        shot(page, "tiers")
        assert_no_csp_violation(page, csp_violations)

    @pytest.mark.worker
    def test_it_collects_now_through_the_worker_and_shows_progress(
        self, page, live_server, admin_user, demo_target, celery_worker_queue
    ):
        from apps.snapshots.models import CollectionRun

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/runs/")
        page.click("form.collect-form[data-target=demo] button")
        new_row = page.locator("#runs-table tbody tr[data-run-id]").first
        new_row.wait_for()
        run_id = int(new_row.get_attribute("data-run-id"))
        # The badge changes in place (no reload) until the worker has finished.
        page.wait_for_function(
            "(id) => document.querySelector(`tr[data-run-id='${id}']`).dataset.status === 'succeeded'",
            arg=run_id, timeout=120_000,
        )
        run = CollectionRun.objects.get(pk=run_id)
        assert run.status == "succeeded" and run.trigger == "manual"
        assert new_row.locator("[data-role=status]").inner_text() == "succeeded"
        assert new_row.locator("[data-role=snapshots]").inner_text() == str(run.snapshots_added)
        assert run.snapshots_added > 0
        shot(page, "runs")

    @pytest.mark.worker
    def test_a_connection_check_runs_on_the_worker_and_shows_its_steps(
        self, page, live_server, admin_user, seed_tiers, celery_worker_queue
    ):
        from apps.targets.models import Target, TargetCheck
        from tests.targets.oracle.listeners import closed_port

        target = Target(name="sales", mode=Target.Mode.NOPACK, dsn=f"127.0.0.1:{closed_port()}/SALES",
                        username="TIERSCOPE")
        target.set_password("not-used")
        target.save()
        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/admin/targets/target/")
        page.check(f"input[name=_selected_action][value='{target.pk}']")
        page.select_option("select[name=action]", "test_connection")
        page.click("button[name=index]")

        # The admin answers at once with the check's page; the worker connects, the page follows it.
        page.wait_for_url(re.compile(r"/targets/sales/check/\d+/$"))
        # An arrow function: Playwright evals a bare expression, which the page's CSP (no unsafe-eval) refuses.
        page.wait_for_function("() => document.getElementById('target-check').dataset.status === 'failed'",
                               timeout=60_000)
        check = TargetCheck.objects.get(target=target)
        assert check.status == TargetCheck.Status.FAILED and check.requested_by == admin_user.username
        steps = page.locator("#target-check [data-role=steps]").inner_text()
        assert "connect" in steps and "refused the connection" in steps
        shot(page, "target_check")


class PolicyBrowserTests:
    def test_the_admin_pages_run_under_the_policy(self, page, live_server, admin_user, demo_target, csp_violations):
        from django_celery_beat.models import CrontabSchedule, PeriodicTask

        from apps.snapshots.services import schedule_install

        schedule_install()
        task = PeriodicTask.objects.order_by("pk").first()
        crontab = CrontabSchedule.objects.create(minute="30", hour="4")
        login(page, live_server, admin_user.username)
        for path in ("/admin/", "/admin/targets/target/", f"/admin/targets/target/{demo_target.pk}/change/",
                     f"/admin/auth/user/{admin_user.pk}/change/", "/admin/auth/user/add/",
                     "/admin/axes/accessattempt/", "/admin/django_celery_beat/periodictask/add/",
                     f"/admin/django_celery_beat/periodictask/{task.pk}/change/"):
            page.goto(f"{live_server.url}{path}")
            assert_no_csp_violation(page, csp_violations)
        # django-celery-beat's crontab helper runs from a static file (it was an inline script).
        assert page.locator(".field-crontab_translation").is_hidden()
        page.select_option("#id_crontab", str(crontab.pk))
        assert f"Translation: {crontab.human_readable}" in page.locator(".field-crontab .help").inner_text()

    def test_a_locked_out_login_shows_why_and_when(self, page, live_server, viewer, csp_violations):
        for password in ["guess-1", "guess-2", "guess-3", "guess-4", "guess-5", "vera-pass-1"]:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", viewer.username)
            page.fill("#id_password", password)
            page.click("button[type=submit]")
            page.wait_for_load_state()

        assert "Too many failed logins" in page.locator("#lockout").inner_text()
        assert page.locator(".who").count() == 0  # not logged in
        assert_no_csp_violation(page, csp_violations)
        shot(page, "login_locked")
