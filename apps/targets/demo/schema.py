"""The simulated order-entry schema: segments, tablespaces, tiers and sizes.

The demo database is a Swingbench-like ``SOE`` schema plus SYS undo and a few
SYSAUX tables. Which segments exist, where they live and how big they are is
a pure function of the snapshot hour (``segments_at``): ORDERS is range
partitioned by month over a sliding window of 26 partitions (23 months back,
the current month, two months ahead; apps.targets.demo.orders), the current
month's partition grows through the month, and a partition's heat decays as
it ages. ORDER_LINES is composite partitioned, RANGE by month - HASH x 4, its
segments the subpartitions (apps.targets.demo.composite).

A few segments are deliberately misplaced so the recommendations have
something to say: the current ORDERS partition is created in HIST_DATA (the
table's default tablespace, on hi-capacity disk) and only moved to SOE_DATA
after month end; CUSTOMER_ARCHIVE, a cold 35 GB table, sits on FLASH_DATA;
write-heavy INVENTORIES carries FLASH_CACHE KEEP.

Standard library only.
"""

from __future__ import annotations

import datetime as dt
import math
import zlib
from dataclasses import dataclass
from functools import lru_cache

from apps.targets.rows import SegmentKey

BLOCK_SIZE_BYTES = 8192
#: snap_id n is the hour ending at SNAP_EPOCH_AT + n hours, so an hour always
#: gets the same snap_id whenever it is collected.
SNAP_EPOCH_AT = dt.datetime(2020, 1, 1, tzinfo=dt.timezone.utc)
HOUR = dt.timedelta(hours=1)

# Seed tier names (the lead creates these tiers).
TIER_FLASH = "Flash"
TIER_FAST_DISK = "Fast disk"
TIER_HICAP_DISK = "Hi-cap disk"

# How a segment is read.
ACCESS_RANDOM = "random"  # single-block reads through the buffer cache (index / rowid access)
ACCESS_SCAN = "scan"  # large full scans by direct path, multi-block requests
ACCESS_LOB = "lob"  # NOCACHE LOB: direct path reads and writes, bypassing both caches
# When a segment is busy.
CYCLE_BUSINESS = "business"  # order entry: busy office hours, quiet nights and weekends
CYCLE_BATCH = "batch"  # nightly reporting and archiving
CYCLE_FLAT = "flat"  # AWR housekeeping: the same every hour

_MB = 1024 * 1024
_GB = 1024 * _MB


@dataclass(frozen=True)
class Tablespace:
    """A tablespace, the tier its files sit on and that tier's read latency."""

    name: str
    tier: str
    read_latency_ms: float  # average single read served by the tier's devices
    contents: str = "PERMANENT"  # DBA_TABLESPACES.CONTENTS


TABLESPACES: tuple[Tablespace, ...] = (
    Tablespace("FLASH_DATA", TIER_FLASH, 0.3),
    Tablespace("SOE_DATA", TIER_FAST_DISK, 5.0),
    Tablespace("SOE_INDEX", TIER_FAST_DISK, 5.0),
    Tablespace("HIST_DATA", TIER_HICAP_DISK, 12.0),
    Tablespace("UNDOTBS1", TIER_FAST_DISK, 5.0, "UNDO"),
    Tablespace("SYSAUX", TIER_FAST_DISK, 5.0),
    Tablespace("TEMP", TIER_FAST_DISK, 5.0, "TEMPORARY"),
)
TABLESPACE_BY_NAME: dict[str, Tablespace] = {ts.name: ts for ts in TABLESPACES}

#: Tablespace -> tier name, for the demo target's tablespace->tier mappings.
DEFAULT_TABLESPACE_TIERS: dict[str, str] = {ts.name: ts.tier for ts in TABLESPACES}


@dataclass(frozen=True)
class Workload:
    """How a segment is used, as rates at the peak of its daily cycle."""

    access: str  # ACCESS_*
    cycle: str  # CYCLE_*
    read_requests_per_s: float  # single-block (or LOB chunk) reads; scans come on top
    write_requests_per_s: float
    scans_per_hour: float = 0.0  # full scans (cached small-table scans included)
    logical_per_physical: float = 20.0  # buffer gets per block read from disk
    changes_per_write_block: float = 4.0  # a hot block changes many times before DBWR writes it

    @property
    def write_heavy(self) -> bool:
        return self.write_requests_per_s > self.read_requests_per_s


