"""Targets (the fleet page's rows), their collection runs, segments and a segment's history, and "collect
now" (the runs page's button: the same service and audit entry)."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from apps.api.filters import RunFilter
from apps.api.recommendation_serializers import SegmentHistorySerializer
from apps.api.serializers import RunSerializer, SegmentSerializer, TargetSerializer
from apps.api.views.base import ApiGenericView, ApiListView, ApiView, target_or_404
from apps.dashboard.fleet.selectors import fleet_overview
from apps.dashboard.runs.selectors import run_get, run_queryset
from apps.dashboard.segment import selectors as segment_selectors
from apps.dashboard.selectors import segment_label
from apps.snapshots.collect_now import collect_now
from apps.snapshots.models import CollectionRun, Segment
from apps.snapshots.run_selectors import RunFigures, run_figures
from apps.snapshots.runs import BrokerUnavailable
from apps.snapshots.selectors import segment_list
from apps.targets.models import Target


def _rows(target_name: str | None = None) -> list:
    """The fleet page's rows (all targets, or the one named), each with its run figures as ``figures``."""
    rows = fleet_overview()
    if target_name is not None:
        rows = [row for row in rows if row.target.name == target_name]
        if not rows:
            raise Http404(f"No target named {target_name!r}.")
    figures = run_figures(target_id=rows[0].target.id) if target_name is not None else run_figures()
    for row in rows:
        object.__setattr__(row, "figures", figures.get(row.target.id) or RunFigures(row.target.id, None, 0))
    return rows


@extend_schema_view(get=extend_schema(
    operation_id="targets_list", summary="List the targets",
    description="The fleet page's rows: each target with its last run, last successful collection, state and "
                "current costs per month."))
class TargetList(ApiListView):
    serializer_class = TargetSerializer
    schema_model = Target

    def rows(self):
        return _rows()


class TargetDetail(ApiGenericView):
    serializer_class = TargetSerializer

    @extend_schema(operation_id="target_get", summary="One target")
    def get(self, request, name: str):
        return Response(TargetSerializer(_rows(name)[0]).data)


@extend_schema_view(get=extend_schema(operation_id="runs_list", summary="List collection runs",
                                      description="Newest first; filter by target and outcome."))
class RunList(ApiListView):
    serializer_class = RunSerializer
    filterset_class = RunFilter

    def rows(self):
        return run_queryset()


class RunDetail(ApiGenericView):
    serializer_class = RunSerializer

    @extend_schema(operation_id="run_get", summary="One collection run")
    def get(self, request, run_id: int):
        try:
            run = run_get(run_id=run_id)
        except CollectionRun.DoesNotExist:
            raise Http404(f"No run {run_id}.") from None
        return Response(RunSerializer(run).data)


class CollectNow(ApiView):
    @extend_schema(operation_id="target_collect", summary="Collect a target now (admins)", request=None,
                   responses={202: RunSerializer, 403: OpenApiResponse(description="report-only target or not admin"),
                              503: OpenApiResponse(description="the task broker did not answer: nothing queued")})
    def post(self, request, name: str):
        target = target_or_404(name)
        try:
            run = collect_now(target=target, actor=request.user)
        except DjangoPermissionDenied as exc:
            raise PermissionDenied(str(exc)) from None
        except BrokerUnavailable as exc:
            return Response({"detail": f"Collection of {target.name} not queued: {exc}",
                             "where": f"{request.method} {request.path}"}, status=status.HTTP_503_SERVICE_UNAVAILABLE)
        return Response(RunSerializer(run_get(run_id=run.id)).data, status=status.HTTP_202_ACCEPTED)


@extend_schema_view(get=extend_schema(operation_id="segments_list", summary="A target's segments",
                                      description="Ordered by id."))
class SegmentList(ApiListView):
    serializer_class = SegmentSerializer
    schema_model = Segment

    def rows(self):
        return segment_list(target_id=target_or_404(self.kwargs["name"]).id)


class SegmentHistory(ApiView):
    @extend_schema(operation_id="segment_history", summary="A segment's history", responses=SegmentHistorySerializer,
                   description="What the segment page's charts read: IO requests and space per snapshot, "
                               "flash-cache residency, and its recommendation in each of the latest runs.")
    def get(self, request, name: str, segment_id: int):
        target = target_or_404(name, tier_set=True)
        try:
            segment = Segment.objects.get(pk=segment_id, target=target)
        except Segment.DoesNotExist:
            raise Http404(f"No segment {segment_id} in target {target.name}.") from None
        history = {
            "segment_id": segment.id,
            "label": segment_label(segment.owner, segment.object_name, segment.subobject_name,
                                   segment.parent_partition, segment.container),
            "series": segment_selectors.segment_series(segment_id=segment.id),
            "residency": segment_selectors.segment_residency_series(segment_id=segment.id),
            "recommendations": segment_selectors.segment_recommendation_history(segment=segment),
        }
        return Response(SegmentHistorySerializer(history, context={"basis": target.tier_set.basis}).data)
