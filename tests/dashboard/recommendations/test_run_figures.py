"""A run's figures are computed once and stored with it: the same numbers as a recomputation from its rows,
read back (not recomputed) on later views, and recomputed when the tier set's figures change."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.dashboard.recommendations import run_figures
from apps.tiering.models import RecommendationRun, RecommendationRunFigures, Tier
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def target(seed_tiers):
    return build_target(name="figs", segments=80)


def current_run(target) -> RecommendationRun:
    return RecommendationRun.objects.get(target=target, state=RecommendationRun.State.CURRENT)


def stored(target) -> dict | None:
    return RecommendationRunFigures.objects.filter(run=current_run(target)).values_list("figures", flat=True).first()


def read_back(target) -> run_figures.RunFigures:
    row = RecommendationRunFigures.objects.get(run=current_run(target))
    return run_figures.figures_from_json(row.figures, row.scatter_json)


def store(target, figures: dict) -> None:
    RecommendationRunFigures.objects.filter(run=current_run(target)).update(figures=figures)


def recompute(target) -> run_figures.RunFigures:
    tiers = run_figures.tier_inputs(tier_set=target.tier_set_id)
    return run_figures.figures_compute(target_id=target.id, run_id=current_run(target).pk,
                                       tier_models=tiers["tier_models"], tier_order=tiers["tier_order"],
                                       edges=tiers["edges"])


def test_the_first_view_stores_the_figures_a_recomputation_gives(viewer_client, target):
    assert stored(target) is None  # a run stored before figures existed
    response = viewer_client.get("/targets/figs/")
    figures = read_back(target)
    assert figures == recompute(target)
    assert response.context["segments_total"] == 80 and response.context["unsized"] == 1
    assert response.context["costs"] == figures.costs and response.context["scatter"] == figures.scatter
    assert response.context["totals"]["count"] == 80 and response.context["totals"]["savings"] == Decimal("40.00")


def test_later_views_read_the_stored_figures(viewer_client, target):
    viewer_client.get("/targets/figs/")
    store(target, dict(stored(target), segments_total=12345))  # what only the stored figures can say
    response = viewer_client.get("/targets/figs/")
    assert response.context["segments_total"] == 12345


def test_a_tier_edited_since_recomputes_the_figures(viewer_client, target):
    viewer_client.get("/targets/figs/")
    before = stored(target)["tiers"]
    tier = Tier.objects.filter(tier_set="seed-2009").first()
    Tier.objects.filter(pk=tier.pk).update(read_latency_ms=tier.read_latency_ms + 1)
    viewer_client.get("/targets/figs/")
    assert stored(target)["tiers"] != before


def test_the_recommendations_page_shows_the_stored_unfiltered_totals(viewer_client, target):
    viewer_client.get("/targets/figs/recommendations/")
    figures = stored(target)
    store(target, dict(figures, totals=dict(figures["totals"], count=999)))
    assert viewer_client.get("/targets/figs/recommendations/").context["totals"]["count"] == 999
    # Filtered: summed from the rows.
    assert viewer_client.get("/targets/figs/recommendations/?tablespace=TS1").context["totals"]["count"] == 20


def test_figures_without_a_run_are_empty(viewer_client, seed_tiers):
    from apps.targets.models import Target

    Target.objects.create(name="bare", mode=Target.Mode.DEMO, tier_set_id="seed-2009", capabilities={})
    response = viewer_client.get("/targets/bare/")
    assert response.status_code == 200 and response.context["segments_total"] == 0


def test_storing_a_run_stores_its_figures(demo_target, collect):
    """A refresh computes the figures as it stores the run: the first page view reads them."""
    collect(demo_target)
    run = RecommendationRun.objects.get(target=demo_target, state=RecommendationRun.State.CURRENT)
    assert run.figures.scatter_json.startswith('{"series"')
    assert read_back(demo_target) == recompute(demo_target)


def test_the_fleet_page_shows_each_current_run_s_stored_totals(viewer_client, target):
    from apps.dashboard.fleet import selectors as fleet

    viewer_client.get("/targets/figs/")
    figures = stored(target)
    store(target, dict(figures, totals=dict(figures["totals"], now="1234.00", unmeasured=7, moves=3, ahead=2)))
    (row,) = fleet.fleet_overview()  # what only the stored figures can say: not a sum of the rows
    assert (row.cost_now_usd, row.unmeasured, row.moves, row.segments) == (Decimal("1234.00"), 7, 5, 80)


def test_the_fleet_page_sums_the_rows_of_a_run_without_stored_figures(target):
    from apps.dashboard.fleet import selectors as fleet

    assert stored(target) is None  # a run stored before figures existed: its rows summed, nothing stored
    (row,) = fleet.fleet_overview()
    assert (row.cost_now_usd, row.cost_after_usd, row.savings_usd) == (Decimal("160.00"), Decimal("120.00"),
                                                                       Decimal("40.00"))
    assert (row.unpriced, row.moves) == (0, 40) and stored(target) is None


def test_the_fleet_reads_its_costs_in_one_query_whatever_the_number_of_targets(seed_tiers,
                                                                                django_assert_num_queries):
    from apps.dashboard.fleet import selectors as fleet

    for name in ("f1", "f2", "f3"):
        run_figures.run_figures_store(current_run(build_target(name=name, segments=20 * len(name))))
    # The targets with their segment counts and last runs, those runs, the stored totals, the flash ratios.
    with django_assert_num_queries(4):
        assert len(fleet.fleet_overview()) == 3


def test_the_recommendations_page_reads_the_stored_totals_and_choices_not_the_charts(viewer_client, target):
    viewer_client.get("/targets/figs/")
    figures = stored(target)
    # Charts the table never shows: a page that parsed them (hundreds of kB at 100k segments) would fail here.
    store(target, dict(figures, skew={}, scatter=None, choices=dict(figures["choices"], owners=["ONLY_STORED"])))
    response = viewer_client.get("/targets/figs/recommendations/")
    assert response.status_code == 200 and "ONLY_STORED" in response.content.decode()
    assert response.context["totals"]["count"] == 80


def test_the_recommendations_page_computes_figures_of_an_older_version(viewer_client, target):
    viewer_client.get("/targets/figs/")
    store(target, dict(stored(target), version=run_figures.VERSION - 1, totals={}))
    assert viewer_client.get("/targets/figs/recommendations/").context["totals"]["count"] == 80
    assert stored(target)["version"] == run_figures.VERSION


def test_the_target_page_embeds_the_scatter_as_json_script_writes_it(viewer_client, target):
    from django.utils.html import json_script

    from apps.dashboard import charts, selectors

    tiers = run_figures.tier_inputs(tier_set=target.tier_set_id)
    payload = charts.scatter_payload(selectors.segment_points(target_id=target.id), labels=selectors.segment_labels,
                                     tier_order=tiers["tier_order"], break_evens=tiers["edges"])
    for _ in ("computed", "read back"):
        assert json_script(payload, "data-scatter") in viewer_client.get("/targets/figs/").content.decode()


def test_the_target_page_embeds_the_stored_scatter_text_as_it_is(viewer_client, target):
    viewer_client.get("/targets/figs/")
    RecommendationRunFigures.objects.filter(run=current_run(target)).update(scatter_json='{"series": ["STORED"]}')
    body = viewer_client.get("/targets/figs/").content.decode()
    assert '<script id="data-scatter" type="application/json">{"series": ["STORED"]}</script>' in body
