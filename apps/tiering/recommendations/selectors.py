"""Reads for recommendations (per-segment window figures: apps.snapshots.windows)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import F, Q, Sum

from apps.snapshots.models import Segment, TablespaceIO
from apps.snapshots.selectors import WindowCoverage, tablespace_space_latest, window_coverage
from apps.snapshots.storage_map import StorageMap, growth_room_read, storage_map_read
from apps.targets.rows import DiskGroup
from apps.tiering.models import Recommendation, RecommendationRun, Refresh
from apps.tiering.moves.feasibility import Move, MoveCheck, feasibility
from apps.tiering.moves.movability import LOB_INDEX_TYPES
from apps.tiering.recommendations.lobfold import LOB_INDEX_PREFIX, LOB_SEGMENT_TYPES, LobRow, lob_index_pairs
from apps.tiering.rules import MOVING_ACTIONS


def tablespace_read_latency_ms(*, target_id: int, since: dt.datetime, until: dt.datetime) -> dict[str, float]:
    """Average read latency per tablespace over the window, where the source collected it."""
    rows = (
        TablespaceIO.objects.filter(
            snapshot__target_id=target_id, snapshot__end_at__gt=since, snapshot__end_at__lte=until,
            read_time_ms__isnull=False,
        )
        .values("tablespace_name")
        .annotate(reads=Sum("read_requests"), time_ms=Sum("read_time_ms"))
        .order_by()
    )
    return {r["tablespace_name"]: r["time_ms"] / r["reads"] for r in rows if r["reads"]}


def lob_index_pairs_read(*, target_id: int) -> dict[int, int]:
    """LOB index segment id -> its LOB segment's id (apps.tiering.recommendations.lobfold), from the target's LOB segments and
    LOB indexes only (a few rows: one query)."""
    rows = Segment.objects.filter(
        Q(object_type__in=sorted(LOB_SEGMENT_TYPES | LOB_INDEX_TYPES))
        | Q(object_type="INDEX", object_name__startswith=LOB_INDEX_PREFIX), target_id=target_id,
    ).values_list("id", "owner", "object_name", "object_type", "partitioned_parent", "lob_column", "container")
    return lob_index_pairs(LobRow(*row) for row in rows)


def segment_names(ids: list[int]) -> dict[int, tuple[str, str, str]]:
    """Segment id -> (owner, object name, tablespace name) of the given segments (one query)."""
    rows = Segment.objects.filter(pk__in=ids).values_list("id", "owner", "object_name", "tablespace_name")
    return {pk: (owner, name, tablespace) for pk, owner, name, tablespace in rows}


def lob_indexes_of(*, run_id: int, lob_ids: list[int]) -> dict[int, list[Recommendation]]:
    """LOB segment id -> the rows of its LOB index in the run (folded into it), with their segments."""
    found: dict[int, list[Recommendation]] = {}
    rows = (Recommendation.objects.filter(run_id=run_id, folded_into_id__in=lob_ids).select_related("segment")
            .order_by("segment__object_name"))
    for rec in rows:
        assert rec.folded_into_id is not None  # the rows are filtered on it
        found.setdefault(rec.folded_into_id, []).append(rec)
    return found


def recommendation_list(*, target_id: int):
    """Current recommendations of a target with their segment and tiers (one query); a LOB index is folded into
    its LOB's row (Recommendation.folded_into) and not listed on its own."""
    return (
        Recommendation.objects.current(target_id=target_id).counted()
        .select_related("run", "segment", "current_tier", "cost_tier", "recommended_tier")
        .order_by("-savings_usd", "segment__owner", "segment__object_name", "segment__subobject_name")
    )


def recommendation_run_current(*, target_id: int) -> RecommendationRun | None:
    return RecommendationRun.objects.filter(target_id=target_id, state=RecommendationRun.State.CURRENT).first()


def recommendation_window(*, run: RecommendationRun | None) -> WindowCoverage | None:
    """What the figures of a recommendation run cover (labels name it); None before the first computation."""
    if run is None or run.window_first_day is None or run.window_last_day is None:
        return None
    return window_coverage(target_id=run.target_id, first_day=run.window_first_day, last_day=run.window_last_day,
                           statistic=run.statistic)


def refresh_latest(*, target_id: int) -> Refresh | None:
    """The target's latest refresh, whatever caused it (a run, the Recompute button, the command)."""
    return Refresh.objects.filter(target_id=target_id).order_by("-queued_at", "-id").first()


#: A current recommendation's decision: (current tier, recommended tier, action).
Decision = tuple[int | None, int | None, str]


def recommendation_decisions(*, target_id: int) -> dict[int, Decision]:
    """Each segment's current decision, to say what a recompute changed (one query)."""
    rows = Recommendation.objects.current(target_id=target_id).values_list(
        "segment_id", "current_tier_id", "recommended_tier_id", "action")
    return {segment_id: (current, recommended, action) for segment_id, current, recommended, action in rows}


def recommendation_changes(before: dict[int, Decision], after: dict[int, Decision]) -> str:
    """What a recompute changed, in words.

    >>> recommendation_changes({1: (1, 2, "move"), 2: (1, 1, "keep")}, {1: (3, 2, "move"), 2: (1, 1, "keep"), 3: (None, None, "keep")})
    '1 changed (current tier, recommended tier or action), 1 new'
    >>> recommendation_changes({}, {})
    'nothing changed'
    """
    changed = sum(1 for segment_id, decision in after.items() if segment_id in before and before[segment_id] != decision)
    new, gone = len(after.keys() - before.keys()), len(before.keys() - after.keys())
    parts = [f"{changed} changed (current tier, recommended tier or action)"] if changed else []
    parts += [f"{new} new"] if new else []
    parts += [f"{gone} gone"] if gone else []
    return ", ".join(parts) or "nothing changed"


