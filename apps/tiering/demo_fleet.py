"""A fleet of generated targets, written by the collection path (manage.py generate_fleet).

Each target gets its own segments (apps.targets.demo.fleet: seed, size and
IO skew varied per target) and hourly snapshots for the last ``days`` days up
to the last whole hour, handed over as a source hands its Collection over and
stored by apps.snapshots.services.collection_store: segments upserted,
snapshots written whole by COPY, re-runs adding only what is missing. The
targets are disabled demo-mode targets (no collector runs for them: their
data is what this wrote), with their tablespaces on the seed's 2009 tiers so
a recommendation refresh prices them.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import time
from collections import defaultdict
from collections.abc import Callable

from apps.core.config import get_config
from apps.snapshots.models import Snapshot as StoredSnapshot
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.demo.fleet import (
    FleetProfile,
    fleet_segment_stats,
    fleet_segments,
    profile_for_seed,
    to_segment_stat,
)
from apps.targets.demo.schema import SNAP_EPOCH_AT, last_full_snap_id, snap_end_at
from apps.targets.demo.source import RELEASE, dbid_for_seed
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey, Snapshot
from apps.tiering.models import Tier
from apps.tiering.tiers import tier_presets_install

#: The fleet generator's tablespaces on the seed's 2009 tier set (apps.tiering.tiers presets).
FLEET_TIER_SET = "seed-2009"
FLEET_TABLESPACE_TIERS = {
    "DATA01": "fast disk", "DATA02": "fast disk", "DATA03": "hi-cap disk", "DATA04": "fast disk",
    "INDX01": "fast disk", "INDX02": "fast disk", "HIST01": "hi-cap disk", "FLASH01": "flash",
}
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class FleetError(ValueError):
    """Bad arguments or a target that cannot be (re)used; nothing was written."""


@dataclasses.dataclass(frozen=True)
class FleetTargetPlan:
    name: str
    seed: int
    segments: int
    profile: FleetProfile
    first_snap_id: int  # first hour still missing
    last_snap_id: int
    exists: bool

    @property
    def hours(self) -> int:
        return max(0, self.last_snap_id - self.first_snap_id + 1)


@dataclasses.dataclass
class FleetTargetResult:
    name: str
    snapshots_added: int = 0
    rows_added: int = 0
    seconds: float = 0.0


def fleet_plan(*, targets: int, segments: int, days: int, seed: int, prefix: str,
               now: dt.datetime) -> list[FleetTargetPlan]:
    """What generating would do, target by target; FleetError (one line) on bad arguments or a target of the
    same name that is not a generated one of this shape. Reads only."""
    for label, value, top in (("--targets", targets, 10_000), ("--segments", segments, 1_000_000),
                              ("--days", days, 400)):
        if not 1 <= value <= top:
            raise FleetError(f"generate_fleet: {label} must be between 1 and {top:,}, got {value}")
    if not _NAME.match(prefix or ""):
        raise FleetError(f"generate_fleet: --prefix {prefix!r} must start with a letter or digit and hold only "
                         "letters, digits, _ . -")
    if len(fleet_name(prefix, targets - 1)) > 60:
        raise FleetError(f"generate_fleet: --prefix {prefix!r} is too long (target names have at most 60 characters)")
    last = last_full_snap_id(now)
    first = last - days * 24 + 1
    plans = []
    for index in range(targets):
        name, target_seed = fleet_name(prefix, index), seed + index
        target = Target.objects.filter(name=name).first()
        start = first
        if target is not None:
            _check_reusable(target, target_seed, segments)
            stored = StoredSnapshot.objects.filter(target=target, dbid=dbid_for_seed(target_seed)).order_by("-snap_id") \
                .values_list("snap_id", flat=True).first()
            if stored is not None:
                start = max(first, stored + 1)
        plans.append(FleetTargetPlan(name=name, seed=target_seed, segments=segments,
                                     profile=profile_for_seed(target_seed), first_snap_id=start, last_snap_id=last,
                                     exists=target is not None))
    return plans


def fleet_name(prefix: str, index: int) -> str:
    return f"{prefix}-{index + 1:03d}"


def _check_reusable(target, seed: int, segments: int) -> None:
    if target.mode != Target.Mode.DEMO or target.enabled or target.demo_seed != seed:
        raise FleetError(f"generate_fleet: target {target.name!r} exists and is not a generated fleet target of "
                         f"seed {seed} (mode {target.mode}, enabled {target.enabled}, seed {target.demo_seed}); "
                         "choose another --prefix or --seed")
    count = target.segments.count()
    if count not in (0, segments):
        raise FleetError(f"generate_fleet: target {target.name!r} exists with {count:,} segments, not "
                         f"{segments:,}; choose another --prefix or the same --segments")


def fleet_target_ensure(plan: FleetTargetPlan):
    """The plan's target, created (disabled, demo mode, tablespaces mapped) when missing."""
    target = Target.objects.filter(name=plan.name).first()
    if target is not None:
        return target
    tier_presets_install()
    target = Target.objects.create(name=plan.name, mode=Target.Mode.DEMO, enabled=False, demo_seed=plan.seed,
                                   tier_set_id=FLEET_TIER_SET)
    tiers = {t.name: t for t in Tier.objects.filter(tier_set=FLEET_TIER_SET)}
    TablespaceTier.objects.bulk_create(
        TablespaceTier(target=target, tablespace_name=tablespace, tier=tiers[tier])
        for tablespace, tier in FLEET_TABLESPACE_TIERS.items())
    return target


