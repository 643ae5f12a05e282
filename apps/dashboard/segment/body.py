"""The segment page's content: a segment's IO and size over time, its residency, its recommendations and why,
its partitions, before and after a move, and the SQL behind it (the view, apps.dashboard.segment.views, caches
it)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from apps.core.time import day_bounds
from apps.dashboard import charts
from apps.dashboard.periods.before_after import segment_before_after, window_choice
from apps.dashboard.periods.selectors import period_series
from apps.dashboard.periods.views import page_period_context
from apps.dashboard.segment import selectors
from apps.dashboard.segment.partitions import partition_heat, partition_rollup
from apps.dashboard.segment.sql_card import segment_sql_card
from apps.dashboard.selectors import block_size_bytes, segment_label
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.selectors import recommendation_window, tablespace_read_latency_ms


def segment_body(request: HttpRequest, target: Target, segment: Segment) -> dict[str, Any]:
    """What the segment page shows."""
    series = selectors.segment_series(segment_id=segment.id)
    residency = selectors.segment_residency_series(segment_id=segment.id)
    history = selectors.segment_recommendation_history(segment=segment)
    current = next((r for r in history if r.is_current), None)
    explanation = explain([current], target=target)[0] if current else None
    period = page_period_context(request, target, {}, segment_ids=(segment.id,))
    series = period_series(series, period["period"])
    context = {
        **period, "segment_period": period["period"].of(segment.id), "target": target, "segment": segment,
        "series": series, "residency": residency, "history": history,
        "current": current, "reasons": explanation.reasons if explanation else (),
        "ddl": explanation.ddl if explanation else "",
        "window": recommendation_window(run=current.run) if current else None,
        "label": segment_label(segment.owner, segment.object_name, segment.subobject_name, segment.parent_partition,
                               segment.container),
        "io_payload": charts.segment_io_payload(series),
        "size_payload": charts.segment_size_payload(series, current_size_bytes=segment.size_bytes),
        "residency_payload": charts.residency_series_payload(residency, block_size_bytes=block_size_bytes(target)),
        "block_size_bytes": block_size_bytes(target), "basis": target.tier_set.basis,
        "latency": read_latency(segment, current),
    }
    # A partition: its table's partitions by age, the heat the lifecycle reads (apps.tiering.recommendations.lifecycle).
    partitions = partition_heat(segment=segment, run_id=current.run_id) if current else []
    payload = charts.partition_heat_payload(partitions) if len(partitions) > 1 else None
    context["partition_payload"] = payload
    context["partitions"] = list(zip(partitions, payload["ages"])) if payload else []
    # A composite table's subpartition: its partition, the subpartitions listed and their IO summed.
    context["rollup"] = partition_rollup(segment=segment, run_id=current.run_id) if current else None
    context["before_after"] = segment_before_after(segment=segment, choice=window_choice(request.GET))
    context["segment_sql"] = segment_sql_card(segment=segment, target=target, current=current, latency=context["latency"])
    return context


def read_latency(segment: Segment, current) -> dict | None:
    """The read latency the IO time saved is computed from: measured on the segment's tablespace over the
    recommendation's window, else its current tier's nominal one (said so)."""
    if current is None or current.run.window_first_day is None:
        return None
    since, until = day_bounds(current.run.window_first_day, current.run.window_last_day)
    measured = tablespace_read_latency_ms(target_id=segment.target_id, since=since, until=until).get(
        segment.tablespace_name)
    if measured is not None:
        return {"ms": measured, "measured": True}
    tier = current.current_tier
    return {"ms": tier.read_latency_ms if tier else None, "measured": False}
