"""A run's figures are computed once and stored with it: the same numbers as a recomputation from its rows,
read back (not recomputed) on later views, and recomputed when the tier set's figures change."""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.dashboard import run_figures
from apps.tiering.models import RecommendationRun, Tier
from tests.dashboard.factories import build_target

pytestmark = pytest.mark.django_db


@pytest.fixture
def target(seed_tiers):
    return build_target(name="figs", segments=80)


def current_run(target) -> RecommendationRun:
    return RecommendationRun.objects.get(target=target, state=RecommendationRun.State.CURRENT)


def recompute(target) -> run_figures.RunFigures:
    tiers = run_figures.tier_inputs(tier_set=target.tier_set_id)
    return run_figures.figures_compute(target_id=target.id, run_id=current_run(target).pk,
                                       tier_models=tiers["tier_models"], tier_order=tiers["tier_order"],
                                       edges=tiers["edges"])


def test_the_first_view_stores_the_figures_a_recomputation_gives(viewer_client, target):
    assert current_run(target).figures is None  # a run stored before figures existed
    response = viewer_client.get("/targets/figs/")
    stored = run_figures.figures_from_json(current_run(target).figures)
    assert stored == recompute(target)
    assert response.context["segments_total"] == 80 and response.context["unsized"] == 1
    assert response.context["costs"] == stored.costs and response.context["scatter"] == stored.scatter
    assert response.context["totals"]["count"] == 80 and response.context["totals"]["savings"] == Decimal("40.00")


def test_later_views_read_the_stored_figures(viewer_client, target):
    viewer_client.get("/targets/figs/")
    run = current_run(target)
    figures = dict(run.figures, segments_total=12345)  # what only the stored figures can say
    RecommendationRun.objects.filter(pk=run.pk).update(figures=figures)
    response = viewer_client.get("/targets/figs/")
    assert response.context["segments_total"] == 12345


def test_a_tier_edited_since_recomputes_the_figures(viewer_client, target):
    viewer_client.get("/targets/figs/")
    before = current_run(target).figures["tiers"]
    tier = Tier.objects.filter(tier_set="seed-2009").first()
    Tier.objects.filter(pk=tier.pk).update(read_latency_ms=tier.read_latency_ms + 1)
    viewer_client.get("/targets/figs/")
    assert current_run(target).figures["tiers"] != before


def test_the_recommendations_page_shows_the_stored_unfiltered_totals(viewer_client, target):
    viewer_client.get("/targets/figs/recommendations/")
    run = current_run(target)
    RecommendationRun.objects.filter(pk=run.pk).update(figures=dict(run.figures, totals=dict(run.figures["totals"],
                                                                                             count=999)))
    assert viewer_client.get("/targets/figs/recommendations/").context["totals"]["count"] == 999
    # Filtered: summed from the rows.
    assert viewer_client.get("/targets/figs/recommendations/?tablespace=TS1").context["totals"]["count"] == 20


def test_figures_without_a_run_are_empty(viewer_client, seed_tiers):
    from apps.targets.models import Target

    Target.objects.create(name="bare", mode=Target.Mode.DEMO, tier_set_id="seed-2009", capabilities={})
    response = viewer_client.get("/targets/bare/")
    assert response.status_code == 200 and response.context["segments_total"] == 0
