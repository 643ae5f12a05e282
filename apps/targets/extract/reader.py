"""Read an offline extract (the CSV files tierscope_extract.sql spools) into a Collection.

The extract is the recorded output of the live source's own statements
(``apps/targets/oracle/sql/*.sql``), so it is read in two steps:

1. every CSV line is checked and typed (``csvfiles.py``, against the declarations of ``files.py``:
   header, value count, NULLs, whole numbers, decimals, ISO 8601 dates), so any bad input is
   reported with its file, line and column;
2. the typed rows are replayed through the live source's ``queries.fetch_*`` functions (a
   cursor that returns the recorded rows) and assembled the way ``OracleSource`` assembles a
   live collection (this module: the replaying cursor, the cross-file checks and the assembly).
   Both sources therefore map rows identically: server local time to UTC, OBJ$ type spellings,
   LOB parents, V$ samples, AWR deltas that never cross a restart.

Input is a directory or a .zip of the files (at its root or in one folder). Pure: standard
library and the row contract only; no Django.
"""

from __future__ import annotations

import datetime as dt
import io
import itertools
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from apps.targets.base import SourceError
from apps.targets.extract import segment_sql
from apps.targets.extract.archive import (
    Budget,
    ExtractError,
    ExtractFiles,
    ExtractLimits,
    check_zip_directory,
    open_directory,
    open_zip,
)
from apps.targets.extract.csvfiles import LINE, NAME_MAX_BYTES, Row, iter_table, read_table
from apps.targets.extract.files import (
    FILES,
    LATER_FILES,
    OPTIONAL_COLUMNS,
    PACK_FILES,
    RETIRED_COLUMNS,
    SPILLED_FILE,
    Column,
)
from apps.targets.extract.partitions import extract_partition_catalog
from apps.targets.extract.room import REFUSABLE_FILES, extract_room, refusal
from apps.targets.extract.spill import Spilled, spilled, spilled_groups
from apps.targets.oracle import queries
from apps.targets.oracle.containers import Containers, fetch_containers, seg_stat_in, segments_in
from apps.targets.oracle.features import features_for
from apps.targets.oracle.partitions import annotate_segments
from apps.targets.oracle.queries import InstanceRow, SnapshotRow
from apps.targets.oracle.room import Refused
from apps.targets.oracle.source import (
    DEFAULT_BLOCK_SIZE_BYTES,
    assemble_history,
    build_samples,
    history_notes,
    is_rac,
)
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, Snapshot

# The files' declarations (files.py) and the CSV typing (csvfiles.py) are named here too, where callers
# have always found them.
__all__ = ["FILES", "LATER_FILES", "LINE", "NAME_MAX_BYTES", "OPTIONAL_COLUMNS", "PACK_FILES", "RETIRED_COLUMNS",
           "SPILLED_FILE", "Column", "ExtractError", "ExtractLimits", "Row", "iter_table", "read_extract",
           "read_segments_csv", "read_table", "read_tables", "tables_to_collection"]


def read_segments_csv(data: bytes | bytearray, *, filename: str = "segments.csv") -> tuple[SegmentInfo, ...]:
    """A DBA_SEGMENTS listing in the extract's segments.csv format, as SegmentInfo rows.

    Used on its own as the companion "sizes" file of an AWR report import. Errors name
    ``filename`` (the name the user knows the file by).
    """
    try:
        rows = read_table(io.BytesIO(data), "segments.csv")
    except ExtractError as error:
        raise ExtractError(error.problem, filename=filename, line=error.line, column=error.column) from None
    return queries.fetch_segments(_Replay(rows, FILES["segments.csv"]), mode="nopack")


# --- replaying typed rows through the live source's mapping ----------------------------------


class _Replay:
    """A cursor that returns recorded rows, whatever statement it is given (queries.Cursor)."""

    def __init__(self, rows: Sequence[Row], columns: tuple[Column, ...]) -> None:
        self.description = [(column.name,) for column in columns]
        self._rows = [tuple(row[column.name] for column in columns) for row in rows]

    def execute(self, statement: str, parameters: dict[str, Any] | None = None) -> None:
        return None

    def fetchall(self) -> list[tuple[Any, ...]]:
        return list(self._rows)


@dataclass(frozen=True)
class _Tables:
    rows: dict[str, Sequence[Row]]  # SPILLED_FILE's a Spilled, the others lists
    refusals: dict[str, Refused] = field(default_factory=dict)  # refusable files that hold ORA-00942/01031

    def cursor(self, name: str) -> _Replay:
        return _Replay(self.rows.get(name, []), FILES[name])


