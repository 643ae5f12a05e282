"""The demo target as a Source: simulated hourly AWR snapshots of an order-entry database.

Snapshots are whole UTC hours numbered from :data:`schema.SNAP_EPOCH_AT`, so an
hour has the same snap_id and the same figures whenever it is collected. The
first collection back-fills from ``state.history_start_at``; later ones return
only the hours after the last stored snap_id. Standard library only.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import time

from apps.targets.base import CollectState, Source, SourceError
from apps.targets.demo import space
from apps.targets.demo.asm import disk_groups_at
from apps.targets.demo.moves import Moves, segments_moved
from apps.targets.demo.schema import (
    BLOCK_SIZE_BYTES,
    first_snap_id_from,
    last_full_snap_id,
    snap_end_at,
)
from apps.targets.demo.simulator import (
    INSTANCE_NUMBER,
    counter_sample,
    residency_at,
    simulate_hour,
)
from apps.targets.demo.space import data_files_at
from apps.targets.demo.statements import statement_rows
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, Snapshot, TablespaceSpace

RELEASE = "19.0.0.0.0"
#: Simulated Oracle round-trip latency of the demo source, in ms (default 0: none). For benchmarks of how
#: collections overlap their waits on the network: the source sleeps this long per round trip it stands for.
ROUNDTRIP_ENV = "TIERSCOPE_DEMO_ROUNDTRIP_MS"
#: The round trips of a collection besides one per snapshot: database, segments, residency, counter sample,
#: tablespaces, data files, disk groups, statements.
FIXED_ROUND_TRIPS = 8


def dbid_for_seed(seed: int) -> int:
    """A fixed DBID for a seed, in the range Oracle DBIDs take (10 digits, < 2**32)."""
    return 1_000_000_000 + (seed * 2_654_435_761 + 97_531) % 3_000_000_000


def snap_ids_to_collect(state: CollectState, dbid: int) -> range:
    """The hours one collection returns, oldest first.

    From the first whole hour at or after ``history_start_at`` (or after the
    last stored snap_id, whichever is later) up to the last hour that has
    ended at ``now``.
    """
    latest = last_full_snap_id(state.now)
    first = first_snap_id_from(state.history_start_at)
    stored = state.last_snap_ids.get((dbid, INSTANCE_NUMBER))
    if stored is not None:
        first = max(first, stored + 1)
    return range(first, latest + 1)


class DemoSource(Source):
    """A simulated Oracle 19c order-entry database; deterministic for a seed and the moves applied to it
    (apps.targets.demo.moves)."""

    mode = "demo"

    def __init__(self, *, seed: int = 42, db_name: str = "DEMO", moves: Moves = (),
                 roundtrip_ms: float | None = None) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"DemoSource: seed must be an int, got {seed!r}")
        if not db_name:
            raise ValueError("DemoSource: db_name must not be empty")
        if roundtrip_ms is None:
            raw = os.environ.get(ROUNDTRIP_ENV, "0")
            try:
                roundtrip_ms = float(raw)
            except ValueError:
                raise ValueError(f"DemoSource: {ROUNDTRIP_ENV} must be a number of milliseconds, got {raw!r}") from None
        if not 0 <= roundtrip_ms <= 60_000:
            raise ValueError(f"DemoSource: the round-trip latency must be 0-60000 ms, got {roundtrip_ms!r}")
        self.roundtrip_ms = roundtrip_ms
        self.round_trips = 0  # simulated round trips so far (each slept roundtrip_ms)
        self.seed = seed
        self.db_name = db_name
        self.dbid = dbid_for_seed(seed)
        self.moves = tuple(sorted(moves))

    def database(self) -> DatabaseInfo:
        """What V$DATABASE / V$INSTANCE would say about the demo database."""
        return DatabaseInfo(
            dbid=self.dbid, db_name=self.db_name, release=RELEASE, is_rac=False,
            instances=(INSTANCE_NUMBER,), block_size_bytes=BLOCK_SIZE_BYTES, pack_access="DIAGNOSTIC+TUNING",
        )

    def collect(self, state: CollectState) -> Collection:
        """Return the hours not yet stored, plus sizes, residency and counters at the latest hour."""
        _check_state(state)
        latest = last_full_snap_id(state.now)
        snapshots = tuple(simulate_hour(self.seed, snap_id, self.dbid, self.moves)
                          for snap_id in snap_ids_to_collect(state, self.dbid))
        self._round_trips(FIXED_ROUND_TRIPS + len(snapshots))
        spaces = tablespace_space_at_moved(latest, self.moves)
        files = data_files_at(latest, spaces)
        return Collection(
            database=self.database(), snapshots=snapshots, segments=segment_infos(latest, self.moves),
            residency=residency_at(self.seed, latest, self.moves),
            samples=(counter_sample(self.seed, latest, self.dbid, self.moves),),
            tablespaces=spaces, datafiles=files, disk_groups=disk_groups_at(files),
            # Residency and sizes describe the end of the latest hour: stamping them with that
            # hour (not the call time) keeps a re-run from adding a duplicate sample.
            collected_at=snap_end_at(latest), notes=_gap_notes(state, self.dbid) + _restart_notes(snapshots),
            # The demo stands for a database with the Diagnostics Pack: ASH names what drives each segment.
            segment_sql=statement_rows(snapshots), segment_sql_source="ash",
        )


    def _round_trips(self, count: int) -> None:
        """Stand for ``count`` round trips to Oracle: counted, and slept when a latency is set."""
        self.round_trips += count
        if self.roundtrip_ms:
            time.sleep(count * self.roundtrip_ms / 1000)


def segment_infos(snap_id: int, moves: Moves = ()) -> tuple[SegmentInfo, ...]:
    """DBA_SEGMENTS as it reads at the end of hour ``snap_id``, ``moves`` applied."""
    return tuple(
        SegmentInfo(
            key=spec.key, tablespace_name=spec.tablespace_name, bytes=spec.size_bytes, blocks=spec.blocks,
            obj_number=spec.obj_number, dataobj_number=spec.dataobj_number, buffer_pool=spec.buffer_pool,
            flash_cache=spec.flash_cache, cell_flash_cache="DEFAULT", partitioned_parent=spec.partitioned_parent,
            lob_column=spec.lob_column, partition_position=spec.partition_position,
            partition_interval=False if spec.partition_position is not None else None,
            parent_partition=spec.parent_partition, partitioning=spec.partitioning,
            partition_bound=spec.partition_bound, partition_order=spec.partition_order,
        )
        for spec in segments_moved(snap_id, moves)
    )


def tablespace_space_at_moved(snap_id: int, moves: Moves) -> tuple[TablespaceSpace, ...]:
    """Room per tablespace at the end of hour ``snap_id`` (apps.targets.demo.space), the segments ``moves``
    took elsewhere counted where they are."""
    rows = space.tablespace_space_at(snap_id)
    shift: dict[str, int] = {}
    for before, after in zip(segments_moved(snap_id), segments_moved(snap_id, moves)):
        if before.tablespace_name != after.tablespace_name:
            shift[before.tablespace_name] = shift.get(before.tablespace_name, 0) - before.size_bytes
            shift[after.tablespace_name] = shift.get(after.tablespace_name, 0) + after.size_bytes
    if not shift:
        return rows
    moved = []
    for row in rows:
        used = (row.used_bytes or 0) + shift.get(row.tablespace_name, 0)
        layout = space.LAYOUTS[row.tablespace_name]
        moved.append(dataclasses.replace(row, used_bytes=used, size_bytes=space.file_size_bytes(layout, used)))
    return tuple(moved)


def _check_state(state: CollectState) -> None:
    for name in ("now", "history_start_at"):
        moment: dt.datetime = getattr(state, name)
        if moment.tzinfo is None or moment.utcoffset() is None:
            raise SourceError(
                f"demo source: CollectState.{name} must be a timezone-aware UTC datetime, got {moment!r}",
                permanent=True,
            )
    if state.history_start_at > state.now:
        raise SourceError(
            f"demo source: CollectState.history_start_at ({state.history_start_at.isoformat()}) is after "
            f"now ({state.now.isoformat()})",
            permanent=True,
        )


def _gap_notes(state: CollectState, dbid: int) -> tuple[str, ...]:
    stored = state.last_snap_ids.get((dbid, INSTANCE_NUMBER))
    first = first_snap_id_from(state.history_start_at)
    if stored is None or stored + 1 >= first:
        return ()
    return (f"snap_ids {stored + 1}..{first - 1} are older than the history window "
            f"(from {state.history_start_at.isoformat()}) and were not collected",)


def _restart_notes(snapshots: tuple[Snapshot, ...]) -> tuple[str, ...]:
    notes = []
    for before, after in zip(snapshots, snapshots[1:]):
        if after.startup_at != before.startup_at:
            notes.append(
                f"instance {after.instance_number} restarted at {after.startup_at.isoformat()} "
                f"(weekly maintenance window): cumulative counters reset from snap_id {after.snap_id}"
            )
    return tuple(notes)