@dataclass(frozen=True)
class SegmentSpec:
    """One segment as it stands at one snapshot hour."""

    key: SegmentKey
    tablespace_name: str
    size_bytes: int
    workload: Workload
    heat: float  # multiplier on the workload rates (partition ageing); 0 = untouched
    working_set_share: float  # share of the blocks that takes most accesses (0..1)
    obj_number: int | None
    dataobj_number: int | None
    buffer_pool: str | None = "DEFAULT"
    flash_cache: str | None = "DEFAULT"
    partitioned_parent: str | None = None
    lob_column: str | None = None
    partition_position: int | None = None  # DBA_TAB/IND_PARTITIONS.PARTITION_POSITION, oldest first
    # Composite partitioning and bounds (apps.targets.rows.SegmentInfo; ORDER_LINES: apps.targets.demo.composite).
    parent_partition: str | None = None
    partitioning: str | None = None
    partition_bound: str | None = None
    partition_order: int | None = None

    @property
    def blocks(self) -> int:
        return self.size_bytes // BLOCK_SIZE_BYTES

    @property
    def ordinal(self) -> int:
        """A stable integer for seeding this segment's random stream."""
        if self.obj_number is not None:
            return self.obj_number
        text = "\x1f".join((self.key.owner, self.key.object_name, self.key.subobject_name))
        return zlib.crc32(text.encode("utf-8"))


# --- the snapshot clock ------------------------------------------------------------


def snap_end_at(snap_id: int) -> dt.datetime:
    """End of the hour numbered ``snap_id`` (UTC)."""
    return SNAP_EPOCH_AT + snap_id * HOUR


def last_full_snap_id(now: dt.datetime) -> int:
    """The snap_id of the last hour that has fully ended at ``now``."""
    return math.floor((_require_utc(now, "now") - SNAP_EPOCH_AT) / HOUR)


def first_snap_id_from(start_at: dt.datetime) -> int:
    """The snap_id of the first whole hour that begins at or after ``start_at``."""
    return math.ceil((_require_utc(start_at, "start_at") - SNAP_EPOCH_AT) / HOUR) + 1


def _require_utc(moment: dt.datetime, name: str) -> dt.datetime:
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"demo schema: {name} must be a timezone-aware datetime, got naive {moment!r}")
    return moment


# --- sizes -------------------------------------------------------------------------


def allocated_bytes(used_bytes: float) -> int:
    """Round a size up to whole extents as AUTOALLOCATE would (64 KB, 1 MB, 8 MB, 64 MB)."""
    for limit_bytes, extent_bytes in ((_MB, 64 * 1024), (64 * _MB, _MB), (_GB, 8 * _MB)):
        if used_bytes <= limit_bytes:
            return max(extent_bytes, math.ceil(used_bytes / extent_bytes) * extent_bytes)
    return math.ceil(used_bytes / (64 * _MB)) * 64 * _MB


# Fixed segments grow from this date on; the growth rates are small enough to
# keep the database at a few hundred GB for years either side.
_GROWTH_EPOCH_AT = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)


@dataclass(frozen=True)
class _Fixed:
    key: SegmentKey
    tablespace_name: str
    base_gb: float
    workload: Workload
    working_set_share: float
    obj_number: int | None
    dataobj_number: int | None
    growth_mb_per_day: float = 0.0
    buffer_pool: str | None = "DEFAULT"
    flash_cache: str | None = "DEFAULT"
    lob_column: str | None = None  # LOB segments: the column alone
    lob_table: str | None = None  # LOB segments: the owning table


def _w(
    access: str, reads: float, writes: float, *, cycle: str = CYCLE_BUSINESS, scans: float = 0.0,
    lpp: float = 20.0, cpw: float = 4.0,
) -> Workload:
    return Workload(access, cycle, reads, writes, scans, lpp, cpw)


def _soe(
    name: str, object_type: str, ts: str, gb: float, obj: int, workload: Workload, ws: float, *,
    dataobj: int | None = None, growth_mb_per_day: float = 0.0, buffer_pool: str = "DEFAULT",
    flash_cache: str = "DEFAULT", lob_table: str | None = None, lob_column: str | None = None,
) -> _Fixed:
    return _Fixed(
        SegmentKey("SOE", name, "", object_type), ts, gb, workload, ws, obj, obj if dataobj is None else dataobj,
        growth_mb_per_day, buffer_pool, flash_cache, lob_column, lob_table,
    )


_R, _S, _L = ACCESS_RANDOM, ACCESS_SCAN, ACCESS_LOB
_LOB_TABLE_OBJ = 87654  # SYS_LOB<table obj#>C<column#>$$ names the owning table and column

