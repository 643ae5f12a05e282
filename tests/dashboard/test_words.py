"""One word per idea across the pages: IO intensity is "IO/s per GB", the flash cache the pages measure is named
the Database Smart Flash Cache, IO time summed over sessions says so, and a set without a move cost never shows "0 days"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apps.tiering.models import Recommendation

ROOT = Path(__file__).resolve().parents[2]
OLD_INTENSITY = re.compile(r"IO/s/GB|IOPS per GB|IO requests/s per GB|IOPS/GB")


@pytest.mark.django_db
class PageWordsTests:
    def test_the_target_segment_and_recommendation_pages_say_io_intensity_one_way(self, viewer_client, demo_target,
                                                                                   collect):
        collect(demo_target)
        top = Recommendation.objects.current(target_id=demo_target.id).order_by("-savings_usd").first()
        for url in ("/targets/demo/", "/targets/demo/recommendations/", f"/targets/demo/segments/{top.segment_id}/"):
            page = viewer_client.get(url).content.decode()

            assert not OLD_INTENSITY.search(page), (url, OLD_INTENSITY.search(page)[0])
            assert "IO intensity" in page, url
            assert "IO/s per GB" in page, url
            assert "Flash-cache" not in page, url

    def test_the_target_page_names_the_database_smart_flash_cache(self, viewer_client, demo_target, collect):
        collect(demo_target)
        page = viewer_client.get("/targets/demo/").content.decode()

        kpi = page.split('id="kpi-flash"', 1)[1].split("</div></div>", 1)[0]
        assert "Database Smart Flash Cache (DB_FLASH_CACHE_FILE)" in kpi

    def test_io_time_saved_is_said_to_be_summed_over_sessions(self, viewer_client, demo_target, collect):
        collect(demo_target)
        top = Recommendation.objects.current(target_id=demo_target.id).order_by("-savings_usd").first()
        page = viewer_client.get(f"/targets/demo/segments/{top.segment_id}/").content.decode()

        kpi = page.split('id="kpi-latency"', 1)[1].split("</div>", 1)[0]
        assert kpi.startswith(">per day, summed over sessions (may pass 24 h)")


class ChartWordsTests:
    def test_the_chart_scripts_spell_io_intensity_as_the_pages_do(self):
        for script in sorted((ROOT / "static" / "js" / "charts").glob("*.js")):
            text = script.read_text(encoding="utf-8")
            assert not OLD_INTENSITY.search(text), (script.name, OLD_INTENSITY.search(text)[0])


@pytest.mark.django_db
class PaybackWordsTests:
    def test_a_plan_without_a_move_cost_says_so_on_the_plan_pages_never_0_days(self, admin_client, admin_user,
                                                                                 demo_target, collect):
        from apps.tiering.plans.services import plan_create

        collect(demo_target)
        assert demo_target.tier_set.move_cost_usd == 0  # the seed set: no cost per move
        plan = plan_create(target=demo_target, author=admin_user, author_name="ada", all_worth_moving=True)
        assert plan.payback_days == 0

        detail = admin_client.get(f"/plans/{plan.pk}/").content.decode()
        listing = admin_client.get("/plans/").content.decode()

        assert '<b data-col="payback">no move cost set</b>' in detail
        assert "no move cost set" in listing
        for page in (detail, listing):
            assert not re.search(r"\b0(\.0)? days\b", page)
