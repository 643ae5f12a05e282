"""The segment page: its head, and its body rendered once per state of what it shows (apps.dashboard.page_cache)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from apps.dashboard.page_cache import page_body
from apps.dashboard.segment.body import segment_body
from apps.dashboard.selectors import segment_label
from apps.snapshots.models import Segment
from apps.targets.models import Target


@require_GET
def segment_detail(request: HttpRequest, name: str, segment_id: int) -> HttpResponse:
    target = get_object_or_404(Target.objects.select_related("tier_set"), name=name)
    segment = get_object_or_404(Segment, pk=segment_id, target=target)
    body = page_body(request, "dashboard/segment_body.html", lambda: segment_body(request, target, segment),
                     target_id=target.id, segment_id=segment.id)
    label = segment_label(segment.owner, segment.object_name, segment.subobject_name,
                          segment.parent_partition, segment.container)
    return render(request, "dashboard/segment.html", {"target": target, "segment": segment, "label": label,
                                                      "body": body})
