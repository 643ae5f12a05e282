"""The three task guides, walked in a real browser on the demo: the controls each guide names are the ones a DBA
finds, in the order it gives.

- docs/add-database.md, "AWR reports" and "Offline extract": add a report target on the targets page, import a
  report with its sizes, or an extract's zip (the live modes' steps are walked by
  tests/dashboard/targets/test_browser_targets.py, the demo standing in for Oracle);
- docs/reading-recommendations.md: the segment page, top to bottom;
- docs/acting.md: make a plan, have another admin approve it, download its script, mark it executed.
"""

from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest

from tests.browser import login, plan_approve, signed_in_page

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOCS = Path(__file__).resolve().parents[2] / "docs"
SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
EXTRACT = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures" / "single"
REPORT = "pcambell__awrrptanalyzor__awrrpt__11g__awrrpt_1_36006_36007.html"
SIZES = ("OWNER,SEGMENT_NAME,PARTITION_NAME,SEGMENT_TYPE,TABLESPACE_NAME,BYTES,BLOCKS,BUFFER_POOL,FLASH_CACHE,"
         "CELL_FLASH_CACHE,OBJ_NUMBER,DATAOBJ_NUMBER,LOB_TABLE_NAME,LOB_COLUMN_NAME,LOB_TABLE_PARTITION_NAME\n"
         '"IDC_U_UNIAUTH","T_ONLINE_USER","","TABLE","TS_UNIAUTH","1073741824","131072","","","","","","","",""\n')


def guide(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def in_order(text: str, *phrases: str) -> None:
    """Each phrase is in ``text``, after the one before."""
    at = 0
    for phrase in phrases:
        found = text.find(phrase, at)
        assert found >= 0, f"{phrase!r} not found after position {at}"
        at = found + len(phrase)


class GuideWalkTests:
    def test_add_database_by_reports_as_its_steps_say(self, page, live_server, admin_user, seed_tiers, tmp_path):
        from apps.snapshots.models import Segment

        reports = guide("add-database.md").split("### AWR reports", 1)[1].split("###", 1)[0]
        in_order(reports, "targets page", "segments.csv", "import_awr_report")

        login(page, live_server, admin_user.username)
        page.click("nav >> text=Targets")  # step 1: add a report target on the targets page
        page.click("#target-add")
        page.fill("#id_name", "legacy")
        page.select_option("#id_mode", "report")
        page.click("#target-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/manage/targets/")
        page.click("#targets-table tr[data-target=legacy] [data-action=import]")  # step 3: import, with sizes
        sizes = tmp_path / "segments.csv"
        sizes.write_text(SIZES, encoding="utf-8")
        form = page.locator("#import-report form")
        form.locator("input[type=file]").first.set_input_files(str(SAMPLES / REPORT))
        form.locator("input[type=file]").nth(1).set_input_files(str(sizes))
        form.locator("button[type=submit]").click()
        page.wait_for_load_state()

        assert "imported 1 snapshot" in page.content()
        assert Segment.objects.get(target__name="legacy", object_name="T_ONLINE_USER").size_bytes == 1073741824

    def test_add_database_by_an_offline_extract_as_its_steps_say(self, page, live_server, admin_user, seed_tiers,
                                                                 tmp_path):
        from apps.snapshots.models import Segment, Snapshot

        steps = guide("add-database.md").split("### Offline extract", 1)[1].split("##", 1)[0]
        in_order(steps, "tierscope_extract.sql", "Zip the directory", "targets page", "import page")

        archive = tmp_path / "tierscope_PROD.zip"  # step 3: the extract's directory, zipped
        with zipfile.ZipFile(archive, "w") as zipped:
            for item in EXTRACT.iterdir():
                zipped.write(item, item.name)
        login(page, live_server, admin_user.username)
        page.click("nav >> text=Targets")  # step 4: a report target, then the zip on its import page
        page.click("#target-add")
        page.fill("#id_name", "prod")
        page.select_option("#id_mode", "report")
        page.click("#target-form button[type=submit]")
        page.wait_for_url(f"{live_server.url}/manage/targets/")
        page.click("#targets-table tr[data-target=prod] [data-action=import]")
        form = page.locator("#import-extract form")
        form.locator("input[type=file]").set_input_files(str(archive))
        form.locator("button[type=submit]").click()
        page.wait_for_url(f"{live_server.url}/targets/prod/")

        assert Snapshot.objects.filter(target__name="prod").exists()
        assert Segment.objects.filter(target__name="prod", size_bytes__isnull=False).exists()

    def test_reading_a_recommendation_follows_the_segment_page_top_to_bottom(self, page, live_server, admin_user,
                                                                            collected):
        walk = guide("reading-recommendations.md").split("## The segment page, top to bottom", 1)[1].split("##")[0]
        in_order(walk, "figures", "payback", "Why", "DDL", "SQL driving", "requests per snapshot", "history")

        login(page, live_server, admin_user.username)
        page.goto(f"{live_server.url}/targets/demo/recommendations/")
        page.locator("#segments-table tbody tr[data-segment-id] a").first.click()
        page.wait_for_url(re.compile(r"/targets/demo/segments/\d+/$"))

        # Each part the guide names, in its order on the page.
        ids = ["kpi-payback", "ddl-text", "chart-io", "history-table"]
        tops = [page.locator(f"#{name}").first.bounding_box()["y"] for name in ids]
        assert tops == sorted(tops), dict(zip(ids, tops, strict=True))
        assert page.locator("#kpi-iops-label").bounding_box()["y"] < tops[1]  # the figures' row, above the DDL
        assert "Why" in page.locator("main").inner_text()

    def test_acting_makes_a_plan_another_admin_approves_it_the_script_downloads_and_it_is_marked_executed(
        self, browser, page, live_server, admin_user, other_admin, collected
    ):
        from apps.tiering.plans.models import Plan

        in_order(guide("acting.md"), "New plan for <target>", "approve", "export.sql", "Mark the plan executed")

        login(page, live_server, admin_user.username)
        page.click("nav a:text('Plans')")
        page.click("a:text('New plan for demo')")  # step 2
        page.check("input[name=mode][value=worth]")
        page.click("#make-plan")
        page.wait_for_url(re.compile(r"/plans/\d+/$"))
        plan = Plan.objects.get()

        with signed_in_page(browser, live_server, other_admin.username) as other:  # step 3: a second admin
            plan_approve(other, live_server, plan.pk)
            assert other.locator("#plan-state").inner_text() == "approved"

        page.reload()
        with page.expect_download() as download:  # step 4
            page.click("#export-sql")
        assert "WHENEVER SQLERROR EXIT FAILURE" in Path(download.value.path()).read_text(encoding="utf-8")
        assert page.locator("#plan-next").inner_text() == "Mark executed"  # step 5
        page.click("#plan-next")
        page.wait_for_url(re.compile(rf"/plans/{plan.pk}/$"))
        assert page.locator("#plan-state").inner_text() == "executed"
