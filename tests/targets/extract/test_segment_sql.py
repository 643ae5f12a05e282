"""The SQL driving each segment in an offline extract: optional files, read by the live source's mapping."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from apps.targets.extract import read_extract
from apps.targets.rows import Collection

from .fixture_copies import FIXTURES, copy_fixture

UTC = dt.timezone.utc


def _read_with_file(tmp_path: Path, fixture: str, filename: str, text: str) -> Collection:
    """The extract fixture ``fixture`` read with a file ``filename`` holding ``text`` added to a copy of it."""
    directory = copy_fixture(tmp_path, fixture)
    (directory / filename).write_text(text, encoding="utf-8")
    return read_extract(directory)


def test_it_reads_ash_over_the_extracts_snapshots_in_awr_mode() -> None:
    collection = read_extract(FIXTURES / "single")

    assert collection.segment_sql_source == "ash"
    scan = next(r for r in collection.segment_sql if r.sql_id == "7h35uxf5uhmm1")
    # 12 of its 16 IO-wait samples on the segment: 3/4 of its 20,000 read requests.
    assert (scan.obj_number, scan.samples, scan.read_requests, scan.executions, scan.elapsed_s) == (
        76543, 12, 15000, 300, 240.0)
    assert scan.text.endswith('"quoted"')
    # Snapshots 101..103: 10:00 to 13:00 server time (UTC+2).
    assert (scan.begin_at, scan.end_at) == (dt.datetime(2024, 5, 2, 8, tzinfo=UTC), dt.datetime(2024, 5, 2, 11, tzinfo=UTC))
    lookup = next(r for r in collection.segment_sql if r.sql_id == "0w2qpuc6u2zsp")
    assert lookup.elapsed_s is None  # an empty cell is unknown, not 0


def test_it_says_not_collected_without_the_files() -> None:
    collection = read_extract(FIXTURES / "rac")

    assert (collection.segment_sql, collection.segment_sql_source) == ((), None)


def test_it_reads_the_cursor_cache_in_nopack_mode(tmp_path: Path) -> None:
    collection = _read_with_file(
        tmp_path, "rac", "sql_segments.csv",
        "OBJ_NUMBER,OBJECT_OWNER,OBJECT_NAME,SQL_ID,PLAN_HASH_VALUE,EXECUTIONS,READ_REQUESTS,DISK_READS_BLOCKS,"
        "ELAPSED_US,FIRST_LOAD_TIME,SQL_TEXT,FULL_SCAN,PLAN_OBJECTS\n"
        '"5001","SALES","INVOICES","9babjv8yq8ru3","3056123445","40","182000","2900000","610000000",'
        '"2024-05-01/08:15:02","SELECT * FROM sales.invoices","1","1"\n')

    assert collection.segment_sql_source == "v$sql"
    [row] = collection.segment_sql
    assert (row.source, row.read_requests, row.full_scan, row.end_at) == (
        "v$sql", 182000, True, dt.datetime(2024, 5, 2, 9, 30, tzinfo=UTC))


def test_it_reads_awrs_plan_rows_in_awr_mode(tmp_path: Path) -> None:
    collection = _read_with_file(
        tmp_path, "single", "pack_sqlstat_segments.csv",
        "OBJ_NUMBER,OBJECT_OWNER,OBJECT_NAME,SQL_ID,PLAN_HASH_VALUE,EXECUTIONS,READ_REQUESTS,ELAPSED_US,FULL_SCAN,"
        "PLAN_OBJECTS,SQL_TEXT\n"
        '"76550","APP","ORDERS_PK","3mcu9v6pnw2tg","3977204512","5000","7000","","0","1","SELECT 1 FROM dual"\n')

    rows = [r for r in collection.segment_sql if r.source == "sqlstat"]

    assert [(r.sql_id, r.read_requests, r.full_scan, r.elapsed_s, r.end_at) for r in rows] == [
        ("3mcu9v6pnw2tg", 7000, False, None, dt.datetime(2024, 5, 2, 11, tzinfo=UTC))]
