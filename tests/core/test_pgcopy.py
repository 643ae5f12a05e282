import datetime as dt

import numpy as np
import pytest
from django.db import connection
from psycopg.sql import Identifier

from apps.core.pgcopy import CopyFormatError, copy_from_arrays, fetch_arrays

COLUMNS = [("id", "int4"), ("big", "int8"), ("ratio", "float8"), ("small", "float4"), ("flag", "bool")]
SQL = ("SELECT g::int4, g::int8 * 10000000000, g / 3.0::float8, (g / 2.0)::float4, g %% 2 = 0 "
       "FROM generate_series(1, %s) g")


@pytest.mark.django_db
def test_reads_fixed_width_columns_into_native_arrays():
    with connection.cursor() as cursor:
        arrays = fetch_arrays(cursor.cursor, SQL, [1000], COLUMNS)
    assert arrays["id"].dtype == np.int32 and sorted(arrays["id"].tolist()) == list(range(1, 1001))
    order = np.argsort(arrays["id"])
    assert arrays["big"][order][-1] == 1000 * 10_000_000_000
    assert arrays["ratio"][order][2] == 1.0 and arrays["small"][order][0] == np.float32(0.5)
    assert arrays["flag"][order].tolist()[:4] == [False, True, False, True]


@pytest.mark.django_db
def test_an_empty_result_gives_empty_arrays():
    with connection.cursor() as cursor:
        arrays = fetch_arrays(cursor.cursor, SQL, [0], COLUMNS)
    assert all(array.size == 0 for array in arrays.values())


@pytest.mark.django_db
def test_a_null_is_refused_naming_the_columns():
    with connection.cursor() as cursor, pytest.raises(CopyFormatError, match="1 of 1 rows have a NULL among.*ratio"):
        fetch_arrays(cursor.cursor, "SELECT 1::int4, 2::int8, NULL::float8, 1::float4, true", None, COLUMNS)


def test_an_unknown_type_is_refused_before_querying():
    with pytest.raises(CopyFormatError, match="numeric"):
        fetch_arrays(None, "SELECT 1", None, [("money", "numeric")])


@pytest.mark.django_db
def test_written_columns_read_back_as_written_with_nulls_text_dates_and_times():
    n = 5
    columns = [
        ("i", "int8", np.array([1, -2, 3, 2**40, 0]), np.array([False, False, True, False, False])),
        ("f", "float8", np.array([0.5, np.nan, -1e300, 3.25, 0.0]), np.array([False, True, False, False, False])),
        ("s", "int2", np.array([7, 8, 9, 10, 11]), None),
        ("b", "bool", np.array([True, False, True, False, True]), None),
        ("t", "text", np.array(["move", "keep", "", "Ünïcode \"x\"", "move"], dtype=object), None),
        ("d", "date", np.full(n, np.datetime64("2026-11-22", "D")), None),
        ("ts", "timestamptz", np.full(n, np.datetime64("2026-11-22T04:15:50.123456", "us")), None),
    ]
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE written (i int8, f float8, s int2, b bool, t text, d date, ts timestamptz)")
        copy_from_arrays(cursor.cursor, Identifier("written"), columns)
        cursor.execute("SELECT i, f, s, b, t, d, ts FROM written ORDER BY s")  # rows go in grouped by layout
        rows = cursor.fetchall()
    assert [r[0] for r in rows] == [1, -2, None, 2**40, 0]
    assert [r[1] for r in rows] == [0.5, None, -1e300, 3.25, 0.0]
    assert [r[4] for r in rows] == ["move", "keep", "", 'Ünïcode "x"', "move"]
    assert rows[0][2:4] == (7, True) and rows[0][5] == dt.date(2026, 11, 22)
    assert rows[0][6] == dt.datetime(2026, 11, 22, 4, 15, 50, 123456, tzinfo=dt.timezone.utc)


@pytest.mark.django_db
def test_writing_no_rows_writes_nothing():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TEMP TABLE empty_written (i int8, t text)")
        copy_from_arrays(cursor.cursor, Identifier("empty_written"), [("i", "int8", np.zeros(0, dtype=np.int64), None),
                                                          ("t", "text", np.zeros(0, dtype=object), None)])
        cursor.execute("SELECT count(*) FROM empty_written")
        assert cursor.fetchone()[0] == 0