def read_tables(files: ExtractFiles, limits: ExtractLimits | None = None) -> _Tables:
    missing = sorted(name for name in FILES
                     if name not in PACK_FILES and name not in LATER_FILES and not files.has(name))
    if missing:
        raise ExtractError(f"missing {', '.join(missing)}: copy the whole output directory of "
                           "tierscope_extract.sql", filename=files.origin)
    present = [name for name in PACK_FILES if files.has(name)]
    if len(present) == 1:
        absent = next(name for name in PACK_FILES if name not in present)
        raise ExtractError(f"has {present[0]} but not {absent}: an awr-mode extract writes both",
                           filename=files.origin)
    limits = limits or ExtractLimits()
    budget = Budget(limits.unpacked_bytes)
    rows: dict[str, Any] = {}
    refusals: dict[str, Refused] = {}
    for name in FILES:
        if files.has(name) and (said := refusal(files, name, limits)) is not None:
            refusals[name] = said
        elif files.has(name):
            with files.open(name) as stream:
                table = iter_table(stream, name, limits=limits, budget=budget)
                rows[name] = spilled(table) if name == SPILLED_FILE else list(table)
    return _Tables(rows, refusals)


def _instance(tables: _Tables) -> InstanceRow:
    count = len(tables.rows["instance.csv"])
    if count != 1:
        raise ExtractError(f"has {count} rows, expected exactly one", filename="instance.csv")
    return queries.fetch_instance(tables.cursor("instance.csv"), mode="nopack")


def _check_history(tables: _Tables, dbid: int) -> None:
    """Snapshot rows belong to this database, once each; every history row has its snapshot."""
    seen: set[tuple[int, int]] = set()
    for row in tables.rows["snapshots.csv"]:
        line = row[LINE]
        key = (row["INSTANCE_NUMBER"], row["SNAP_ID"])
        if row["DBID"] != dbid:
            raise ExtractError(f"DBID {row['DBID']} is not the database's DBID {dbid} (instance.csv)",
                               filename="snapshots.csv", line=line, column="DBID")
        if key in seen:
            raise ExtractError(f"instance {key[0]} snapshot {key[1]} is listed twice", filename="snapshots.csv",
                               line=line)
        seen.add(key)
    for name in ("seg_stat.csv", *PACK_FILES):
        for row in tables.rows.get(name, []):
            if (row["INSTANCE_NUMBER"], row["SNAP_ID"]) not in seen:
                raise ExtractError(f"instance {row['INSTANCE_NUMBER']} snapshot {row['SNAP_ID']} is not in "
                                   "snapshots.csv", filename=name, line=row[LINE], column="SNAP_ID")


def _check_datafiles(tables: _Tables) -> None:
    """Each file once, of a known type (datafiles.csv: DATA or TEMP, as datafiles.sql writes them)."""
    seen: set[tuple[str, int]] = set()
    for row in tables.rows.get("datafiles.csv", []):
        kind = str(row["FILE_TYPE"]).upper()
        if kind not in ("DATA", "TEMP"):
            raise ExtractError(f"{row['FILE_TYPE']!r} is not DATA or TEMP", filename="datafiles.csv",
                               line=row[LINE], column="FILE_TYPE")
        if (kind, row["FILE_ID"]) in seen:
            raise ExtractError(f"{kind.lower()} file {row['FILE_ID']} is listed twice", filename="datafiles.csv",
                               line=row[LINE], column="FILE_ID")
        seen.add((kind, row["FILE_ID"]))


def _history(tables: _Tables, instance: InstanceRow, *, pack: bool,
             containers: Containers) -> tuple[tuple[Snapshot, ...], tuple[str, ...]]:
    """Snapshots with their segment stats and, for awr-mode extracts, system/tablespace deltas."""
    features = features_for(instance.version)
    mode = "awr" if pack else "nopack"
    bounds: dict[str, Any] = dict(dbid=instance.dbid, last_snap_id=0, utc_offset_min=instance.server_utc_offset_min,
                                  begin_at=dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc))  # binds are unused
    rows: tuple[SnapshotRow, ...] = queries.fetch_snapshots(tables.cursor("snapshots.csv"), mode=mode, **bounds)
    pack_sysstat_rows: Any = ()
    pack_filestat_rows: Any = ()
    if pack:
        pack_sysstat_rows = queries.fetch_pack_sysstat(tables.cursor("pack_sysstat.csv"), mode=mode, **bounds)
        pack_filestat_rows = queries.fetch_pack_filestat(tables.cursor("pack_filestat.csv"), mode=mode, **bounds)

    def by_snapshot(part: list[Row]) -> Iterator[tuple[tuple[int, int], list[Any]]]:
        mapped = seg_stat_in(queries.fetch_seg_stat(_Replay(part, FILES[SPILLED_FILE]), mode=mode, features=features,
                                                    **bounds), containers)
        for key, run in itertools.groupby(mapped, key=lambda row: (row.instance_number, row.snap_id)):
            yield key, [row.stat for row in run]

    # Each snapshot's segment statistics stay on disk until storage writes that snapshot.
    seg_stat_rows = tables.rows[SPILLED_FILE]
    assert isinstance(seg_stat_rows, Spilled)  # read_tables spills that file
    snapshots = assemble_history(
        snapshot_rows=rows, seg_stats=spilled_groups(seg_stat_rows, by_snapshot),
        pack_sysstat_rows=pack_sysstat_rows, pack_filestat_rows=pack_filestat_rows,
    )
    return snapshots, history_notes(rows, {})


