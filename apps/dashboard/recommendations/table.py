"""What a target's recommendation pages share: their head (last run, current recommendations, window, latest
refresh), the run's stored figures, the filter form with the rows it selects, and one keyset page of the
segment table with its totals. The target page, the recommendations page and its CSV read them."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.dashboard.recommendations import run_figures, selectors
from apps.dashboard.recommendations.forms import RecommendationFilterForm
from apps.dashboard.recommendations.hidden import fold_oracle_maintained
from apps.dashboard.recommendations.keyset import BadCursor, keyset_page
from apps.targets.models import Target
from apps.tiering.recommendations.selectors import recommendation_run_current, recommendation_window, refresh_latest


def filtered(request: HttpRequest, target: Target, *, with_action: bool,
             choices: selectors.FilterChoices | None = None) -> tuple[RecommendationFilterForm, Any]:
    """The filter form and the current recommendations it selects (``choices``: the run's stored ones)."""
    form = RecommendationFilterForm(
        request.GET, choices=choices or selectors.recommendation_filter_choices(target_id=target.id),
        with_action=with_action,
    )
    return form, selectors.recommendation_filtered(target_id=target.id, filters=form.filters())


def head(target: Target) -> dict[str, Any]:
    """What the head of a target's pages shows: the last run, the current recommendations and their window
    (the span their figures cover, which the IOPS labels name), and the latest refresh (a Recompute's)."""
    run = recommendation_run_current(target_id=target.id)
    window = recommendation_window(run=run)
    return {"last_run": selectors.target_last_run(target_id=target.id), "reco_run": run, "window": window,
            "iops_label": f"IOPS ({window.words})" if window else "IOPS",
            "refresh": refresh_latest(target_id=target.id),
            "basis": target.tier_set.basis}  # money per month: the target's set's billing basis


def figures(target: Target, run: Any) -> tuple[run_figures.RunFigures, dict[str, Any]]:
    """The current run's stored figures (computed once, apps.dashboard.recommendations.run_figures) and the tier
    set's inputs."""
    tiers = run_figures.tier_inputs(tier_set=target.tier_set_id)  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable
    return run_figures.run_figures(run, target_id=target.id, **tiers), tiers


def table_page(request: HttpRequest, target: Target, *, with_action: bool,
               figures: run_figures.RunFigures | run_figures.TableFigures) -> dict[str, Any]:
    """Filter form, one keyset page in the chosen order, and totals, shared by the target and recommendations
    pages. Unfiltered totals are the run's stored ones; filtered ones are summed over at most
    FILTERED_TOTALS_CAP rows (``capped``: more match, the sums are not shown)."""
    form, rows = filtered(request, target, with_action=with_action, choices=figures.choices)
    filters_set = form.filters() != selectors.RecommendationFilter()
    # Unfiltered, the rows folded away are the run's stored count (apps.dashboard.recommendations.run_figures).
    folded = fold_oracle_maintained(rows, params=request.GET, owner=form.filters().owner,
                                    hidden=None if filters_set else figures.hidden)
    sort = form.sort_key()
    note = ""
    try:
        before = {"": None, "end": ""}.get(request.GET.get("before", ""), request.GET.get("before"))
        page = keyset_page(folded.rows, sort=sort, size=form.page_size(), after=request.GET.get("after") or None,
                           before=before)
    except BadCursor as exc:
        note = f"Page link ignored ({exc}): showing the first page."
        page = keyset_page(folded.rows, sort=sort, size=form.page_size())
    selectors.lob_indexes_attach(page.rows)
    totals = selectors.recommendation_totals_capped(rows) if filters_set else {**figures.totals, "capped": False}
    return {"form": form, "page": page, "sort": sort, "filtered": rows, "totals": totals, "table_totals": totals,
            "filters_set": filters_set, "page_note": note, "folded": folded,
            "payback_shown": payback_shown(target, figures.totals)}


def payback_shown(target: Target, run_totals: dict[str, Any]) -> bool:
    """Whether the table has a Payback column: not when the tier set sets no cost per move and no move of the run
    has a one-off cost to repay (every cell would say "no move cost set"; the table says it once instead). Totals
    stored before ``repaying`` was counted show the column."""
    return not (target.tier_set.move_cost_usd == 0 and run_totals.get("repaying") == 0)
