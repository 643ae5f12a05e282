"""Recommendations: collected figures -> the cost model and the seed rules -> stored advice with DDL.

Recomputed after every collection (:func:`recommendation_refresh`). The pure
parts live in costmodel.py (money), rules.py (the seeds' reasoning) and
ddl.py (statements); this module only gathers their inputs from the database
and stores their outputs.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from django.db import connection, transaction

from apps.core.config import get_config
from apps.snapshots.models import Residency, Segment
from apps.targets.models import TablespaceTier, Target
from apps.tiering import costmodel, ddl, rules
from apps.tiering.models import Tier
from apps.tiering.selectors import WindowFigures, segment_window_figures, tablespace_read_latency_ms
from apps.tiering.tiers import tier_to_model

RECOMMENDATION_COLUMNS = (
    "target_id", "segment_id", "computed_at", "is_current", "window_days", "statistic", "iops", "read_iops",
    "write_iops", "size_gb", "intensity", "read_requests_per_day", "current_tier_id", "recommended_tier_id",
    "cost_now_usd", "cost_after_usd", "savings_usd", "io_time_saved_s_per_day", "action", "reasons", "ddl",
)


@dataclass(frozen=True)
class RefreshResult:
    recommendations: int
    computed_at: dt.datetime


def tier_presets_install() -> list[str]:
    """Create the preset tiers that do not exist yet (by name); never overwrite an edited tier."""
    from apps.tiering.tiers import preset_rows

    created = []
    for row in preset_rows():
        _, was_created = Tier.objects.get_or_create(name=row["name"], defaults=row)
        if was_created:
            created.append(row["name"])
    return [f"created {len(created)} preset tiers"] if created else []


def _latest_residency(target_id: int) -> dict[int, tuple[int, int]]:
    latest = Residency.objects.filter(target_id=target_id).order_by("-collected_at").values_list("collected_at", flat=True).first()
    if latest is None:
        return {}
    totals: dict[int, tuple[int, int]] = defaultdict(lambda: (0, 0))
    for segment_id, flash, cache in Residency.objects.filter(target_id=target_id, collected_at=latest).values_list(
        "segment_id", "flash_blocks", "cache_blocks"
    ):
        f, c = totals[segment_id]
        totals[segment_id] = (f + flash, c + cache)
    return dict(totals)


def _partition_intensities(segments: Sequence[Segment], intensities: dict[int, float | None]) -> dict[tuple, tuple]:
    groups: dict[tuple, list[tuple[str, float | None]]] = defaultdict(list)
    for seg in segments:
        if seg.object_type in rules.PARTITION_TYPES:
            groups[(seg.owner, seg.object_name, seg.object_type)].append((seg.subobject_name, intensities.get(seg.id)))
    return {key: tuple(values) for key, values in groups.items()}


def _tablespace_for_tier(mappings: Sequence[TablespaceTier]) -> dict[int, str]:
    chosen: dict[int, str] = {}
    for mapping in sorted(mappings, key=lambda m: m.tablespace_name):
        chosen.setdefault(mapping.tier_id, mapping.tablespace_name)
    return chosen


def _flash_cache_enabled(residency: dict[int, tuple[int, int]]) -> bool:
    return any(flash for flash, _ in residency.values())


def window_end(*, target_id: int, now: dt.datetime) -> dt.datetime:
    """The end of a target's recommendation window: its latest snapshot, never later than now."""
    from django.db.models import Max

    from apps.snapshots.models import Snapshot

    latest = Snapshot.objects.filter(target_id=target_id).aggregate(latest=Max("end_at"))["latest"]
    return min(latest, now) if latest else now


def recommendation_refresh(*, target_id: int, now: dt.datetime, window_days: int | None = None,
                           statistic: str | None = None) -> RefreshResult:
    """Recompute every segment's recommendation for one target and store it as current."""
    config = get_config()
    window_days = window_days or config["WINDOW_DAYS"]
    statistic = statistic or config["STATISTIC"]
    target = Target.objects.get(pk=target_id)
    tiers = list(Tier.objects.filter(tier_set=target.tier_set))
    if not tiers:
        return RefreshResult(0, now)
    # The window ends at the target's latest snapshot: the same as now for a live target, and the
    # report's own time for imported reports, so an old report still yields figures.
    until = window_end(target_id=target_id, now=now)
    since = until - dt.timedelta(days=window_days)
    figures = segment_window_figures(target_id=target_id, since=since, until=until, statistic=statistic)
    segments = list(Segment.objects.filter(target_id=target_id))
    mappings = list(TablespaceTier.objects.filter(target_id=target_id).select_related("tier"))
    tier_of_tablespace = {m.tablespace_name: m.tier_id for m in mappings}
    extra_tiers = {m.tier_id: m.tier for m in mappings if m.tier.tier_set != target.tier_set}
    latency = tablespace_read_latency_ms(target_id=target_id, since=since, until=until)
    residency = _latest_residency(target_id)
    rows = build_recommendations(
        target=target, tiers=tiers, segments=segments, figures=figures, tier_of_tablespace=tier_of_tablespace,
        tablespace_for_tier=_tablespace_for_tier(mappings), latency_ms=latency, residency=residency,
        extra_tiers=extra_tiers,
        now=now, window_days=window_days, statistic=statistic,
    )
    recommendation_store(target_id=target_id, rows=rows, now=now)
    return RefreshResult(len(rows), now)


