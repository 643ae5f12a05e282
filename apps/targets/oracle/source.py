"""The live Oracle source: AWR history (awr or nopack mode) plus V$ samples, as one Collection.

awr mode reads the segment history from DBA_HIST_SEG_STAT and the system / tablespace
figures from DBA_HIST_SYSSTAT / DBA_HIST_FILESTATXS (Diagnostics Pack). nopack mode reads
only the pack-exempt DBA_HIST views (snapshots and segment history) and V$ views; its system
and tablespace figures come from the cumulative samples, turned into intervals by storage
with :func:`apps.targets.deltas.sample_interval`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import oracledb

from apps.targets.base import CheckReport, CheckStep, CollectState, Source, SourceError
from apps.targets.deltas import IntervalDelta, cumulative_deltas
from apps.targets.oracle import queries
from apps.targets.oracle.connection import Connect, Deadline, Limits, OracleTimeout, oracle_cursor
from apps.targets.oracle.containers import Containers, fetch_containers, seg_stat_in, segments_in
from apps.targets.oracle.errors import StatementFailed, source_error_from, source_error_from_timeout
from apps.targets.oracle.features import Features, check_mode, check_pack_access, features_for
from apps.targets.oracle.partitions import annotate_segments, fetch_partition_catalog
from apps.targets.oracle.queries import (
    FilestatSampleRow,
    InstanceListRow,
    InstanceRow,
    SegstatSampleRow,
    SnapshotRow,
    SysstatSampleRow,
)
from apps.targets.oracle.room import room_read
from apps.targets.oracle.segment_sql import segment_sql_read
from apps.targets.rows import (
    Collection,
    CounterSample,
    DatabaseInfo,
    SegmentInfo,
    SegmentKey,
    SegmentStat,
    Snapshot,
    SysStat,
    TablespaceIO,
)

DEFAULT_BLOCK_SIZE_BYTES = 8192


@dataclass(frozen=True)
class _History:
    snapshots: tuple[Snapshot, ...] = ()
    notes: tuple[str, ...] = ()


class OracleSource(Source):
    """A live Oracle target read with python-oracledb Thin mode (12.1 and later).

    ``connect(dsn=, user=, password=)`` returns a connection; the default opens a standalone one
    bounded by ``limits`` (connect, call, whole run). Tests pass a fake that replays recorded rows.
    ``name`` is the target's name, for messages.
    """

    def __init__(self, *, dsn: str, user: str, password: str, mode: str, connect: Connect | None = None,
                 limits: Limits | None = None, name: str = "") -> None:
        self.dsn = dsn
        self.user = user
        self._password = password
        self.mode = check_mode(mode)
        self._connect = connect
        self.limits = limits or Limits()
        self.name = name or dsn

    def __repr__(self) -> str:  # never show the password
        return f"OracleSource(dsn={self.dsn!r}, user={self.user!r}, mode={self.mode!r})"

    def collect(self, state: CollectState) -> Collection:
        """Read snapshots newer than ``state``, current segments, residency and V$ samples."""
        return self._with_cursor(lambda cursor: self._collect(cursor, state), what="collection")

    def check(self, *, report: CheckReport | None = None) -> list[str]:
        """Connect, read the release, the catalog and the pack switch, step by step.

        Each step goes to ``report`` as it completes; the first failed one ends the check and
        its message is the only finding.
        """
        steps = _StepRecorder(report)
        try:
            self._with_cursor(lambda cursor: self._check(cursor, steps), what="check")
        except SourceError as exc:
            steps.fail(str(exc))
            return [str(exc)]
        return []

    def _with_cursor(self, work: Callable[[Any], Any], *, what: str) -> Any:
        try:
            with oracle_cursor(dsn=self.dsn, user=self.user, password=self._password, connect=self._connect,
                               limits=self.limits, deadline=Deadline(self.limits.run_timeout_s)) as cursor:
                return work(cursor)
        except StatementFailed as exc:
            cause = exc.__cause__ or exc
            if isinstance(cause, OracleTimeout):
                raise source_error_from_timeout(cause, dsn=self.dsn, target=self.name, work=what) from cause
            raise source_error_from(cause, dsn=self.dsn, user=self.user, statement=exc.statement,
                                    views=exc.views) from cause
        except OracleTimeout as exc:
            raise source_error_from_timeout(exc, dsn=self.dsn, target=self.name, work=what) from exc
        except oracledb.Error as exc:
            raise source_error_from(exc, dsn=self.dsn, user=self.user) from exc

    def _check(self, cursor: Any, steps: _StepRecorder) -> None:
        steps.passed(f"connected to {self.dsn} as {self.user}", next_step="release")
        instance = queries.fetch_instance(cursor, mode=self.mode)
        features_for(instance.version)
        steps.passed(f"Oracle {instance.version} ({instance.db_name}), supported", next_step="grants")
        parameters = queries.fetch_parameters(cursor, mode=self.mode)
        steps.passed("catalog views readable (V$INSTANCE, V$PARAMETER)", next_step="pack")
        access = parameters.get("control_management_pack_access")
        check_pack_access(access, mode=self.mode)
        steps.passed(f"CONTROL_MANAGEMENT_PACK_ACCESS = {access or 'unknown'}: fits {self.mode} mode")

    def _collect(self, cursor: Any, state: CollectState) -> Collection:
        mode = self.mode
        instance = queries.fetch_instance(cursor, mode=mode)
        features = features_for(instance.version)
        parameters = queries.fetch_parameters(cursor, mode=mode)
        # Read every time, before any DBA_HIST statement: the DBA may switch the pack off.
        check_pack_access(parameters.get("control_management_pack_access"), mode=mode)
        offset = instance.server_utc_offset_min
        # GV$INSTANCE carries the server clock: read it right before the samples.
        instances = queries.fetch_instances(cursor, mode=mode, utc_offset_min=offset)
        segstat_rows = queries.fetch_segstat_sample(cursor, mode=mode)
        sysstat_rows = queries.fetch_sysstat_sample(cursor, mode=mode)
        filestat_rows = queries.fetch_filestat_sample(cursor, mode=mode)
        containers = fetch_containers(cursor, mode=mode, features=features)
        # Composite partitions, bounds and methods (apps.targets.oracle.partitions).
        partition_catalog = fetch_partition_catalog(cursor, mode=mode)
        segments = segments_in(annotate_segments(queries.fetch_segments(cursor, mode=mode), partition_catalog),
                               containers)
        datafiles = queries.fetch_datafiles(cursor, mode=mode)
        room = room_read(cursor, mode=mode, datafiles=datafiles, user=self.user)
        rac = is_rac(parameters, instances)
        residency = queries.fetch_residency(
            cursor, mode=mode, rac=rac, instance_numbers={row.inst_id: row.instance_number for row in instances}
        )
        history = self._history(cursor, state, instance=instance, features=features, containers=containers)
        seen = {row.instance_number for row in instances} | {snap.instance_number for snap in history.snapshots}
        segment_sql, sql_source = segment_sql_read(cursor, mode=mode, dbid=instance.dbid, utc_offset_min=offset,
                                                   snapshots=history.snapshots, now=state.now)
        return Collection(
            database=DatabaseInfo(
                dbid=instance.dbid,
                db_name=instance.db_name,
                release=instance.version,
                is_rac=rac,
                instances=tuple(sorted(seen)),
                block_size_bytes=int(parameters.get("db_block_size") or DEFAULT_BLOCK_SIZE_BYTES),
                pack_access=parameters.get("control_management_pack_access"),
            ),
            snapshots=history.snapshots,
            segments=segments,
            residency=residency,
            samples=build_samples(instances, segments, segstat_rows, sysstat_rows, filestat_rows),
            tablespaces=room.tablespaces,
            datafiles=datafiles,
            disk_groups=room.disk_groups,
            collected_at=state.now,
            notes=(*history.notes, *room.notes, *partition_catalog.notes),
            segment_sql=segment_sql,
            segment_sql_source=sql_source,
        )

    def _history(self, cursor: Any, state: CollectState, *, instance: InstanceRow, features: Features,
                 containers: Containers) -> _History:
        dbid, offset = instance.dbid, instance.server_utc_offset_min
        last_by_instance = {inst: snap for (db, inst), snap in state.last_snap_ids.items() if db == dbid}
        # One query for all instances from the lowest stored SNAP_ID; each instance then keeps
        # only what is newer than its own (RAC instances share SNAP_IDs, so this costs little).
        floor = min(last_by_instance.values(), default=0)
        bounds = dict(dbid=dbid, last_snap_id=floor, begin_at=state.history_start_at, utc_offset_min=offset)
        rows = queries.fetch_snapshots(cursor, mode=self.mode, **bounds)
        new = [row for row in rows if row.snap_id > last_by_instance.get(row.instance_number, 0)]
        if not new:
            return _History()
        seg_stat_rows = seg_stat_in(queries.fetch_seg_stat(cursor, mode=self.mode, features=features, **bounds),
                                    containers)
        pack_sysstat_rows = pack_filestat_rows = ()
        if self.mode == "awr":
            # SNAP_ID >= floor (inclusive) inside these two: the stored snapshot is the baseline.
            pack_sysstat_rows = queries.fetch_pack_sysstat(cursor, mode=self.mode, **bounds)
            pack_filestat_rows = queries.fetch_pack_filestat(cursor, mode=self.mode, **bounds)
        snapshots = assemble_history(snapshot_rows=new, seg_stat_rows=seg_stat_rows,
                                     pack_sysstat_rows=pack_sysstat_rows, pack_filestat_rows=pack_filestat_rows)
        return _History(snapshots=snapshots, notes=history_notes(new, last_by_instance))


class _StepRecorder:
    """Reports check steps as they complete; knows which step is running when one fails."""

    def __init__(self, report: CheckReport | None) -> None:
        self._report = report
        self.current = "connect"

    def passed(self, detail: str, *, next_step: str = "") -> None:
        if self._report is not None:
            self._report(CheckStep(step=self.current, ok=True, detail=detail))
        self.current = next_step

    def fail(self, detail: str) -> None:
        if self._report is not None:
            self._report(CheckStep(step=self.current or "check", ok=False, detail=detail))


def assemble_history(
    *, snapshot_rows: Iterable[queries.SnapshotRow], seg_stat_rows: Iterable[queries.SegStatRow] = (),
    pack_sysstat_rows: Iterable[Any] = (), pack_filestat_rows: Iterable[Any] = (),
    seg_stats: Mapping[tuple[int, int], Sequence[SegmentStat]] | None = None,
) -> tuple[Snapshot, ...]:
    """AWR history rows -> Snapshots: segment deltas as read, system and tablespace figures as
    deltas of their cumulative values (never across a restart or a gap). Shared by the live
    source and the offline extract reader, so both map rows identically. ``seg_stats``: the
    segment statistics already grouped by (instance, snap_id), instead of ``seg_stat_rows`` (the
    extract's, kept on disk a snapshot at a time: apps.targets.extract.spill)."""
    seg_stats = _seg_stats_by_snapshot(seg_stat_rows) if seg_stats is None else seg_stats
    sysstats = _sysstats_by_snapshot(cumulative_deltas(pack_sysstat_rows))
    tablespace_io = _tablespace_io_by_snapshot(cumulative_deltas(pack_filestat_rows))
    return tuple(
        Snapshot(
            dbid=row.dbid, instance_number=row.instance_number, snap_id=row.snap_id,
            begin_at=row.begin_at, end_at=row.end_at, startup_at=row.startup_at,
            segment_stats=seg_stats.get((row.instance_number, row.snap_id), ()),
            sysstats=sysstats.get((row.instance_number, row.snap_id), ()),
            tablespace_io=tablespace_io.get((row.instance_number, row.snap_id), ()),
            top_n_only=True,
        )
        for row in sorted(snapshot_rows, key=lambda r: (r.instance_number, r.snap_id))
    )


def is_rac(parameters: dict[str, str | None], instances: Iterable[InstanceListRow]) -> bool:
    """RAC when CLUSTER_DATABASE is TRUE (even with one instance up) or GV$ shows several."""
    clustered = (parameters.get("cluster_database") or "").strip().upper() == "TRUE"
    return clustered or len({row.instance_number for row in instances}) > 1


def _seg_stats_by_snapshot(rows: Iterable[queries.SegStatRow]) -> dict[tuple[int, int], tuple[SegmentStat, ...]]:
    grouped: dict[tuple[int, int], list[SegmentStat]] = defaultdict(list)
    for row in rows:
        grouped[(row.instance_number, row.snap_id)].append(row.stat)
    return {key: tuple(stats) for key, stats in grouped.items()}


def _sysstats_by_snapshot(deltas: Iterable[IntervalDelta]) -> dict[tuple[int, int], tuple[SysStat, ...]]:
    grouped: dict[tuple[int, int], list[SysStat]] = defaultdict(list)
    for delta in deltas:
        _dbid, instance_number, name = delta.key
        grouped[(int(instance_number), delta.snap_id)].append(SysStat(name=str(name), value=int(delta.values[0])))
    return {key: tuple(sorted(stats, key=lambda stat: stat.name)) for key, stats in grouped.items()}


def _tablespace_io_by_snapshot(deltas: Iterable[IntervalDelta]) -> dict[tuple[int, int], tuple[TablespaceIO, ...]]:
    grouped: dict[tuple[int, int], list[TablespaceIO]] = defaultdict(list)
    for delta in deltas:
        _dbid, instance_number, tablespace = delta.key
        reads, writes, read_ms = delta.values
        grouped[(int(instance_number), delta.snap_id)].append(
            TablespaceIO(tablespace_name=str(tablespace), read_requests=int(reads), write_requests=int(writes),
                         read_time_ms=float(read_ms)))
    return {key: tuple(sorted(rows, key=lambda io: io.tablespace_name)) for key, rows in grouped.items()}


def history_notes(snapshots: Iterable[SnapshotRow], last_by_instance: dict[int, int]) -> tuple[str, ...]:
    """Things the DBA should know: AWR gaps (missing SNAP_IDs) and instance restarts."""
    notes = []
    by_instance: dict[int, list[SnapshotRow]] = defaultdict(list)
    for row in snapshots:
        by_instance[row.instance_number].append(row)
    for instance_number, rows in sorted(by_instance.items()):
        rows.sort(key=lambda row: row.snap_id)
        previous_id = last_by_instance.get(instance_number)
        previous_row: SnapshotRow | None = None
        for row in rows:
            if previous_id is not None and row.snap_id > previous_id + 1:
                missing = (f"snapshot {previous_id + 1}" if row.snap_id == previous_id + 2
                           else f"snapshots {previous_id + 1}..{row.snap_id - 1}")
                notes.append(f"AWR gap on instance {instance_number}: {missing} missing")
            if previous_row is not None and row.startup_at != previous_row.startup_at:
                notes.append(f"instance {instance_number} restarted at {row.startup_at.isoformat()}: "
                             f"counters restart at snapshot {row.snap_id}")
            previous_id, previous_row = row.snap_id, row
    return tuple(notes)


def build_samples(
    instances: Sequence[InstanceListRow],
    segments: Sequence[SegmentInfo],
    segstat_rows: Sequence[SegstatSampleRow],
    sysstat_rows: Sequence[SysstatSampleRow],
    filestat_rows: Sequence[FilestatSampleRow],
) -> tuple[CounterSample, ...]:
    """One CounterSample per instance. GV$SEGSTAT rows are named through the segments of the
    same run (OBJ#, DATAOBJ#); a row matching no current segment (dropped since) is left out."""
    by_numbers = {(seg.obj_number, seg.dataobj_number): seg for seg in segments if seg.obj_number is not None}
    samples = []
    for inst in instances:
        segment_totals: dict[SegmentKey, dict[str, int]] = {}
        places: dict[SegmentKey, tuple[str, int | None, int | None]] = {}
        for row in segstat_rows:
            segment = by_numbers.get((row.obj_number, row.dataobj_number))
            if row.inst_id != inst.inst_id or segment is None:
                continue
            segment_totals[segment.key] = dict(row.totals)
            places[segment.key] = (segment.tablespace_name, row.obj_number, row.dataobj_number)
        samples.append(CounterSample(
            instance_number=inst.instance_number,
            startup_at=inst.startup_at,
            sampled_at=inst.sampled_at,
            segment_totals=segment_totals,
            segment_places=places,
            sysstat_totals={row.name: row.value for row in sysstat_rows if row.inst_id == inst.inst_id},
            tablespace_totals={
                row.tablespace_name: (row.read_requests, row.write_requests, row.read_time_ms)
                for row in filestat_rows
                if row.inst_id == inst.inst_id
            },
        ))
    return tuple(samples)
