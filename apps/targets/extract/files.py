"""The files of an offline extract and their columns, as tierscope_extract.sql writes them.

:data:`FILES` declares every CSV file and its typed columns (:class:`Column`, written in
:func:`_cols`' ``NAME:kind!`` notation); the other declarations say which files or columns an
extract may lack (written only in awr mode, appended to the script later, or retired) and which
file is kept on disk while it is read. Pure: no Django.
"""

from __future__ import annotations

from dataclasses import dataclass

from apps.targets.extract import segment_sql
from apps.targets.extract.partitions import PARTITION_FILE_SPECS
from apps.targets.extract.room import REFUSABLE_FILES
from apps.targets.rows import SEGMENT_STAT_FIELDS


@dataclass(frozen=True)
class Column:
    """One CSV column: its name, how its text is typed, and whether it may be NULL ("")."""

    name: str
    kind: str  # "int" | "float" | "text" | "datetime"
    required: bool = False


def _cols(spec: str) -> tuple[Column, ...]:
    """``"NAME:int!"`` -> Column("NAME", "int", required=True); the kind defaults to text."""
    columns = []
    for item in spec.split():
        required = item.endswith("!")
        name, _, kind = item.rstrip("!").partition(":")
        columns.append(Column(name, kind or "text", required))
    return tuple(columns)


_STAT_COLUMNS = " ".join(f"{name.upper()}:int" for name in SEGMENT_STAT_FIELDS)
_HISTORY = ("INSTANCE_NUMBER:int! SNAP_ID:int! STARTUP_TIME:datetime! BEGIN_INTERVAL_TIME:datetime! "
            "END_INTERVAL_TIME:datetime! SNAP_TZ_OFFSET_MIN:int")