def build_recommendations(
    *, target: Target, tiers: list[Tier], segments: list[Segment], figures: dict[int, WindowFigures],
    tier_of_tablespace: dict[str, int], tablespace_for_tier: dict[int, str], latency_ms: dict[str, float],
    residency: dict[int, tuple[int, int]], now: dt.datetime, window_days: int, statistic: str,
    extra_tiers: dict[int, Tier] | None = None,
) -> list[tuple]:
    extra_tiers = extra_tiers or {}
    model_tiers = [tier_to_model(t) for t in tiers]
    tier_by_name = {t.name: t for t in tiers}
    release = target.capabilities.get("release") or "19.0.0.0.0"
    block_size = int(target.capabilities.get("block_size_bytes") or 8192)
    mapped_tiers = {t.id: t for t in tiers} | extra_tiers
    # Ties keep the current tier only when it belongs to the compared set.
    set_names = {t.id: t.name for t in tiers}
    sized = [s for s in segments if s.size_bytes]
    objects = [
        costmodel.StorageObject(
            name=str(s.id), iops=figures[s.id].iops if s.id in figures else 0.0, gb=s.size_bytes / 1024**3,
            current_tier=set_names.get(tier_of_tablespace.get(s.tablespace_name)),
            read_iops=figures[s.id].read_iops if s.id in figures else 0.0,
        )
        for s in sized
    ]
    choices = {int(c.obj.name): c for c in costmodel.choose_tiers(objects, model_tiers)} if objects else {}
    intensities = {sid: c.obj.intensity for sid, c in choices.items()}
    partitions = _partition_intensities(segments, intensities)
    flash_enabled = _flash_cache_enabled(residency)
    top_n_source = target.mode in (Target.Mode.AWR, Target.Mode.NOPACK, Target.Mode.REPORT)
    rows = []
    for seg in segments:
        rows.append(
            _one_recommendation(
                mapped=mapped_tiers,
                seg=seg, choice=choices.get(seg.id), fig=figures.get(seg.id), model_tiers=model_tiers,
                tier_by_name=tier_by_name, tier_of_tablespace=tier_of_tablespace,
                tablespace_for_tier=tablespace_for_tier, latency_ms=latency_ms, residency=residency.get(seg.id),
                partitions=partitions.get((seg.owner, seg.object_name, seg.object_type), ()),
                release=release, block_size=block_size, flash_enabled=flash_enabled, now=now,
                window_days=window_days, statistic=statistic, target_id=target.id, top_n_source=top_n_source,
            )
        )
    return rows


