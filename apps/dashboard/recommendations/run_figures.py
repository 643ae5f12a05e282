"""A recommendation run's figures that depend on all its rows, computed once and stored with the run.

The target and recommendations pages show totals, cost by tier, the skew curve, the scatter, the filter
choices and the segment counts. Recomputing them from 100k rows at each page view took a second; a run's
rows never change once stored, so they are computed once (figures_compute) and kept in
RecommendationRunFigures (one row per run) as JSON, the scatter's points as the JSON text the page embeds. What depends on the tier set's figures (pool charges, the scatter's
tier order and break-even lines) is keyed by a fingerprint of the set's tier rows: a tier edited since
the figures were computed recomputes them rather than show figures of the old prices.

The count of Oracle-maintained and unnamed rows the tables fold away by default (apps.dashboard.recommendations.hidden) is one
of them: counting it joined every row to its segment at each view. Figures stored before it was kept lack it;
it is counted and added to them at their first view (never shown as 0 for "not counted").
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, replace
from decimal import Decimal
from typing import Any

from django.core.serializers.json import DjangoJSONEncoder
from django.forms.models import model_to_dict
from django.utils.html import format_html
from django.utils.safestring import mark_safe

from apps.core.db import json_key
from apps.dashboard import charts
from apps.dashboard.recommendations import selectors
from apps.dashboard.recommendations.hidden import oracle_maintained
from apps.dashboard.rows import TierCost
from apps.dashboard.selectors import segment_labels, segment_points
from apps.targets.models import Target
from apps.tiering.costmodel import break_evens, tiers_by_intensity
from apps.tiering.models import Recommendation, RecommendationRun, RecommendationRunFigures

VERSION = 2  # bump when what is stored changes: older figures are then recomputed on first view


@dataclass(frozen=True)
class RunFigures:
    segments_total: int
    unsized: int
    scatter: dict[str, Any]  # the scatter's counts (plotted, shown, omitted); its points are in scatter_json
    skew: charts.SkewCurve
    costs: list[TierCost]
    totals: dict[str, Decimal | int | None]
    choices: selectors.FilterChoices
    scatter_json: str = "{}"  # the whole scatter payload, as JSON text escaped for a <script> element
    hidden: int | None = None  # unfiltered rows the tables fold away by default; None: not counted yet

    def scatter_script(self) -> str:
        """The scatter payload's <script type="application/json" id="data-scatter"> element, as json_script
        writes it, from the stored text (no parse, no serialisation)."""
        return format_html('<script id="data-scatter" type="application/json">{}</script>',
                           mark_safe(self.scatter_json))  # noqa: S308 -- escaped as json_script does (scatter_text)


SCATTER_COUNTS = ("plotted", "shown", "omitted")


def scatter_text(payload: dict[str, Any]) -> str:
    """The payload's JSON as django.utils.html.json_script writes it (its encoder, its escapes)."""
    return json.dumps(payload, cls=DjangoJSONEncoder).translate(_SCRIPT_ESCAPES)


_SCRIPT_ESCAPES = {ord(">"): "\\u003E", ord("<"): "\\u003C", ord("&"): "\\u0026"}  # json_script's


def tiers_fingerprint(tier_rows: list[Any]) -> str:
    """A digest of the tier set's rows: any edited figure changes it."""
    rows = sorted((model_to_dict(row) for row in tier_rows), key=lambda d: d["id"])
    return hashlib.sha256(json.dumps(rows, default=str, sort_keys=True).encode()).hexdigest()[:32]


def figures_compute(*, target_id: int, run_id: int | None, tier_models: list[Any], tier_order: list[str],
                    edges: list[tuple[str, str, float | None]]) -> RunFigures:
    """Every figure from the run's rows (a few grouped queries and one read of the rows into arrays); run_id
    None: the target's current run, none yet (every figure empty)."""
    points = segment_points(target_id=target_id, run_id=run_id)
    rows = Recommendation.objects.filter(run_id=run_id) if run_id else Recommendation.objects.current(target_id=target_id)
    rows = rows.counted()
    scatter = charts.scatter_payload(points, labels=segment_labels, tier_order=tier_order, break_evens=edges)
    return RunFigures(
        segments_total=len(points), unsized=points.unsized,
        scatter={key: scatter[key] for key in SCATTER_COUNTS}, scatter_json=scatter_text(scatter),
        skew=charts.skew_curve(points),
        costs=selectors.tier_costs(target_id=target_id, tier_models=tier_models, run_id=run_id),
        totals=selectors.recommendation_totals(rows),
        choices=selectors.recommendation_filter_choices(target_id=target_id, run_id=run_id),
        hidden=rows.filter(oracle_maintained()).count(),
    )