_FIXED: tuple[_Fixed, ...] = (
    _soe("ORDER_ITEMS", "TABLE", "SOE_DATA", 42, 87601, _w(_R, 600, 200, lpp=25, cpw=5), 0.4,
         growth_mb_per_day=20),
    _soe("ORDER_ITEMS_PK", "INDEX", "SOE_INDEX", 7, 87602, _w(_R, 300, 100, lpp=40, cpw=3), 0.5,
         growth_mb_per_day=4),
    _soe("ORDER_ITEMS_PROD_IX", "INDEX", "SOE_INDEX", 5, 87603, _w(_R, 120, 110, lpp=40, cpw=3), 0.5,
         growth_mb_per_day=3),
    _soe("INVENTORIES", "TABLE", "SOE_DATA", 2.5, 87611, _w(_R, 80, 520, lpp=60, cpw=30), 0.8,
         flash_cache="KEEP"),
    _soe("INVENTORIES_PK", "INDEX", "SOE_INDEX", 0.3, 87612, _w(_R, 60, 150, lpp=50, cpw=4), 0.9),
    _soe("INV_WAREHOUSE_IX", "INDEX", "SOE_INDEX", 0.4, 87613, _w(_R, 20, 130, lpp=50, cpw=4), 0.9),
    # PRODUCTS already has FLASH_CACHE KEEP and is served from flash; its index
    # sits whole in the KEEP buffer pool and hardly reads from disk at all.
    _soe("PRODUCTS", "TABLE", "SOE_DATA", 0.5, 87621, _w(_R, 35, 0.3, scans=30, lpp=3000, cpw=2), 1.0,
         flash_cache="KEEP"),
    _soe("PRODUCTS_PK", "INDEX", "SOE_INDEX", 0.0625, 87622, _w(_R, 0.5, 0.1, lpp=50000, cpw=2), 1.0,
         buffer_pool="KEEP"),
    _soe("PRODUCT_DESCRIPTIONS", "TABLE", "FLASH_DATA", 1.5, 87623, _w(_R, 55, 0.5, lpp=800), 0.8,
         flash_cache="NONE"),
    _soe("PRODUCT_DESCRIPTIONS_PK", "INDEX", "FLASH_DATA", 0.2, 87624, _w(_R, 20, 0.2, lpp=800), 1.0,
         flash_cache="NONE"),
    _soe("CUSTOMERS", "TABLE", "SOE_DATA", 14, 87631, _w(_R, 220, 25, lpp=30, cpw=5), 0.35,
         growth_mb_per_day=3),
    _soe("CUSTOMERS_PK", "INDEX", "SOE_INDEX", 2, 87632, _w(_R, 150, 5, lpp=40, cpw=3), 0.6),
    _soe("Cust Email Idx", "INDEX", "SOE_INDEX", 3, 87633, _w(_R, 90, 5, lpp=40, cpw=3), 0.5),
    _soe("CUST_NAME_IX", "INDEX", "SOE_INDEX", 2.5, 87634, _w(_R, 30, 3, lpp=40, cpw=3), 0.4),
    _soe("ADDRESSES", "TABLE", "SOE_DATA", 9, 87641, _w(_R, 70, 10), 0.3),
    _soe("ADDRESS_CUST_IX", "INDEX", "SOE_INDEX", 1.5, 87642, _w(_R, 50, 5, lpp=40), 0.5),
    _soe("CARD_DETAILS", "TABLE", "SOE_DATA", 6, 87643, _w(_R, 40, 8), 0.3),
    _soe("CARDDETAILS_CUST_IX", "INDEX", "SOE_INDEX", 1.2, 87644, _w(_R, 30, 4, lpp=40), 0.5),
    _soe("WAREHOUSES", "TABLE", "SOE_DATA", 0.0625, 87651, _w(_R, 0.4, 0.05, scans=60, lpp=5000), 1.0),
    _soe("ORDERENTRY_METADATA", "TABLE", "SOE_DATA", 0.0625, 87652, _w(_R, 0.1, 0.01, scans=12, lpp=5000),
         1.0),
    # LOGON is truncated every quarter, so its data object id differs from its object id.
    _soe("LOGON", "TABLE", "SOE_DATA", 7, 87653, _w(_R, 2, 65, lpp=5, cpw=2), 0.05, dataobj=93110),
    _soe("ORDER_DOCS", "TABLE", "SOE_DATA", 1, _LOB_TABLE_OBJ, _w(_R, 20, 8), 0.3),
    _soe("SYS_LOB0000087654C00003$$", "LOBSEGMENT", "SOE_DATA", 25, 87655, _w(_L, 45, 6, lpp=1, cpw=1),
         0.05, growth_mb_per_day=15, lob_table="ORDER_DOCS", lob_column="DOC_BODY"),
    _soe("SYS_IL0000087654C00003$$", "LOBINDEX", "SOE_DATA", 0.125, 87656, _w(_R, 10, 5, lpp=30), 1.0,
         lob_table="ORDER_DOCS", lob_column="DOC_BODY"),
    _soe("OrderNotes", "TABLE", "SOE_DATA", 2, 87661, _w(_R, 15, 12), 0.3),
    _soe("ORDER_HISTORY", "TABLE", "HIST_DATA", 150, 87671,
         _w(_S, 0, 0.5, cycle=CYCLE_BATCH, scans=1.4, lpp=1.02), 0.0, buffer_pool="RECYCLE"),
    _soe("CUSTOMER_ARCHIVE", "TABLE", "FLASH_DATA", 35, 87681,
         _w(_S, 0.2, 0, cycle=CYCLE_BATCH, scans=0.03, lpp=1.02), 0.02, flash_cache="NONE"),
    _Fixed(SegmentKey("SYS", "WRH$_SEG_STAT", "", "TABLE"), "SYSAUX", 0.4,
           _w(_R, 0.5, 3, cycle=CYCLE_FLAT), 0.3, 8231, 8231),
    _Fixed(SegmentKey("SYS", "WRH$_SQL_PLAN", "", "TABLE"), "SYSAUX", 1.2,
           _w(_R, 1.0, 1.5, cycle=CYCLE_FLAT), 0.2, 8245, 8245),
)