def _one_recommendation(*, mapped: dict[int, Tier], seg: Segment, choice, fig: WindowFigures | None, model_tiers, tier_by_name,
                        tier_of_tablespace, tablespace_for_tier, latency_ms, residency, partitions, release,
                        block_size, flash_enabled, now, window_days, statistic, target_id, top_n_source) -> tuple:
    current_id = tier_of_tablespace.get(seg.tablespace_name)
    current = mapped.get(current_id) if current_id else None
    gb = seg.size_bytes / 1024**3 if seg.size_bytes else None
    iops = fig.iops if fig else 0.0
    cost_now = cost_after = None
    costs: dict[str, Decimal] = {}
    recommended_name = current.name if current else ""
    if choice is not None:
        costs = choice.costs_by_tier(model_tiers)
        recommended_name = choice.tier_name
        cost_after = costs[recommended_name]
        cost_now = costs.get(current.name) if current else None
        if current is not None and cost_now is None:  # current tier belongs to another tier set
            cost_now = tier_to_model(current).object_cost_usd(choice.obj)
    figures = rules.SegmentFigures(
        owner=seg.owner, object_name=seg.object_name, subobject_name=seg.subobject_name,
        object_type=seg.object_type, tablespace_name=seg.tablespace_name, size_bytes=seg.size_bytes,
        read_requests=fig.read_requests if fig else 0, write_requests=fig.write_requests if fig else 0,
        physical_reads_blocks=fig.physical_reads_blocks if fig else 0,
        physical_reads_direct_blocks=fig.physical_reads_direct_blocks if fig else 0,
        optimized_physical_reads=fig.optimized_physical_reads if fig else 0,
        table_scans=fig.table_scans if fig else 0, db_block_changes=fig.db_block_changes if fig else 0,
        iops=iops, intensity=(iops / gb) if gb else None,
        current_tier=current.name if current else "(unmapped)", recommended_tier=recommended_name or "(unmapped)",
        current_is_flash=bool(current and current.is_flash),
        recommended_is_flash=bool(tier_by_name.get(recommended_name) and tier_by_name[recommended_name].is_flash),
        iops_statistic=statistic,
        flash_blocks=residency[0] if residency else None, cache_blocks=residency[1] if residency else None,
        block_size_bytes=block_size, flash_cache=seg.flash_cache or None, flash_cache_enabled=flash_enabled,
        below_awr_capture=top_n_source and not seg.in_awr,
        partition_intensities=partitions, current_cost=cost_now, recommended_cost=cost_after,
    )
    advice = rules.advise(figures)
    final_tier = tier_by_name.get(advice.recommended_tier) or current
    if choice is not None and final_tier is not None and final_tier.name != recommended_name:
        cost_after = costs.get(final_tier.name, cost_after)
    savings = (cost_now - cost_after) if (cost_now is not None and cost_after is not None) else None
    covered_days = (fig.covered_s / 86400) if fig and fig.covered_s else None
    reads_per_day = (fig.read_requests / covered_days) if covered_days else 0.0
    saved = _io_time_saved_s(reads_per_day, seg, current, final_tier, latency_ms)
    script = _ddl_text(seg, advice, final_tier, tablespace_for_tier, release)
    return (
        target_id, seg.id, now, True, window_days, statistic, iops, fig.read_iops if fig else 0.0,
        fig.write_iops if fig else 0.0, gb, (iops / gb) if gb else None, reads_per_day,
        current.id if current else None, final_tier.id if final_tier else None,
        cost_now, cost_after, savings, saved, advice.action,
        [{"code": r.code, "text": r.text} for r in advice.reasons], script,
    )


def _io_time_saved_s(reads_per_day: float, seg: Segment, current: Tier | None, after: Tier | None,
                     latency_ms: dict[str, float]) -> float | None:
    """Read requests per day x (current latency - latency after the move), in seconds per day."""
    if current is None or after is None or current.id == after.id:
        return 0.0 if current is not None else None
    now_ms = latency_ms.get(seg.tablespace_name, current.read_latency_ms)
    return reads_per_day * (now_ms - after.read_latency_ms) / 1000.0


def _ddl_text(seg: Segment, advice: rules.Advice, tier: Tier | None, tablespace_for_tier: dict[int, str],
              release: str) -> str:
    if advice.action == "keep" or tier is None:
        return ""
    tablespace = tablespace_for_tier.get(tier.id)
    needs_tablespace = advice.action in ("move", "move_partitions")
    if needs_tablespace and not tablespace:
        return (f"-- No tablespace of this target is mapped to tier {tier.name!r}: create one on that storage,\n"
                f"-- map it under Admin > Targets > tablespace tiers, and the DDL will appear here.")
    request = ddl.DdlRequest(
        owner=seg.owner, object_name=seg.object_name, object_type=seg.object_type, release=release,
        subobject_name=seg.subobject_name or None, target_tablespace=tablespace,
        partitioned_parent=seg.partitioned_parent or None, lob_column=seg.lob_column or None,
    )
    try:
        return ddl.ddl_for_action(request, advice.action, hot_partitions=advice.hot_partitions).text()
    except ddl.DdlError as exc:
        return f"-- DDL cannot be generated: {exc}"


def recommendation_store(*, target_id: int, rows: list[tuple], now: dt.datetime) -> None:
    """Replace a target's current recommendations; keep one historical row per segment per UTC day."""
    import json

    day_start = now.replace(hour=0, minute=0, second=0, microsecond=0)
    columns = ", ".join(RECOMMENDATION_COLUMNS)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "DELETE FROM tiering_recommendation WHERE target_id = %s AND is_current AND computed_at >= %s",
            [target_id, day_start],
        )
        cursor.execute("UPDATE tiering_recommendation SET is_current = false WHERE target_id = %s AND is_current",
                       [target_id])
        with cursor.cursor.copy(f"COPY tiering_recommendation ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row((*row[:-2], json.dumps(row[-2]), row[-1]))
