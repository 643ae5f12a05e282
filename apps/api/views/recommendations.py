"""A target's current recommendations: the recommendations page's filters (its form, so the same values are
accepted), its keyset paging with its signed cursors, and ``fields=`` for a subset of the columns."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from apps.api.errors import BadRequest
from apps.api.pagination import DEFAULT_LIMIT, MAX_LIMIT, bounded_int
from apps.api.recommendation_serializers import RECOMMENDATION_FIELDS, RecommendationSerializer, fields_param
from apps.api.views.base import ApiView, target_or_404
from apps.dashboard.recommendations import run_figures, selectors
from apps.dashboard.recommendations.forms import RecommendationFilterForm
from apps.dashboard.recommendations.keyset import BadCursor, keyset_page
from apps.tiering.recommendations.selectors import recommendation_run_current

SORT_CHOICES = [s for key in selectors.SORTS for s in (key, f"-{key}")]


class RecommendationRunSerializer(serializers.Serializer):
    computed_at = serializers.DateTimeField()
    window_days = serializers.IntegerField()
    statistic = serializers.CharField()
    first_day = serializers.DateField(source="window_first_day", allow_null=True)
    last_day = serializers.DateField(source="window_last_day", allow_null=True)


class RecommendationPageSerializer(serializers.Serializer):
    target = serializers.CharField()
    run = RecommendationRunSerializer(allow_null=True, help_text="the current run; null: none computed yet")
    basis = serializers.CharField(help_text="how the tier set's prices become USD per month")
    sort = serializers.CharField()
    limit = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    next_cursor = serializers.CharField(allow_null=True)
    previous_cursor = serializers.CharField(allow_null=True)
    results = RecommendationSerializer(many=True)


_PARAMETERS = [
    OpenApiParameter("name", str, description="part of OWNER.NAME, any case"),
    OpenApiParameter("owner", str), OpenApiParameter("object_type", str), OpenApiParameter("tablespace", str),
    OpenApiParameter("tier", str, description="recommended tier name"), OpenApiParameter("action", str),
    OpenApiParameter("min_intensity", float, description="IO/s per GB, at least"),
    OpenApiParameter("sort", str, enum=SORT_CHOICES, description="a column, '-' first for descending"),
    OpenApiParameter("limit", int, description=f"rows per page, 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})"),
    OpenApiParameter("after", str, description="next_cursor of the page before"),
    OpenApiParameter("before", str, description="previous_cursor of the page after"),
    OpenApiParameter("fields", OpenApiTypes.STR,
                     description=f"comma-separated columns to answer: {', '.join(RECOMMENDATION_FIELDS)}"),
]


def _link(request, **cursor: str | None) -> str:
    params = {k: v for k, v in request.query_params.items() if k not in ("after", "before")}
    return request.build_absolute_uri(f"{request.path}?{urlencode({**params, **cursor})}")


class RecommendationList(ApiView):
    @extend_schema(operation_id="recommendations_list", summary="A target's current recommendations", parameters=_PARAMETERS,
                   responses=RecommendationPageSerializer)
    def get(self, request, name: str):
        target = target_or_404(name, tier_set=True)
        params = request.query_params
        fields = fields_param(params.get("fields"))
        limit = bounded_int(params, "limit", default=DEFAULT_LIMIT, low=1, high=MAX_LIMIT)
        after, before = params.get("after") or None, params.get("before") or None
        if after and before:
            raise BadRequest("before", "give after or before, not both")
        run = recommendation_run_current(target_id=target.id)
        form = RecommendationFilterForm(params, choices=run_figures.run_choices(run, target=target),
                                        with_action=True)
        if not form.is_valid():
            raise ValidationError({field: [str(e) for e in errors] for field, errors in form.errors.items()})
        sort = form.sort_key()
        # Up to 1,000 rows name a handful of tiers: each tier read once and shared (prefetched), not a tier
        # object per row and column (select_related): most of a large page's time went to building them.
        filtered = (selectors.recommendation_filtered(target_id=target.id, filters=form.filters())
                    .select_related(None).select_related("segment")
                    .prefetch_related("current_tier", "cost_tier", "recommended_tier"))
        try:
            page = keyset_page(filtered, sort=sort, size=limit, after=after, before=before)
        except BadCursor as exc:
            raise BadRequest("before" if before else "after", f"{exc}: start again without it") from None
        basis = target.tier_set.basis
        body: dict[str, Any] = {
            "target": target.name, "run": run, "basis": basis.describe(), "sort": sort, "limit": limit,
            "next": _link(request, after=page.next_cursor) if page.has_next else None,
            "previous": _link(request, before=page.previous_cursor) if page.has_previous else None,
            "next_cursor": page.next_cursor if page.has_next else None,
            "previous_cursor": page.previous_cursor if page.has_previous else None, "results": [],
        }
        data = dict(RecommendationPageSerializer(body).data)  # a plain dict: .data's points back at its serializer
        # One serializer for every row, holding none of them: a many=True serializer keeps the page's rows in its
        # own reference cycle (child and parent point at each other), left for the garbage collector to free.
        serializer = RecommendationSerializer(fields=fields, context={"basis": basis})
        data["results"] = [serializer.to_representation(row) for row in page.rows]
        return Response(data)