@dataclass(frozen=True)
class TablespaceRoom:
    """One tablespace's room on the target page: as collected, and left once the recommended moves ran.

    ``room_after_bytes`` is max size less used after the moves (negative: short by that much; None:
    unknown; a lower bound when not ``room_after_exact``). ``shortfall_bytes`` is what it lacks for
    every recommended move into it (0: none short; None: not known).
    """

    tablespace_name: str
    tier: str | None
    size_bytes: int | None
    used_bytes: int | None
    free_bytes: int | None
    max_size_bytes: int | None
    room_after_bytes: int | None
    room_after_exact: bool
    moves_in: int
    moves_out: int
    short_moves: int
    shortfall_bytes: int | None
    #: The disk groups its autoextensible files grow into, as read (location name, e.g. '+DATA', and the
    #: group; None: not read), and the moves into it that need growth those groups lack (``disk_short_moves``)
    #: or that cannot be checked there (``disk_unknown_moves``: a group whose free space was not read).
    disk_groups: tuple[tuple[str, DiskGroup | None], ...] = ()
    disk_short_moves: int = 0
    disk_shortfall_bytes: int | None = None
    disk_unknown_moves: int = 0


@dataclass(frozen=True)
class TablespaceRoomTable:
    rows: tuple[TablespaceRoom, ...]
    moves: int  # the recommended moves counted, in order of saving
    unplaced_moves: int  # to a tier no tablespace of the target is mapped to: nowhere to count them


def tablespace_room_table(*, target_id: int, storage: StorageMap | None = None) -> TablespaceRoomTable | None:
    """Each tablespace's room now and after the current recommended moves, run in order of saving (the
    biggest first), each against the room the ones before it left (apps.tiering.moves.feasibility). None when
    no source gave the target's tablespace sizes. ``storage``: the target's storage map when the caller has
    read it already."""
    space = tablespace_space_latest(target_id=target_id)
    if not space:
        return None
    # Each tablespace's effective tier: the hand map, else its locations' (the storage map).
    storage = storage or storage_map_read(target_id=target_id)
    mapped = [(name, placed.tier_id, placed.tier_name) for name, placed in sorted(storage.placements.items())
              if placed.tier_id is not None]
    tiers = {name: tier_name for name, _tier_id, tier_name in mapped}
    destinations: dict[int, str] = {}
    for name, tier_id, _tier_name in mapped:
        destinations.setdefault(tier_id, name)  # as the DDL picks it: the first mapped to the tier, by name
    # The current run's id as a value, so that PostgreSQL plans for that run's own size: planned for an average
    # run (current()'s subquery), a small target's read in a large fleet became a parallel scan of every run.
    run_id = RecommendationRun.objects.filter(target_id=target_id, state=RecommendationRun.State.CURRENT).values_list(
        "pk", flat=True).first()
    rows = (Recommendation.objects.filter(run_id=run_id)
            .filter(action__in=MOVING_ACTIONS, recommended_tier__isnull=False)
            .order_by(F("savings_usd").desc(nulls_last=True), "segment_id")
            .values_list("size_bytes", "segment__tablespace_name", "recommended_tier_id"))
    moves = [Move(size, source, destinations.get(tier_id)) for size, source, tier_id in rows]
    groups = {row.name: row.disk_group for row in storage.locations if row.disk_group is not None}
    grows = growth_room_read(target_id=target_id, disk_groups=groups)
    result = feasibility(moves, space, growth=grows.headroom, location_room=grows.location_room)
    table = []
    for name, now in space.items():
        into = [check for move, check in zip(moves, result.checks, strict=True) if move.to_tablespace == name]
        asm = tuple(sorted(place for place, headroom in grows.headroom.get(name, {}).items()
                           if place.startswith("+") and (headroom is None or headroom > 0)))  # full files grow nowhere
        disk_short = [check for check in into if check.disk_fits is False]
        table.append(TablespaceRoom(
            tablespace_name=name, tier=tiers.get(name), size_bytes=now.size_bytes, used_bytes=now.used_bytes,
            free_bytes=now.free_bytes, max_size_bytes=now.max_size_bytes,
            room_after_bytes=result.room_after_bytes.get(name),
            room_after_exact=result.room_after_exact.get(name, True),
            moves_in=len(into), moves_out=sum(1 for move in moves if move.from_tablespace == name),
            short_moves=sum(1 for check in into if check.fits is False),
            shortfall_bytes=_shortfall_for_all(into),
            disk_groups=tuple((place, groups.get(place)) for place in asm),
            disk_short_moves=len(disk_short),
            disk_shortfall_bytes=max((check.disk_shortfall_bytes or 0 for check in disk_short), default=None),
            disk_unknown_moves=sum(1 for check in into if check.growth_bytes and check.disk_fits is None
                                   and any(place.startswith("+") for place in check.disk_locations)),
        ))
    return TablespaceRoomTable(rows=tuple(table), moves=len(moves),
                               unplaced_moves=sum(1 for move in moves if move.to_tablespace is None))


def _shortfall_for_all(into: list[MoveCheck]) -> int | None:
    """What a tablespace lacks for all the moves into it: the largest shortfall (each counts the moves before
    it); not known once one move's room was not."""
    if any(check.fits is None for check in into):
        return None
    return max((check.shortfall_bytes or 0 for check in into), default=0)
