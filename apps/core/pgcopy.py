"""Bulk reads from PostgreSQL straight into numpy arrays, and bulk writes from them.

A recommendation refresh reads a dozen numbers for each of 100k segments and
writes 37 back. Through a cursor, or psycopg's COPY row by row, every value
or row costs Python work (~1 s each way at that size). Here no Python code
runs per row:

* reading (:func:`fetch_arrays`): the server packs each row's values in their
  binary send format and aggregates them into one bytea, which numpy reads as
  a record array;
* writing (:func:`copy_from_arrays`): numpy lays the rows out in PostgreSQL's
  binary COPY format (PostgreSQL docs, "COPY", "Binary Format": an 11-byte
  signature, 32-bit flags and header-extension length; per row a 16-bit field
  count and per field a 32-bit byte length, -1 for NULL, then the value in
  network byte order; a 16-bit -1 trailer).

No maintained library does either for numpy (psycopg and pgcopy work value by
value; Arrow's ADBC driver would add pyarrow and a second connection).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import psycopg
from psycopg.sql import Identifier

from apps.core import sql as core_sql

SIGNATURE = b"PGCOPY\n\xff\r\n\x00"

#: PostgreSQL type -> big-endian numpy type of its binary send format.
WIRE_TYPES: Mapping[str, str] = {
    "int2": ">i2", "int4": ">i4", "int8": ">i8", "float4": ">f4", "float8": ">f8", "bool": "?",
}

#: The native numpy type each column comes back as.
NATIVE_TYPES: Mapping[str, str] = {
    "int2": "i2", "int4": "i4", "int8": "i8", "float4": "f4", "float8": "f8", "bool": "?",
}


class CopyFormatError(ValueError):
    """The COPY stream does not have the expected fixed-width, non-null layout."""


def fetch_arrays(cursor, sql: core_sql.Query, params: Sequence | Mapping | None, columns: Sequence[tuple[str, str]]
                 ) -> dict[str, np.ndarray]:
    """The rows of a SELECT as one native numpy array per column.

    ``columns`` are (name, PostgreSQL type) in the SELECT's order; types are
    those of WIRE_TYPES. The server packs every row's values in their binary
    send format into one bytea (string_agg of int8send(...) || ...), which
    numpy reads as a record array: one value crosses the wire, where COPY TO
    costs a Python round of psycopg per row (1 s per 200k rows). Every value
    must be non-NULL (COALESCE in the SQL); a NULL raises CopyFormatError.
    ``cursor`` is a psycopg cursor (Django's ``cursor.cursor``).
    """
    for name, pg_type in columns:
        if pg_type not in WIRE_TYPES:
            raise CopyFormatError(f"column {name!r}: type {pg_type!r} is not one of {', '.join(WIRE_TYPES)}")
    row = _fetch_binary(cursor, core_sql.packed_rows(sql, columns), params)
    assert row is not None  # an aggregate answers one row
    count, data = row
    dtype = np.dtype([(name, WIRE_TYPES[pg_type]) for name, pg_type in columns])
    data = bytes(data or b"")
    if len(data) != count * dtype.itemsize:
        raise CopyFormatError(f"{count - len(data) // dtype.itemsize} of {count} rows have a NULL among "
                              f"{', '.join(name for name, _ in columns)}")
    records = np.frombuffer(data, dtype=dtype)
    return {name: records[name].astype(NATIVE_TYPES[pg_type]) for name, pg_type in columns}


def fetch_bytes(cursor, sql: core_sql.Query, params: Sequence | Mapping | None) -> bytes | None:
    """The single bytea value of a query (None: no row), read in binary: the text form would double
    it into hex that psycopg then decodes, 2-3x slower for the tens of MB of a rollup."""
    row = _fetch_binary(cursor, sql, params)
    return None if row is None else row[0]


def execute_binary(cursor, sql: core_sql.Query, params: Sequence | Mapping | None) -> None:
    """Execute with the parameters bound on the server, so bytes travel as binary bytea, not as an
    escaped literal twice their size that the server parses back."""
    with psycopg.Cursor(cursor.connection) as binary:
        binary.execute(sql, params)


def _fetch_binary(cursor, sql: core_sql.Query, params: Sequence | Mapping | None) -> tuple | None:
    # Django's cursors bind parameters on the client, which rules binary results out; a plain
    # psycopg cursor on the same connection (and transaction) binds them on the server.
    with psycopg.Cursor(cursor.connection) as binary:
        binary.execute(sql, params, binary=True)
        return binary.fetchone()


# --------------------------------------------------------------------------- writing

_PG_EPOCH_DAYS = 10_957  # 2000-01-01 - 1970-01-01, in days: binary dates count from 2000-01-01
_PG_EPOCH_US = _PG_EPOCH_DAYS * 86_400_000_000



def encode_binary_copy(columns: Sequence[tuple[str, np.ndarray, np.ndarray | None]]) -> bytes:
    """A whole binary COPY stream from numpy columns: (PostgreSQL type, values, null mask or None).

    Types: those of WIRE_TYPES, plus "date" (datetime64[D]), "timestamptz"
    (datetime64[us], UTC) and "text": an object array of str with few
    distinct values, or (codes, labels) — label ``labels[code]`` per row. Rows whose NULLs and text lengths fall the same way have the same
    layout: each such group is one packed numpy record array, written with
    tobytes(), so no Python code runs per row.
    """
    n = _rows(columns[0][1]) if columns else 0
    encoded = []  # per column: (numpy values in wire format, bytes per row)
    for pg_type, values, nulls in columns:
        if _rows(values) != n:
            raise CopyFormatError(f"columns have different lengths ({_rows(values)} and {n})")
        wire, widths = _wire_values(pg_type, values)
        if nulls is not None:
            widths = np.where(nulls, -1, widths)
        encoded.append((wire, widths))
    header = SIGNATURE + b"\x00\x00\x00\x00" + b"\x00\x00\x00\x00"
    if not n:
        return header + b"\xff\xff"
    varying = [c for c, (_, widths) in enumerate(encoded) if not np.all(widths == widths[0])]
    layouts, group = _layouts([encoded[c][1] for c in varying], n)
    chunks = [header]
    for number, layout in enumerate(layouts):
        rows = np.flatnonzero(group == number) if len(layouts) > 1 else None
        lengths = [int(w[0]) for _, w in encoded]
        for position, c in enumerate(varying):
            lengths[c] = int(layout[position])
        fields: list[tuple[str, object]] = [("count", ">i2")]
        for c, (wire, _) in enumerate(encoded):
            fields.append((f"l{c}", ">i4"))
            if lengths[c] > 0:
                fields.append((f"v{c}", f"S{lengths[c]}" if wire.dtype.kind == "S" else wire.dtype))
        # The field count and lengths are the same in every row of a layout: one template row,
        # repeated (assigning a scalar to an unaligned big-endian field is slower than the copy).
        template = np.zeros(1, dtype=np.dtype(fields))
        template["count"] = len(encoded)
        for c in range(len(encoded)):
            template[f"l{c}"] = lengths[c]
        count = n if rows is None else rows.size
        records = np.frombuffer(bytearray(template.tobytes() * count), dtype=template.dtype)
        for c, (wire, _) in enumerate(encoded):
            if lengths[c] > 0:
                records[f"v{c}"] = wire if rows is None else wire[rows]
        chunks.append(records.tobytes())
    chunks.append(b"\xff\xff")
    return b"".join(chunks)


def _rows(values) -> int:
    return len(values[0]) if isinstance(values, tuple) else len(values)


def _layouts(widths: list[np.ndarray], n: int) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of the varying columns' widths, and each row's number among them."""
    if not widths:
        return np.zeros((1, 0), dtype=np.int64), np.zeros(n, dtype=np.int64)
    # One integer key per row from each column's small set of widths: far cheaper than unique(axis=0).
    key = np.zeros(n, dtype=np.int64)
    scale = 1
    for column in widths:
        values, codes = np.unique(column, return_inverse=True)
        if scale * len(values) >= 2**62:
            layouts, group = np.unique(np.column_stack(widths), axis=0, return_inverse=True)
            return layouts, group.reshape(-1)
        key += codes.reshape(-1) * scale
        scale *= len(values)
    keys, first, group = np.unique(key, return_index=True, return_inverse=True)
    return np.column_stack(widths)[first], group.reshape(-1)


def _wire_values(pg_type: str, values) -> tuple[np.ndarray, np.ndarray]:
    """One column in its binary send format (big-endian numbers, UTF-8 bytes) and each row's byte length."""
    n = _rows(values)
    if pg_type in WIRE_TYPES:
        wire = np.asarray(values).astype(WIRE_TYPES[pg_type])
    elif pg_type == "date":
        wire = (np.asarray(values, dtype="datetime64[D]").astype(np.int64) - _PG_EPOCH_DAYS).astype(">i4")
    elif pg_type == "timestamptz":
        wire = (np.asarray(values, dtype="datetime64[us]").astype(np.int64) - _PG_EPOCH_US).astype(">i8")
    elif pg_type == "text":
        # Few distinct strings, each encoded once: given as (codes, labels), or found with a dict.
        if isinstance(values, tuple):
            inverse, labels = np.asarray(values[0], dtype=np.int64), values[1]
            n = len(inverse)
        else:
            seen: dict[str, int] = {}
            inverse = np.fromiter((seen.setdefault(text, len(seen)) for text in values), dtype=np.int64, count=n)
            labels = list(seen)
        raw = [str(text).encode() for text in labels]
        table = np.array(raw, dtype=f"S{max((len(b) for b in raw), default=0) or 1}")
        return table[inverse], np.array([len(b) for b in raw], dtype=np.int64)[inverse]
    else:
        raise CopyFormatError(f"cannot write type {pg_type!r}")
    return wire, np.full(n, wire.dtype.itemsize, dtype=np.int64)


def copy_from_arrays(cursor, table: Identifier, columns: Sequence[tuple[str, str, np.ndarray, np.ndarray | None]]
                     ) -> int:
    """COPY numpy columns into ``table`` (apps.core.sql.table of a model): (column name, PostgreSQL type, values,
    null mask or None)."""
    stream = encode_binary_copy([(pg_type, values, nulls) for _, pg_type, values, nulls in columns])
    with cursor.copy(core_sql.copy_in(table, [name for name, *_ in columns], binary=True)) as copy:
        copy.write(stream)
    return _rows(columns[0][2]) if columns else 0