def fleet_target_generate(plan: FleetTargetPlan, *, progress: Callable[[str], None] = lambda line: None,
                          chunk_rows: int | None = None) -> FleetTargetResult:
    """Store the plan's missing hours through the collection path, a chunk of hours at a time (each snapshot
    in a transaction of its own, as a collection does), then roll the new days up."""
    target = fleet_target_ensure(plan)
    result = FleetTargetResult(plan.name)
    if not plan.hours:
        return result
    started = time.perf_counter()
    dbid = dbid_for_seed(plan.seed)
    database = DatabaseInfo(dbid=dbid, db_name=f"FLEET{plan.seed % 100_000}", release=RELEASE, is_rac=False,
                            instances=(1,))
    infos = tuple(
        SegmentInfo(key=SegmentKey(o, n, s, t), tablespace_name=ts, bytes=b, blocks=bl, obj_number=obj,
                    dataobj_number=dobj)
        for o, n, s, t, ts, b, bl, obj, dobj in fleet_segments(plan.segments, plan.seed, plan.profile))
    hours_per_chunk = max(1, (chunk_rows or get_config()["FLEET_CHUNK_ROWS"]) // plan.segments)
    for first in range(plan.first_snap_id, plan.last_snap_id + 1, hours_per_chunk):
        hours = min(hours_per_chunk, plan.last_snap_id - first + 1)
        by_snap = defaultdict(list)
        for row in fleet_segment_stats(plan.segments, hours, plan.seed, first_snap_id=first, profile=plan.profile):
            snap_id, stat = to_segment_stat(row)
            by_snap[snap_id].append(stat)
        snapshots = tuple(
            Snapshot(dbid=dbid, instance_number=1, snap_id=snap_id, begin_at=snap_end_at(snap_id - 1),
                     end_at=snap_end_at(snap_id), startup_at=SNAP_EPOCH_AT, segment_stats=tuple(stats),
                     top_n_only=False)
            for snap_id, stats in sorted(by_snap.items()))
        collected_at = snapshots[-1].end_at
        stored = collection_store(
            target=target, kind="demo",
            collection=Collection(database=database, snapshots=snapshots, segments=infos, collected_at=collected_at),
            state=CollectState(now=collected_at, history_start_at=snap_end_at(plan.first_snap_id - 1)))
        result.snapshots_added += stored.snapshots_added
        result.rows_added += stored.snapshots_added * plan.segments
        done = first + hours - plan.first_snap_id
        elapsed = time.perf_counter() - started
        progress(f"{plan.name}: {done}/{plan.hours} hours, {result.rows_added:,} segment-stat rows "
                 f"({result.rows_added / max(elapsed, 1e-9):,.0f} rows/s)")
    segment_days_roll_up(target_id=target.id)
    result.seconds = time.perf_counter() - started
    return result