def tables_to_collection(tables: _Tables) -> Collection:
    """Assemble typed extract rows into a Collection, as the live Oracle source does."""
    instance = _instance(tables)
    _check_history(tables, instance.dbid)
    _check_datafiles(tables)
    pack = all(name in tables.rows for name in PACK_FILES)
    parameters = queries.fetch_parameters(tables.cursor("parameters.csv"), mode="nopack")
    instances = queries.fetch_instances(tables.cursor("instances.csv"), mode="nopack",
                                        utc_offset_min=instance.server_utc_offset_min)
    containers = (fetch_containers(tables.cursor("containers.csv"), mode="nopack",
                                   features=features_for(instance.version))
                  if "containers.csv" in tables.rows else Containers())  # an 11.2 or an older extract: a non-CDB
    partition_catalog = extract_partition_catalog(tables.cursor, set(tables.rows))
    segments = segments_in(annotate_segments(queries.fetch_segments(tables.cursor("segments.csv"), mode="nopack"),
                                             partition_catalog), containers)
    rac = is_rac(parameters, instances)
    residency = queries.fetch_residency(tables.cursor("residency.csv"), mode="nopack", rac=rac,
                                        instance_numbers={row.inst_id: row.instance_number for row in instances})
    samples = build_samples(
        instances, segments,
        queries.fetch_segstat_sample(tables.cursor("segstat_sample.csv"), mode="nopack"),
        queries.fetch_sysstat_sample(tables.cursor("sysstat_sample.csv"), mode="nopack"),
        queries.fetch_filestat_sample(tables.cursor("filestat_sample.csv"), mode="nopack"),
    )
    snapshots, notes = _history(tables, instance, pack=pack, containers=containers)
    datafiles = queries.fetch_datafiles(tables.cursor("datafiles.csv"), mode="nopack")
    room = extract_room(tables.cursor, present={name: name in tables.rows for name in REFUSABLE_FILES},
                        refusals=tables.refusals, datafiles=datafiles)
    seen = {row.instance_number for row in instances} | {snap.instance_number for snap in snapshots}
    sql_rows, sql_source = segment_sql.extract_segment_sql(
        tables.rows, pack=pack, snapshots=snapshots, utc_offset_min=instance.server_utc_offset_min,
        sampled_at=max((row.sampled_at for row in instances), default=None))
    return Collection(
        database=DatabaseInfo(
            dbid=instance.dbid, db_name=instance.db_name, release=instance.version, is_rac=rac,
            instances=tuple(sorted(seen)),
            block_size_bytes=int(parameters.get("db_block_size") or DEFAULT_BLOCK_SIZE_BYTES),
            pack_access=parameters.get("control_management_pack_access"),
        ),
        snapshots=snapshots,
        segments=segments,
        residency=residency,
        samples=samples,
        tablespaces=room.tablespaces,
        datafiles=datafiles,
        disk_groups=room.disk_groups,
        collected_at=max((row.sampled_at for row in instances), default=None),
        notes=(f"offline extract ({'awr' if pack else 'nopack'} mode)", *notes, *room.notes, *partition_catalog.notes),
        segment_sql=sql_rows, segment_sql_source=sql_source,
    )


def read_extract(source: str | Path | IO[bytes], *, limits: ExtractLimits | None = None) -> Collection:
    """Read an offline extract — a directory, a .zip path, or an open .zip file — into a Collection.

    Everything is read and checked before anything is returned, so a caller that stores
    the result never stores half an extract. Raises :class:`ExtractError` (file, line, column)
    on any missing file, wrong header, bad value or failed statement, and on anything past ``limits``.
    """
    limits = limits or ExtractLimits()
    if isinstance(source, (str, Path)):
        path = Path(source)
        if path.is_dir():
            return _collection_or_error(open_directory(path, FILES), limits)
        if not path.is_file():
            raise ExtractError("no such directory or .zip file", filename=str(path))
        with path.open("rb") as stream:
            return _read_zip(stream, path.name, limits=limits)
    return _read_zip(source, Path(getattr(source, "name", "") or "extract.zip").name, limits=limits)


def _read_zip(stream: IO[bytes], origin: str, *, limits: ExtractLimits) -> Collection:
    try:
        check_zip_directory(stream, origin, limits)
        with zipfile.ZipFile(stream) as archive:
            return _collection_or_error(open_zip(archive, origin, FILES, limits=limits), limits)
    except zipfile.BadZipFile as error:
        raise ExtractError(f"is not a readable .zip file ({error})", filename=origin) from None
    except (RuntimeError, NotImplementedError, EOFError, OSError) as error:
        # Encrypted members, unsupported compression, truncated archives.
        raise ExtractError(f"cannot unpack the .zip file ({error})", filename=origin) from None


def _collection_or_error(files: ExtractFiles, limits: ExtractLimits) -> Collection:
    try:
        return tables_to_collection(read_tables(files, limits))
    except SourceError as error:  # release before 11.2 (features_for)
        raise ExtractError(str(error), filename="instance.csv", column="VERSION") from None
    except (ValueError, KeyError) as error:
        if isinstance(error, ExtractError):
            raise
        # The mapping's own checks (e.g. a series repeated in pack_*.csv): name what we can.
        raise ExtractError(f"inconsistent extract: {error}", filename=files.origin) from None
