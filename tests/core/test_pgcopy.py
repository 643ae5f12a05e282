import numpy as np
import pytest
from django.db import connection

from apps.core.pgcopy import CopyFormatError, copy_to_arrays, parse_binary_copy

COLUMNS = [("id", "int4"), ("big", "int8"), ("ratio", "float8"), ("small", "float4"), ("flag", "bool")]
SQL = ("SELECT g::int4, g::int8 * 10000000000, g / 3.0::float8, (g / 2.0)::float4, g %% 2 = 0 "
       "FROM generate_series(1, %s) g")


@pytest.mark.django_db
def test_reads_fixed_width_columns_into_native_arrays():
    with connection.cursor() as cursor:
        arrays = copy_to_arrays(cursor.cursor, SQL, [1000], COLUMNS)
    assert arrays["id"].dtype == np.int32 and arrays["id"].tolist() == list(range(1, 1001))
    assert arrays["big"][-1] == 1000 * 10_000_000_000
    assert arrays["ratio"][2] == 1.0 and arrays["small"][0] == np.float32(0.5)
    assert arrays["flag"].tolist()[:4] == [False, True, False, True]


@pytest.mark.django_db
def test_an_empty_result_gives_empty_arrays():
    with connection.cursor() as cursor:
        arrays = copy_to_arrays(cursor.cursor, SQL, [0], COLUMNS)
    assert all(array.size == 0 for array in arrays.values())


@pytest.mark.django_db
def test_a_null_is_refused_naming_the_columns():
    with connection.cursor() as cursor, pytest.raises(CopyFormatError, match="ratio"):
        copy_to_arrays(cursor.cursor, "SELECT 1::int4, 2::int8, NULL::float8, 1::float4, true", None, COLUMNS)


@pytest.mark.django_db
def test_a_column_of_another_type_is_refused():
    with connection.cursor() as cursor, pytest.raises(CopyFormatError, match="id"):
        copy_to_arrays(cursor.cursor, "SELECT 1::int8", None, [("id", "int4")])


def test_an_unknown_type_is_refused_before_querying():
    with pytest.raises(CopyFormatError, match="numeric"):
        copy_to_arrays(None, "SELECT 1", None, [("money", "numeric")])


def test_a_stream_without_the_signature_is_refused():
    with pytest.raises(CopyFormatError, match="signature"):
        parse_binary_copy(b"id\n1\n", [("id", "int4")])
