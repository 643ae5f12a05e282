"""Typing one extract file: every CSV line checked and typed, or an ExtractError naming where.

:func:`read_table` / :func:`iter_table` read one file of :data:`~apps.targets.extract.files.FILES`:
the header (every declared column there, or an Oracle error spooled instead), each line's value
count, NULLs in required columns, whole numbers, decimals, ISO 8601 dates and text lengths, with
every line read under a byte bound. A typed row is ``{COLUMN: value}`` (NULL as None) and keeps its
line number under :data:`LINE`. Pure: no Django.
"""

from __future__ import annotations

import csv
import datetime as dt
import re
from collections.abc import Iterator
from typing import IO, Any

from apps.targets.extract.archive import Budget, ExtractError, ExtractLimits
from apps.targets.extract.files import FILES, OPTIONAL_COLUMNS, Column
from apps.targets.extract.partitions import PARTITION_TEXT_MAX_CHARS

#: Longest text per column: Oracle names are 128 bytes (12.2 on), types 30 characters as stored; a few
#: columns hold longer text (parameter values, LOB column paths), counted in characters.
NAME_MAX_BYTES = 128
_TEXT_MAX_CHARS = {"VALUE": 4000, "LOB_COLUMN_NAME": 300, "OBJECT_TYPE": 30, "SEGMENT_TYPE": 30,
                   "FILE_NAME": 513, **PARTITION_TEXT_MAX_CHARS}

# A SQL*Plus or Oracle error spooled instead of rows: the statement failed on the database.
_ORACLE_ERROR = re.compile(r"^\s*(?:ORA|SP2|PLS|TNS)-\d+|^\s*ERROR at line \d+", re.IGNORECASE)
_WHOLE_NUMBER = re.compile(r"^[+-]?\d+$")

Row = dict[str, Any]
#: Key under which each typed row keeps its line number in the file, for later checks.
LINE = "__line__"


def _typed(text: str, column: Column, *, filename: str, line: int) -> Any:
    if text == "":
        if column.required:
            raise ExtractError("is empty (NULL) but must have a value", filename=filename, line=line,
                               column=column.name)
        return None
    try:
        if column.kind == "int":
            if not _WHOLE_NUMBER.match(text.strip()):
                raise ValueError
            return int(text)
        if column.kind == "float":
            return float(text)
        if column.kind == "datetime":
            moment = dt.datetime.fromisoformat(text.strip())
            if moment.tzinfo is not None:
                raise ValueError
            return moment
    except ValueError:
        expected = {"int": "a whole number", "float": "a number",
                    "datetime": "a date and time like 2024-05-01T13:45:00"}[column.kind]
        shown = text if len(text) <= 40 else text[:40] + "..."
        raise ExtractError(f"{shown!r} is not {expected}", filename=filename, line=line,
                           column=column.name) from None
    longest = _TEXT_MAX_CHARS.get(column.name)
    if longest is not None and len(text) > longest:
        raise ExtractError(f"{text[:40] + '...'!r} is {len(text)} characters long, more than the {longest} allowed",
                           filename=filename, line=line, column=column.name)
    size = len(text.encode("utf-8")) if longest is None else 0
    if size > NAME_MAX_BYTES:
        length = f"{len(text)} characters" if size == len(text) else f"{len(text)} characters ({size} bytes)"
        raise ExtractError(f"{text[:40] + '...'!r} is {length} long, more than the {NAME_MAX_BYTES} bytes an Oracle "
                           "name has", filename=filename, line=line, column=column.name)
    return text


def _decoded_lines(stream: IO[bytes], filename: str, limits: ExtractLimits, budget: Budget) -> Iterator[str]:
    """The file's lines, each read with a bound (a zip member's declared size is not trusted)."""
    number = 0
    while raw := stream.readline(limits.line_bytes + 1):
        number += 1
        budget.spend(len(raw), filename=filename, line=number)
        if len(raw) > limits.line_bytes:
            raise ExtractError(f"the line is longer than {limits.line_bytes} bytes: not a line tierscope_extract.sql "
                               "writes", filename=filename, line=number)
        try:
            text = raw.decode("utf-8-sig" if number == 1 else "utf-8")
        except UnicodeDecodeError:
            raise ExtractError("is not UTF-8 text: run the script with NLS_LANG=AMERICAN_AMERICA.AL32UTF8",
                               filename=filename, line=number) from None
        yield text


def _header(reader: Any, filename: str) -> dict[str, int]:
    first = next(reader, None)
    if first is None:
        raise ExtractError("is empty: the statement did not run (look at the SQL*Plus output)", filename=filename)
    names = [name.strip().upper() for name in first]
    if len(names) == 1 and _ORACLE_ERROR.match(names[0]):
        raise ExtractError(f"the statement failed on the database: {first[0].strip()}", filename=filename, line=1)
    optional = OPTIONAL_COLUMNS.get(filename, frozenset())
    missing = [column.name for column in FILES[filename] if column.name not in names and column.name not in optional]
    if missing:
        raise ExtractError(f"the header lacks {', '.join(missing)}: not a file of tierscope_extract.sql",
                           filename=filename, line=1)
    return {name: index for index, name in enumerate(names)}


def read_table(stream: IO[bytes], filename: str, *, limits: ExtractLimits | None = None,
               budget: Budget | None = None) -> list[Row]:
    """Typed rows of one extract file ({COLUMN: value}, NULL as None); ExtractError on any bad line."""
    return list(iter_table(stream, filename, limits=limits, budget=budget))


def iter_table(stream: IO[bytes], filename: str, *, limits: ExtractLimits | None = None,
               budget: Budget | None = None) -> Iterator[Row]:
    """:func:`read_table`'s rows as they are read (a file too large to hold: seg_stat.csv)."""
    columns = FILES[filename]
    limits = limits or ExtractLimits()
    budget = budget or Budget(limits.unpacked_bytes)
    reader = csv.reader(_decoded_lines(stream, filename, limits, budget), strict=True)
    try:
        positions = _header(reader, filename)
        for values in reader:
            if not values or values == [""]:
                continue  # SQL*Plus may end a spool with a blank line
            line = reader.line_num
            if len(values) == 1 and _ORACLE_ERROR.match(values[0]):
                raise ExtractError(f"the statement failed on the database: {values[0].strip()}",
                                   filename=filename, line=line)
            if len(values) != len(positions):
                raise ExtractError(f"has {len(values)} values, the header has {len(positions)}",
                                   filename=filename, line=line)
            row = {column.name: _typed(values[positions[column.name]], column, filename=filename, line=line)
                   if column.name in positions else None for column in columns}
            row[LINE] = line
            yield row
    except csv.Error as error:
        raise ExtractError(f"is not valid CSV ({error})", filename=filename, line=reader.line_num) from None
