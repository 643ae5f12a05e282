"""Oracle-maintained segments (SYS, AWR's tables, AUDSYS, ...) and unnamed ones ("** MISSING **") are folded
away on the segment tables by default, counted in a line with a link that shows them (?oracle=show)."""

from __future__ import annotations

import csv
import io
import re

import pytest

from apps.dashboard.recommendations.hidden import HIDDEN_OWNERS, oracle_maintained
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.base import rows_for_module
from tests.dashboard.report_target import ppd_imported_id

pytestmark = pytest.mark.django_db

PAGES = ("/targets/ppd/", "/targets/ppd/recommendations/")


ppd_id = rows_for_module(ppd_imported_id)


@pytest.fixture
def ppd(ppd_id, db):
    """The imported report lists SYS segments and AWR's "** MISSING **" objects beside the application's."""
    return Target.objects.get(pk=ppd_id)


def _owners(page: str) -> list[str]:
    """The owner of each row of the segment table, as its title spells the name."""
    return re.findall(r'<tr data-segment-id="\d+">\s*<td><a class="seg-name" href="[^"]*" title="(?:[^":.]*:)?([^".]+)\.',
                      page)


def _hidden_expected(target) -> int:
    current = Recommendation.objects.current(target_id=target.id)
    return sum(1 for owner, kind in current.values_list("segment__owner", "segment__object_type")
               if owner in HIDDEN_OWNERS or kind == "UNDEFINED")


class OracleMaintainedFoldTests:
    def test_they_are_hidden_by_default_and_counted_with_a_show_link(self, viewer_client, ppd):
        hidden = _hidden_expected(ppd)
        assert hidden >= 3  # the report's SYS and MISSING rows: the test proves something

        for url in PAGES:
            page = viewer_client.get(url).content.decode()

            owners = _owners(page)
            assert owners and not set(owners) & set(HIDDEN_OWNERS), url
            note = re.search(r'id="oracle-hidden">(.*?)</p>', page, re.S)[1]
            assert note.startswith(f"{hidden} Oracle-maintained or unnamed segments hidden"), url
            assert 'href="?oracle=show">show</a>' in note, url

    def test_the_query_parameter_shows_them_with_a_hide_link(self, viewer_client, ppd):
        for url in PAGES:
            page = viewer_client.get(f"{url}?oracle=show").content.decode()

            owners = _owners(page)
            assert "SYS" in owners and "** MISSING **" in owners, url
            assert "hide them" in re.search(r'id="oracle-hidden">(.*?)</p>', page, re.S)[1], url
            assert '<input type="hidden" name="oracle" value="show">' in page, url  # kept by the filter form

    def test_a_filter_on_an_oracle_owner_shows_its_rows(self, viewer_client, ppd):
        page = viewer_client.get("/targets/ppd/recommendations/?owner=SYS").content.decode()

        assert set(_owners(page)) == {"SYS"}
        assert 'id="oracle-hidden"' not in page

    def test_the_csv_still_has_every_row(self, viewer_client, ppd):
        body = b"".join(viewer_client.get("/targets/ppd/recommendations/?format=csv").streaming_content).decode()

        rows = list(csv.DictReader(io.StringIO(body)))
        assert len(rows) == Recommendation.objects.current(target_id=ppd.id).counted().count()
        assert {"SYS", "** MISSING **"} <= {row["owner"] for row in rows}


def _stored_figures(target):
    from apps.tiering.models import RecommendationRunFigures

    return RecommendationRunFigures.objects.filter(run__target=target, run__state="current")


def _hidden_note(page: str) -> str:
    return re.search(r'id="oracle-hidden">(.*?)</p>', page, re.S)[1]


class StoredHiddenCountTests:
    """The unfiltered tables read the count of rows they fold away from the run's stored figures (runs never
    change); a filtered table counts its own."""

    def test_the_unfiltered_tables_show_the_run_s_stored_count(self, viewer_client, ppd):
        viewer_client.get(PAGES[0])  # stores the run's figures
        (figures,) = _stored_figures(ppd).values_list("figures", flat=True)
        assert figures["hidden"] == _hidden_expected(ppd)
        _stored_figures(ppd).update(figures={**figures, "hidden": 777})  # what only the stored count can say

        for url in PAGES:
            assert _hidden_note(viewer_client.get(url).content.decode()).startswith("777 Oracle-maintained"), url
        # Filtered: counted from the filtered rows, not read from the run.
        filtered = viewer_client.get("/targets/ppd/recommendations/?min_intensity=0").context
        assert filtered["filters_set"]
        assert filtered["folded"].hidden == filtered["filtered"].filter(oracle_maintained()).count() != 777

    def test_figures_stored_without_the_count_get_it_at_their_first_view(self, viewer_client, ppd):
        for url in PAGES:
            viewer_client.get(PAGES[0])
            (figures,) = _stored_figures(ppd).values_list("figures", flat=True)
            _stored_figures(ppd).update(figures={k: v for k, v in figures.items() if k != "hidden"})

            page = viewer_client.get(url).content.decode()

            hidden = _hidden_expected(ppd)
            assert _hidden_note(page).startswith(f"{hidden} Oracle-maintained"), url
            assert _stored_figures(ppd).values_list("figures__hidden", flat=True).get() == hidden, url