def _money(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _decimal(value: str | None) -> Decimal | None:
    return None if value is None else Decimal(value)


def figures_to_json(figures: RunFigures, *, fingerprint: str) -> dict[str, Any]:
    return {
        "version": VERSION, "tiers": fingerprint,
        "segments_total": figures.segments_total, "unsized": figures.unsized,
        "scatter": figures.scatter, "skew": asdict(figures.skew),
        "costs": [{k: str(v) if isinstance(v, Decimal) else v for k, v in asdict(c).items()} for c in figures.costs],
        "totals": figures_json_totals(figures.totals),
        "choices": asdict(figures.choices),
        "hidden": figures.hidden,
    }


def figures_json_totals(totals: dict[str, Any]) -> dict[str, Any]:
    """Totals (selectors.recommendation_totals) as stored: money as text."""
    return {k: _money(v) if k in ("now", "after", "savings") else v for k, v in totals.items()}


def figures_from_json(data: dict[str, Any], scatter_json: str = "{}") -> RunFigures:
    money = ("now", "after", "savings")
    return RunFigures(
        segments_total=data["segments_total"], unsized=data["unsized"], scatter=data["scatter"],
        scatter_json=scatter_json,
        skew=charts.SkewCurve(**data["skew"]),
        costs=[TierCost(tier=c["tier"], now_usd=Decimal(c["now_usd"]), after_usd=Decimal(c["after_usd"]),
                        pool_now_usd=Decimal(c["pool_now_usd"]), pool_after_usd=Decimal(c["pool_after_usd"]))
               for c in data["costs"]],
        totals={k: _decimal(v) if k in money else v for k, v in data["totals"].items()},
        choices=selectors.FilterChoices(**data["choices"]),
        hidden=data.get("hidden"),
    )


def run_figures(run: RecommendationRun | None, *, target_id: int, tier_rows: list[Any], tier_models: list[Any],
                tier_order: list[str],
                edges: list[tuple[str, str, float | None]]) -> RunFigures:
    """The run's stored figures; computed and stored first when missing, of an older version, or of tier
    figures since edited (one query when stored)."""
    if run is None:  # nothing computed yet: empty figures, nothing to store
        return figures_compute(target_id=target_id, run_id=None, tier_models=tier_models, tier_order=tier_order,
                               edges=edges)
    fingerprint = tiers_fingerprint(tier_rows)
    stored = RecommendationRunFigures.objects.filter(run_id=run.pk).values_list("figures", "scatter_json").first()
    if stored and stored[0].get("version") == VERSION and stored[0].get("tiers") == fingerprint:
        figures = figures_from_json(*stored)
        if figures.hidden is None:
            figures = replace(figures, hidden=hidden_store(run.pk, stored[0]))
        return figures
    figures = figures_compute(target_id=run.target_id, run_id=run.pk, tier_models=tier_models, tier_order=tier_order,
                              edges=edges)
    RecommendationRunFigures.objects.update_or_create(
        run_id=run.pk, defaults={"figures": figures_to_json(figures, fingerprint=fingerprint),
                                 "scatter_json": figures.scatter_json})
    return figures


@dataclass(frozen=True)
class TableFigures:
    """What the recommendations table reads of a run's figures: its unfiltered totals and filter choices."""

    totals: dict[str, Decimal | int | None]
    choices: selectors.FilterChoices
    hidden: int | None = None  # as RunFigures.hidden


def table_figures(run: RecommendationRun | None, *, target_id: int, tier_set: str) -> TableFigures:
    """The run's stored totals and filter choices alone (one query reading those two keys, not the charts'
    hundreds of kB); computed and stored first as run_figures does when missing or of an older version. Neither
    depends on the tier set's figures: a tier edited since leaves them true."""
    if run is not None:
        keys = ("version", "totals", "choices", "hidden")
        stored = (RecommendationRunFigures.objects.filter(run_id=run.pk)
                  .annotate(**{f"stored_{key}": json_key("figures", key) for key in keys})
                  .values_list(*(f"stored_{key}" for key in keys)).first())
        if stored and stored[0] == VERSION and stored[1] is not None and stored[2] is not None:
            money = ("now", "after", "savings")
            hidden = stored[3]
            if hidden is None:
                hidden = hidden_store(run.pk, RecommendationRunFigures.objects.values_list("figures", flat=True)
                                      .get(run_id=run.pk))
            return TableFigures(totals={k: _decimal(v) if k in money else v for k, v in stored[1].items()},
                                choices=selectors.FilterChoices(**stored[2]), hidden=hidden)
    figures = run_figures(run, target_id=target_id, **tier_inputs(tier_set=tier_set))
    return TableFigures(totals=figures.totals, choices=figures.choices, hidden=figures.hidden)


def run_choices(run: RecommendationRun | None, *, target: Target) -> selectors.FilterChoices:
    """The filter choices stored with ``run`` (the target's current one): what the CSV download and the API
    check their filters against (the distinct values of 100k rows cost 130 ms at each request)."""
    return table_figures(run, target_id=target.id, tier_set=target.tier_set_id).choices  # type: ignore[arg-type]  # NOT NULL: django-stubs types a foreign key with a default as nullable


def hidden_store(run_id: int, figures: dict[str, Any]) -> int:
    """Counts the run's rows the tables fold away by default and adds the count to its stored ``figures``
    (stored before the count was kept); the count."""
    hidden = Recommendation.objects.filter(run_id=run_id).counted().filter(oracle_maintained()).count()
    RecommendationRunFigures.objects.filter(run_id=run_id).update(figures={**figures, "hidden": hidden})
    return hidden


def tier_inputs(*, tier_set: str) -> dict[str, Any]:
    """What the figures read from the tier set: its rows (fingerprinted), models, order and break-evens."""
    rows, models = selectors.tier_set_models(tier_set=tier_set)
    return {"tier_rows": rows, "tier_models": models, "tier_order": [t.name for t in tiers_by_intensity(models)],
            "edges": [(b.lower, b.upper, b.intensity) for b in break_evens(models)]}


def run_figures_store(run: RecommendationRun) -> RunFigures:
    """Compute a run's figures as it is stored (apps.tiering.recommendations.services.recommendation_store), before it is current."""
    tier_set = Target.objects.values_list("tier_set", flat=True).get(pk=run.target_id)
    return run_figures(run, target_id=run.target_id, **tier_inputs(tier_set=tier_set))
