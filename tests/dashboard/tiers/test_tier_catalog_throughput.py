"""The tiers page shows each tier's sequential throughput with where the figure comes from, or says it is
unknown (a move's copy time needs it)."""

from __future__ import annotations

import re

import pytest

from apps.tiering.models import Tier


def _throughput_cell(body: str, tier: str) -> str:
    row = body.split(f'<tr data-tier="{tier}">', 1)[1].split("</tr>", 1)[0]
    found = re.search(r'<td class="num" data-col="throughput">(.*?)</td>', row, re.S)
    assert found, f"no throughput cell in the row of {tier}"
    return found.group(1)


def _text(cell: str) -> str:
    return re.sub(r"<[^>]+>", "", cell).strip()


@pytest.mark.django_db
class TierCatalogThroughputTests:
    def test_it_shows_a_preset_s_throughput_with_its_source(self, viewer_client, seed_tiers):
        cell = _throughput_cell(viewer_client.get("/tiers/").content.decode(), "flash")

        assert _text(cell) == "100" and 'title="seeds/' in cell

    def test_it_says_unknown_for_a_tier_without_a_throughput(self, viewer_client, seed_tiers):
        tier = Tier.objects.filter(throughput_mb_s__isnull=True).first()
        assert tier is not None

        cell = _throughput_cell(viewer_client.get("/tiers/").content.decode(), tier.name)

        assert _text(cell) == "unknown"

    def test_it_shows_the_source_an_admin_gave(self, admin_client, seed_tiers):
        Tier.objects.filter(name="flash").update(throughput_mb_s=450, throughput_source="fio run of 2026-11-02")

        cell = _throughput_cell(admin_client.get("/tiers/").content.decode(), "flash")

        assert _text(cell) == "450" and 'title="fio run of 2026-11-02"' in cell
