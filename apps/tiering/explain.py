"""The reasons and the DDL of stored recommendations, worded when they are shown.

A refresh stores each segment's figures and decision (apps.tiering.services);
the segment page and the export turn them back into the seed rules' figures
and run the same rules (rules.advise_many) for the words, and ddl.py for the
statements. The partition-skew reason needs the other partitions of the same
table or index: they are read from the same refresh.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from apps.snapshots.models import Segment
from apps.targets.models import TablespaceTier, Target
from apps.tiering import ddl, rules
from apps.tiering.costmodel import BillingBasis
from apps.tiering.models import Recommendation, Tier

_UNMEASURED = 1 << rules.FINDING_CODES.index("unmeasured")


@dataclass(frozen=True)
class Explanation:
    """The words and statements of one recommendation; ``action`` is the one they were worded from, which is
    the stored one as long as the stored figures reproduce the refresh's decision."""

    reasons: tuple[rules.Reason, ...]
    ddl: str
    action: str = ""


def explain(recs: Sequence[Recommendation], *, target: Target,
            siblings: dict[tuple, tuple] | None = None) -> list[Explanation]:
    """Reasons and DDL for each recommendation (select_related segment and the three tiers first).

    ``siblings``: partition_siblings of the recommendations' runs, when the
    caller explains many batches of the same runs; else read here.
    """
    if not recs:
        return []
    if siblings is None:
        siblings = _partition_intensities(recs, target_id=target.id)
    block_size = int(target.capabilities.get("block_size_bytes") or 8192)
    basis = target.tier_set.basis  # the unit the reasons quote costs in
    advices = rules.advise_many([_figures(rec, siblings, block_size, basis) for rec in recs])
    tablespace_for_tier = _tablespace_for_tier(target.id)
    release = target.capabilities.get("release") or "19.0.0.0.0"
    return [
        Explanation(reasons=advice.reasons,
                    ddl=ddl_text(rec.segment, advice, rec.recommended_tier, tablespace_for_tier, release),
                    action=advice.action)
        for rec, advice in zip(recs, advices)
    ]


def _figures(rec: Recommendation, siblings: dict[tuple, tuple], block_size: int,
             basis: BillingBasis) -> rules.SegmentFigures:
    seg = rec.segment
    current, cheapest = rec.current_tier, rec.cost_tier
    return rules.SegmentFigures(
        owner=seg.owner, object_name=seg.object_name, subobject_name=seg.subobject_name,
        object_type=seg.object_type, tablespace_name=seg.tablespace_name, size_bytes=rec.size_bytes,
        read_requests=rec.read_requests, write_requests=rec.write_requests,
        physical_reads_blocks=rec.physical_reads_blocks, physical_reads_direct_blocks=rec.physical_reads_direct_blocks,
        optimized_physical_reads=rec.optimized_physical_reads, table_scans=rec.table_scans,
        db_block_changes=rec.db_block_changes, iops=rec.iops, intensity=rec.intensity,
        # Held as unmeasured is the stored decision (a bounded segment whose tier holds over its bound moves);
        # which requests are unknown shows in the IOPS left NULL.
        unmeasured=bool(rec.findings & _UNMEASURED), iops_bound=rec.iops_bound,
        reads_unmeasured=None if rec.measured else rec.read_iops is None,
        writes_unmeasured=None if rec.measured else rec.write_iops is None,
        name_truncated=seg.name_truncated,
        current_tier=current.name if current else "(unmapped)",
        recommended_tier=cheapest.name if cheapest else "(unmapped)",
        current_is_flash=bool(current and current.is_flash), recommended_is_flash=bool(cheapest and cheapest.is_flash),
        iops_statistic=rec.statistic, flash_blocks=rec.flash_blocks, cache_blocks=rec.cache_blocks,
        block_size_bytes=block_size, flash_cache=rec.flash_cache or None, flash_cache_enabled=rec.flash_cache_enabled,
        below_awr_capture=rec.below_awr_capture,
        partition_intensities=siblings.get((rec.run_id, *_group(seg)), ()),
        current_cost=rec.cost_now_usd, recommended_cost=rec.cost_tier_usd,
        cost_unit=basis.unit, cost_months=basis.divisor,
    )