# System-managed undo: V$BH/V$SEGSTAT carry no object numbers for these.
_UNDO_SUFFIXES = (
    "3780397527", "2097835953", "1284563213", "4093027163", "2735432591",
    "1573206829", "3112476022", "933180251", "2467702016", "1872346107",
)
_UNDO_WORKLOAD = _w(_R, 3, 28, lpp=5, cpw=40)


def _fixed_specs(end_at: dt.datetime) -> tuple[SegmentSpec, ...]:
    # Growth is counted in whole days and undo only changes with office hours,
    # so a day has two distinct versions of these segments.
    days = max(0, (end_at - _GROWTH_EPOCH_AT) // dt.timedelta(days=1))
    return _fixed_specs_on(days, 7 <= end_at.hour <= 19)


@lru_cache(maxsize=256)
def _fixed_specs_on(days: int, office_hours: bool) -> tuple[SegmentSpec, ...]:
    specs = [
        SegmentSpec(
            key=f.key, tablespace_name=f.tablespace_name,
            size_bytes=allocated_bytes(f.base_gb * _GB + f.growth_mb_per_day * _MB * days),
            workload=f.workload, heat=1.0, working_set_share=f.working_set_share,
            obj_number=f.obj_number, dataobj_number=f.dataobj_number, buffer_pool=f.buffer_pool,
            flash_cache=f.flash_cache, lob_column=f.lob_column, partitioned_parent=f.lob_table,
        )
        for f in _FIXED
    ]
    # Undo segments swell in office hours and SMON shrinks them at night.
    for number, suffix in enumerate(_UNDO_SUFFIXES, start=1):
        used_bytes = (0.6 + 0.05 * number) * _GB + (384 * _MB if office_hours else 0)
        specs.append(SegmentSpec(
            key=SegmentKey("SYS", f"_SYSSMU{number}_{suffix}$", "", "TYPE2 UNDO"),
            tablespace_name="UNDOTBS1", size_bytes=allocated_bytes(used_bytes),
            workload=_UNDO_WORKLOAD, heat=1.0, working_set_share=0.3,
            obj_number=None, dataobj_number=None,
        ))
    return tuple(specs)


@lru_cache(maxsize=1024)
def segments_at(snap_id: int) -> tuple[SegmentSpec, ...]:
    """Every segment of the demo database as it stands at the end of hour ``snap_id``."""
    # The partitioned tables' modules build on this one's types: imported here, not at the top.
    from apps.targets.demo.composite import order_lines_specs  # cycle: apps.targets.demo.composite
    from apps.targets.demo.orders import _partition_specs  # cycle: apps.targets.demo.orders

    end_at = snap_end_at(snap_id)
    return (*_partition_specs(end_at), *order_lines_specs(end_at), *_fixed_specs(end_at))


def clear_caches() -> None:
    """Forget the memoised schema (the simulator's clear_caches calls this)."""
    from apps.targets.demo.orders import _full_partition_bytes, _settled_partitions  # cycle: apps.targets.demo.orders

    segments_at.cache_clear()
    _settled_partitions.cache_clear()
    _fixed_specs_on.cache_clear()
    _full_partition_bytes.cache_clear()