#: Every file of the extract and its columns, as tierscope_extract.sql writes them.
FILES: dict[str, tuple[Column, ...]] = {
    "instance.csv": _cols("INSTANCE_NUMBER:int! INSTANCE_NAME HOST_NAME VERSION! STARTUP_TIME:datetime! "
                          "DBID:int! DB_NAME! SERVER_UTC_OFFSET_MIN:int"),
    "instances.csv": _cols("INST_ID:int! INSTANCE_NUMBER:int! INSTANCE_NAME HOST_NAME STARTUP_TIME:datetime! "
                           "STATUS SAMPLED_AT_UTC:datetime!"),
    "parameters.csv": _cols("NAME! VALUE"),
    "snapshots.csv": _cols("DBID:int! INSTANCE_NUMBER:int! SNAP_ID:int! STARTUP_TIME:datetime! "
                           "BEGIN_INTERVAL_TIME:datetime! END_INTERVAL_TIME:datetime! SNAP_TZ_OFFSET_MIN:int "
                           "ERROR_COUNT:int SNAP_FLAG:int"),
    "seg_stat.csv": _cols("INSTANCE_NUMBER:int! SNAP_ID:int! OWNER! OBJECT_NAME! SUBOBJECT_NAME OBJECT_TYPE "
                          f"TABLESPACE_NAME OBJ_NUMBER:int DATAOBJ_NUMBER:int {_STAT_COLUMNS} "
                          "SPACE_ALLOCATED_BYTES:int CON_ID:int"),
    "containers.csv": _cols("CDB CON_ID:int CON_NAME SESSION_CON_ID:int"),
    "segments.csv": _cols("OWNER! SEGMENT_NAME! PARTITION_NAME SEGMENT_TYPE! TABLESPACE_NAME BYTES:int! "
                          "BLOCKS:int! BUFFER_POOL FLASH_CACHE CELL_FLASH_CACHE OBJ_NUMBER:int DATAOBJ_NUMBER:int "
                          "LOB_TABLE_NAME LOB_COLUMN_NAME LOB_TABLE_PARTITION_NAME PARTITION_POSITION:int "
                          "PARTITION_INTERVAL"),
    "residency.csv": _cols("INST_ID:int! DATAOBJ_NUMBER:int FLASH_BLOCKS:int CACHE_BLOCKS:int"),
    "segstat_sample.csv": _cols(f"INST_ID:int! OBJ_NUMBER:int! DATAOBJ_NUMBER:int {_STAT_COLUMNS}"),
    "sysstat_sample.csv": _cols("INST_ID:int! NAME! VALUE:int"),
    "filestat_sample.csv": _cols("INST_ID:int! TABLESPACE_NAME! READ_REQUESTS:int WRITE_REQUESTS:int "
                                 "READ_TIME_MS:float"),
    "pack_sysstat.csv": _cols(f"{_HISTORY} STAT_NAME! VALUE:int"),
    "pack_filestat.csv": _cols(f"{_HISTORY} TABLESPACE_NAME! READ_REQUESTS:int WRITE_REQUESTS:int "
                               "READ_TIME_MS:float"),
    "tablespaces.csv": _cols("TABLESPACE_NAME! BLOCK_SIZE_BYTES:int CONTENTS STATUS SIZE_BYTES:int MAX_SIZE_BYTES:int "
                             "AUTOEXTENSIBLE_FILES:int USED_BYTES:int"),
    "tablespace_usage.csv": _cols("TABLESPACE_NAME! USED_BLOCKS:int MAX_SIZE_BLOCKS:int USED_PERCENT:float"),
    "free_space.csv": _cols("TABLESPACE_NAME! FREE_BYTES:int FREE_EXTENTS:int"),
    "asm_diskgroups.csv": _cols("GROUP_NUMBER:int NAME! STATE REDUNDANCY TOTAL_MB:int FREE_MB:int "
                                "REQUIRED_MIRROR_FREE_MB:int USABLE_FILE_MB:int OFFLINE_DISKS:int "
                                "ALLOCATION_UNIT_BYTES:int SECTOR_SIZE_BYTES:int BLOCK_SIZE_BYTES:int COMPATIBILITY "
                                "DATABASE_COMPATIBILITY"),
    "datafiles.csv": _cols("TABLESPACE_NAME! FILE_ID:int! FILE_NAME! SIZE_BYTES:int AUTOEXTENSIBLE "
                           "MAX_SIZE_BYTES:int FILE_TYPE!"),
    **{name: _cols(spec) for name, spec in segment_sql.FILE_COLUMNS.items()},
    **{name: _cols(spec) for name, spec in PARTITION_FILE_SPECS.items()},
}
#: Columns appended to a file after extracts were in use: an older extract without them still imports
#: (the values are None, unknown).
OPTIONAL_COLUMNS: dict[str, frozenset[str]] = {
    "segments.csv": frozenset({"PARTITION_POSITION", "PARTITION_INTERVAL"}),
    "seg_stat.csv": frozenset({"CON_ID"}),
    "tablespaces.csv": frozenset({"STATUS", "USED_BYTES"}),
}
#: Columns older extracts wrote and the script no longer does, still read when there: tablespaces.csv's
#: USED_BYTES (summed DBA_SEGMENTS) gave way to tablespace_usage.csv and free_space.csv.
RETIRED_COLUMNS: dict[str, frozenset[str]] = {"tablespaces.csv": frozenset({"USED_BYTES"})}
#: Written only in awr mode (Diagnostics Pack statements); every other file must be there.
PACK_FILES: tuple[str, ...] = ("pack_sysstat.csv", "pack_filestat.csv")
#: Appended to the extract later (tablespaces.csv, then datafiles.csv): an extract made by an
#: older script has no such file and still imports, without the figures it would bring (the tablespaces' room,
#: the storage map's files stay unknown).
LATER_FILES: tuple[str, ...] = ("tablespaces.csv", "datafiles.csv", *segment_sql.FILE_COLUMNS, *REFUSABLE_FILES,
                                 *PARTITION_FILE_SPECS, "containers.csv")  # containers.csv: 12.1 on, never for 11.2
#: The file that grows with the history (a row per segment per snapshot): kept on disk (extract.spill).
SPILLED_FILE = "seg_stat.csv"
