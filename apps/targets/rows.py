"""The one shape of rows every source yields.

Whatever reaches tierscope — live Oracle in ``awr`` or ``nopack`` mode, an AWR
report, an offline extract, the built-in demo — arrives as these frozen
dataclasses, so everything after the source (storage, rollups, the cost model,
the pages) is shared and exercised by every source.

Units are in the field names: ``_blocks`` are Oracle blocks, ``_requests`` are
I/O requests (the figure IOPS comes from), ``_bytes`` bytes, ``_ms``
milliseconds, ``_at`` a timezone-aware UTC datetime.

Two kinds of counters exist:

* **interval deltas** (``SegmentStat``, ``SysStat``, ``TablespaceIO`` inside a
  ``Snapshot``): the change over ``begin_at``..``end_at``, as DBA_HIST_SEG_STAT
  prints ``*_DELTA`` and as an AWR report prints its sections;
* **cumulative samples** (``CounterSample``): values since instance startup, as
  V$SEGSTAT / V$SYSSTAT / V$FILESTAT return them. The storage layer turns two
  consecutive samples of the same instance and startup into an interval
  (``apps.targets.deltas``); a changed ``startup_at`` starts a new baseline.

The storage rows (``TablespaceSpace``, ``DataFile``, ``DiskGroup``) live in
:mod:`apps.targets.rows_storage` and are re-exported here: import every row from this module.

This module is pure: standard library only.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from apps.targets.rows_storage import DataFile as DataFile  # re-exported (the "as" says so to mypy)
from apps.targets.rows_storage import DiskGroup as DiskGroup
from apps.targets.rows_storage import TablespaceSpace as TablespaceSpace

#: Per-segment statistics carried by SegmentStat, in storage order. Every name
#: is a non-negative integer (or None when the source does not have it).
SEGMENT_STAT_FIELDS: tuple[str, ...] = (
    "physical_read_requests",
    "physical_write_requests",
    "physical_reads_blocks",
    "physical_writes_blocks",
    "physical_reads_direct_blocks",
    "physical_writes_direct_blocks",
    "optimized_physical_reads",
    "logical_reads",
    "db_block_changes",
    "table_scans",
)


class SegmentKey(NamedTuple):
    """Stable identity of a segment: survives MOVE / TRUNCATE / REBUILD.

    A NamedTuple rather than a dataclass: it is the dict key of every stored
    row, and tuple hashing/equality run in C (a collection hashes it once per
    segment-stat row).

    ``object_type`` uses DBA_SEGMENTS.SEGMENT_TYPE spelling: TABLE,
    TABLE PARTITION, TABLE SUBPARTITION, INDEX, INDEX PARTITION,
    INDEX SUBPARTITION, LOBSEGMENT, LOBINDEX, LOB PARTITION, LOB SUBPARTITION,
    UNDO, TEMPORARY, CLUSTER, NESTED TABLE, ... ``subobject_name`` is the
    partition or subpartition name, ``""`` when there is none (never None, so
    the key compares simply).

    ``container`` is the pluggable database the segment lives in, as the source names it (the PDB
    name of CDB_SEGMENTS / a CDB report's "PDB Name" column, ``CDB$ROOT`` for the root), ``""`` for a
    non-CDB or a source that does not say. The same owner.object in two PDBs are two segments.
    """

    owner: str
    object_name: str
    subobject_name: str
    object_type: str
    container: str = ""


def segment_name(owner: str, object_name: str, subobject_name: str = "", container: str = "",
                 parent_partition: str = "") -> str:
    """A segment's name as the pages, the CSV and the search show it: owner.object[.partition][.subobject]
    (a subpartition after its partition, when given), after its PDB and a colon for a CDB's segment.

    >>> segment_name("SOE", "ORDERS", "P1")
    'SOE.ORDERS.P1'
    >>> segment_name("SOE", "ORDERS", "", "PDB2")
    'PDB2:SOE.ORDERS'
    >>> segment_name("SOE", "LINES", "P1_H1", parent_partition="P1")
    'SOE.LINES.P1.P1_H1'
    """
    name = ".".join(part for part in (owner, object_name, parent_partition, subobject_name) if part)
    return f"{container}:{name}" if container else name


@dataclass(frozen=True)
class DatabaseInfo:
    """What the source says about the database at collection time."""

    dbid: int
    db_name: str
    release: str  # as V$INSTANCE.VERSION / the report prints it, e.g. "19.0.0.0.0"
    is_rac: bool
    instances: tuple[int, ...]  # instance numbers seen
    block_size_bytes: int = 8192
    pack_access: str | None = None  # CONTROL_MANAGEMENT_PACK_ACCESS when read


@dataclass(frozen=True)
class SegmentStat:
    """One segment's activity over one snapshot interval (deltas)."""

    key: SegmentKey
    tablespace_name: str
    obj_number: int | None
    dataobj_number: int | None
    physical_read_requests: int | None = None
    physical_write_requests: int | None = None
    physical_reads_blocks: int | None = None
    physical_writes_blocks: int | None = None
    physical_reads_direct_blocks: int | None = None
    physical_writes_direct_blocks: int | None = None
    optimized_physical_reads: int | None = None
    logical_reads: int | None = None
    db_block_changes: int | None = None
    table_scans: int | None = None
    space_allocated_bytes: int | None = None  # at the end of the interval, when known
    #: Upper bounds on physical_read_requests / physical_write_requests where they are None because a
    #: top-N source did not list them (an AWR report lists the segment in another section, or prints
    #: #####): the section's smallest listed value, or its total less the rows it lists. None: no bound.
    read_requests_bound: int | None = None
    write_requests_bound: int | None = None
    #: The source cut the name to its column width (text AWR reports) and it could not be resolved.
    name_truncated: bool = False


@dataclass(frozen=True)
class SysStat:
    """A system statistic's change over the interval (V$SYSSTAT name)."""

    name: str
    value: int


@dataclass(frozen=True)
class TablespaceIO:
    """Tablespace file IO over the interval: requests and read time."""

    tablespace_name: str
    read_requests: int
    write_requests: int
    read_time_ms: float | None = None  # total; average = read_time_ms / read_requests


@dataclass(frozen=True)
class Snapshot:
    """One interval of one instance, as AWR numbers it.

    ``snap_id`` is AWR's SNAP_ID for awr/nopack/report/extract sources; the
    demo numbers its hours the same way. ``startup_at`` identifies the
    instance incarnation: counters of different incarnations are never
    subtracted from each other.
    """

    dbid: int
    instance_number: int
    snap_id: int
    begin_at: dt.datetime
    end_at: dt.datetime
    startup_at: dt.datetime
    segment_stats: Sequence[SegmentStat] = ()  # a tuple, or an extract's spilled to disk
    sysstats: tuple[SysStat, ...] = ()
    tablespace_io: tuple[TablespaceIO, ...] = ()
    #: True when segment_stats is AWR's top-N capture (DBA_HIST_SEG_STAT, an
    #: AWR report): absent segments are "below capture", not zero.
    top_n_only: bool = True
    #: For a top-N source: upper bounds on the read / write requests of a segment it lists nowhere
    #: (the smallest value its request sections list, or their totals less the listed rows). None: unknown.
    unlisted_read_requests_bound: int | None = None
    unlisted_write_requests_bound: int | None = None
    #: The interval's length as the source states it (an AWR report's "Elapsed:"), when it differs from
    #: end_at - begin_at (report times are rounded to the minute). None: end_at - begin_at.
    elapsed_s: float | None = None
    #: How many instances the database had in the interval, as an instance report of a RAC database
    #: states it ("Number of Instances"): until every instance's snapshot (or a global report, instance 0)
    #: is stored, the interval's figures are lower bounds. None: not stated (taken as complete).
    database_instances: int | None = None

    @property
    def interval_seconds(self) -> float:
        if self.elapsed_s is not None:
            return self.elapsed_s
        return (self.end_at - self.begin_at).total_seconds()


@dataclass(frozen=True)
class SegmentInfo:
    """A segment as DBA_SEGMENTS lists it now (size, place, cache hints)."""

    key: SegmentKey
    tablespace_name: str
    bytes: int
    blocks: int
    obj_number: int | None = None
    dataobj_number: int | None = None
    buffer_pool: str | None = None  # DEFAULT / KEEP / RECYCLE
    flash_cache: str | None = None  # DEFAULT / KEEP / NONE (Smart Flash Cache hint)
    cell_flash_cache: str | None = None  # DEFAULT / KEEP / NONE (Exadata hint)
    # Partitions: the table/index the partition belongs to. LOB segments: the
    # table that owns the LOB (DBA_LOBS.TABLE_NAME), with the column name alone
    # in lob_column (DBA_LOBS.COLUMN_NAME): quoted names may contain dots, so
    # the two are never joined into one string.
    partitioned_parent: str | None = None
    lob_column: str | None = None
    # LOB (sub)partitions: the table (sub)partition they belong to.
    table_partition_name: str | None = None
    # Table and index partitions: PARTITION_POSITION (range and interval partitions count from the
    # oldest) and whether interval partitioning created it (INTERVAL = 'YES'). None: not said.
    partition_position: int | None = None
    partition_interval: bool | None = None
    # Composite partitioning: a subpartition's partition (DBA_TAB/IND_SUBPARTITIONS.PARTITION_NAME; a LOB
    # subpartition's LOB partition, DBA_LOB_SUBPARTITIONS.LOB_PARTITION_NAME). None: no subpartition, or
    # not said.
    parent_partition: str | None = None
    # How its table or index is partitioned (apps.targets.partitioning.Partitioning.label, e.g.
    # "RANGE(ORDER_DATE)-HASH(ORDER_ID)"), the bound of its partition (HIGH_VALUE as Oracle keeps it; a
    # subpartition's is its partition's) and that partition's rank by bound among its table's (1: oldest;
    # None: not ordered, e.g. a hash partition). None: the source did not say.
    partitioning: str | None = None
    partition_bound: str | None = None
    partition_order: int | None = None


@dataclass(frozen=True)
class Residency:
    """Buffer-cache residency of one data object, from V$BH grouped by OBJD."""

    instance_number: int
    dataobj_number: int
    flash_blocks: int  # STATUS LIKE 'flash%'
    cache_blocks: int  # every other non-free status


@dataclass(frozen=True)
class CounterSample:
    """Cumulative counters sampled from V$ views at one moment.

    Used in nopack mode for everything but segment history, and in every live
    mode for V$SEGMENT_STATISTICS, so that segments below AWR's capture get
    real figures. ``segment_totals`` maps a segment to its cumulative values
    under SEGMENT_STAT_FIELDS names; ``sysstat_totals`` maps V$SYSSTAT names
    to values; ``tablespace_totals`` maps a tablespace to
    (read_requests, write_requests, read_time_ms).
    """

    instance_number: int
    startup_at: dt.datetime
    sampled_at: dt.datetime
    segment_totals: dict[SegmentKey, dict[str, int]] = field(default_factory=dict)
    segment_places: dict[SegmentKey, tuple[str, int | None, int | None]] = field(
        default_factory=dict
    )  # key -> (tablespace_name, obj#, dataobj#)
    sysstat_totals: dict[str, int] = field(default_factory=dict)
    tablespace_totals: dict[str, tuple[int, int, float | None]] = field(default_factory=dict)


#: Where a SegmentSql figure comes from: ASH samples on the segment (Diagnostics Pack, figures from
#: DBA_HIST_SQLSTAT), AWR's captured plans (DBA_HIST_SQL_PLAN + DBA_HIST_SQLSTAT, pack), the cursor cache
#: (GV$SQL + GV$SQL_PLAN, no pack).
SEGMENT_SQL_SOURCES: tuple[str, ...] = ("ash", "sqlstat", "v$sql")
#: A statement's text is kept to its first characters: enough to recognise it (V$SQL.SQL_TEXT holds 1000).
SQL_TEXT_CHARS = 1000


@dataclass(frozen=True)
class SegmentSql:
    """One statement among the top SQL of one segment over an interval (apps.targets.sqldrive says how each
    source attributes it). ``obj_number`` is DBA_OBJECTS.OBJECT_ID (ASH CURRENT_OBJ#, plan OBJECT#); ``key``
    is the segment when the source named it, else the store finds it by ``obj_number``.

    ``samples`` are ASH samples of the statement waiting on the segment (each stands for ``sample_s`` seconds
    of database time); ``read_requests`` the physical read requests attributed to the segment (ASH: the
    statement's read requests in the window times its share of samples on the segment; cursor cache: the
    statement's own when its plan reads no other object, else None); ``statement_read_requests``,
    ``executions`` and ``elapsed_s`` are the statement's own over the window. A figure the source does not
    give is None, never 0.
    """

    obj_number: int
    sql_id: str
    source: str  # one of SEGMENT_SQL_SOURCES
    begin_at: dt.datetime
    end_at: dt.datetime
    key: SegmentKey | None = None
    #: The object as a plan names it (a partitioned table's plan names the table, not its partitions).
    object_owner: str = ""
    object_name: str = ""
    plan_hash_value: int | None = None
    samples: int | None = None
    sample_s: float | None = None
    read_requests: int | None = None
    statement_read_requests: int | None = None
    executions: int | None = None
    elapsed_s: float | None = None
    full_scan: bool | None = None  # TABLE ACCESS FULL / INDEX FAST FULL SCAN of the object in its plan
    plan_objects: int | None = None  # how many objects its plan reads (cursor cache)
    text: str = ""  # at most SQL_TEXT_CHARS characters
    #: Provisional: in-memory ASH (GV$ACTIVE_SESSION_HISTORY) not yet in AWR; replaced once AWR has the time.
    recent: bool = False


@dataclass(frozen=True)
class Collection:
    """Everything one collection run of one target brought back."""

    database: DatabaseInfo
    snapshots: tuple[Snapshot, ...] = ()
    segments: tuple[SegmentInfo, ...] = ()
    residency: tuple[Residency, ...] = ()
    samples: tuple[CounterSample, ...] = ()
    #: Room per permanent tablespace; () when the source does not say (AWR reports, older extracts).
    tablespaces: tuple[TablespaceSpace, ...] = ()
    collected_at: dt.datetime | None = None
    notes: tuple[str, ...] = ()  # things the DBA should know (e.g. "AWR gap 101..104")
    #: Data and temp files (the storage map); () when the source does not say (AWR reports, older extracts).
    datafiles: tuple[DataFile, ...] = ()
    #: Top SQL per segment (apps.targets.sqldrive); ``segment_sql_source`` names what was read ("ash",
    #: "v$sql"), None when the source does not read SQL at all (then () means "not collected", not "none").
    segment_sql: tuple[SegmentSql, ...] = ()
    segment_sql_source: str | None = None
    #: ASM disk groups the instance uses, as read with the files; () when not read (not readable, no ASM, a
    #: source that does not say): their figures then stay unknown.
    disk_groups: tuple[DiskGroup, ...] = ()