def _group(seg: Segment) -> tuple[str, str, str]:
    return seg.owner, seg.object_name, seg.object_type


def _partition_intensities(recs: Sequence[Recommendation], *, target_id: int) -> dict[tuple, tuple]:
    """(run, owner, name, type) -> ((partition, intensity), ...) for the partitions among ``recs``."""
    wanted = {(rec.run_id, *_group(rec.segment)) for rec in recs
              if rec.segment.object_type in rules.PARTITION_TYPES}
    if not wanted:
        return {}
    names = {key[2] for key in wanted} if len(wanted) <= 50 else None  # a few groups (a page): only theirs
    found = partition_siblings(run_ids={key[0] for key in wanted}, target_id=target_id, names=names)
    return {key: values for key, values in found.items() if key in wanted}


def partition_siblings(*, run_ids: set[int], target_id: int, names: set[str] | None = None) -> dict[tuple, tuple]:
    """(run, owner, name, type) -> ((partition, intensity), ...) for every partitioned table or index of the
    runs (those called ``names`` only, when given)."""
    rows = Recommendation.objects.filter(run__in=run_ids, run__target_id=target_id,
                                         segment__object_type__in=rules.PARTITION_TYPES)
    if names is not None:
        rows = rows.filter(segment__object_name__in=names)
    groups: dict[tuple, list] = defaultdict(list)
    for run_id, owner, name, kind, subobject, intensity in rows.values_list(
        "run_id", "segment__owner", "segment__object_name", "segment__object_type", "segment__subobject_name",
        "intensity",
    ).order_by():
        groups[(run_id, owner, name, kind)].append((subobject, intensity))
    return {key: tuple(values) for key, values in groups.items()}


def _tablespace_for_tier(target_id: int) -> dict[int, str]:
    """The tablespace a move to each tier goes to: the first mapped to it, by name."""
    chosen: dict[int, str] = {}
    for tier_id, tablespace in TablespaceTier.objects.filter(target_id=target_id).order_by(
            "tablespace_name").values_list("tier_id", "tablespace_name"):
        chosen.setdefault(tier_id, tablespace)
    return chosen


def ddl_text(seg: Segment, advice: rules.Advice, tier: Tier | None, tablespace_for_tier: dict[int, str],
             release: str) -> str:
    """The statements for an advice (a move with its flash cache hint), or a comment saying why there are none."""
    if advice.action == rules.ACTION_KEEP or (tier is None and advice.action != rules.ACTION_NOT_MOVABLE):
        return ""
    if advice.action == rules.ACTION_NOT_MOVABLE:
        tier = None
    tablespace = tablespace_for_tier.get(tier.id) if tier is not None else None
    needs_tablespace = advice.action in (rules.ACTION_MOVE, rules.ACTION_MOVE_PARTITIONS)
    if needs_tablespace and not tablespace:
        return (f"-- No tablespace of this target is mapped to tier {tier.name!r}: create one on that storage,\n"
                f"-- map it under Admin > Targets > tablespace tiers, and the DDL will appear here.")
    request = ddl.DdlRequest(
        owner=seg.owner, object_name=seg.object_name, object_type=seg.object_type, release=release,
        subobject_name=seg.subobject_name or None, target_tablespace=tablespace,
        partitioned_parent=seg.partitioned_parent or None, lob_column=seg.lob_column or None,
        name_truncated=seg.name_truncated,
    )
    try:
        return ddl.ddl_for_action(request, advice.action, hot_partitions=advice.hot_partitions,
                                  flash_cache_hint=advice.flash_cache_hint,
                                  onto_flash=bool(tier is not None and tier.is_flash)).text()
    except ddl.DdlError as exc:
        return f"-- DDL cannot be generated: {exc}"
