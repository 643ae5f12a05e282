"""What every real report in ../shared/awr-samples says, for parse_report's tests (test_parser.py).

The figures, each read off its report by hand (provenance notes beside them), are data: sample_figures.toml
beside this module, one table per report file name. ``read_figures`` turns that text into ``Expected`` values and
refuses a table with a key it does not know, or without one it needs, naming the report and the key.
"""

from __future__ import annotations

import tomllib
from collections.abc import Collection
from dataclasses import MISSING, dataclass, field, fields
from pathlib import Path
from typing import Any

FIGURES_TOML = Path(__file__).with_suffix(".toml")

Seg = tuple[str, str, str, str, str, dict[str, int]]

#: A segment's keys in the TOML, in the order of a ``Seg``.
SEGMENT_KEYS = ("owner", "tablespace", "object", "subobject", "type", "figures")
#: A tablespace's keys in the TOML, in the order of its triple in ``Expected.tablespaces``.
TABLESPACE_KEYS = ("reads", "av_read_ms", "writes")


@dataclass(frozen=True)
class Expected:
    db_name: str
    dbid: int
    instances: list[int]
    release: str
    rac: bool
    snaps: tuple[int, int]
    times: tuple[str, str]
    elapsed_minutes: float
    segments: list[Seg] = field(default_factory=list)
    tablespaces: dict[str, tuple[int, float, int]] = field(default_factory=dict)
    sysstat: dict[str, int] = field(default_factory=dict)
    no_segments: bool = False
    no_tablespaces: bool = False
    startup: dict[int, str] = field(default_factory=dict)
    is_global: bool = False


REQUIRED = tuple(f.name for f in fields(Expected) if f.default is MISSING and f.default_factory is MISSING)
OPTIONAL = tuple(f.name for f in fields(Expected) if f.name not in REQUIRED)


class FiguresError(ValueError):
    """The figures file has a key the figures do not have, or lacks one they need."""


def _check_keys(where: str, table: Any, required: Collection[str], optional: Collection[str] = ()) -> None:
    if not isinstance(table, dict):
        raise FiguresError(f"{where}: a table is expected, not {table!r}")
    unknown = [key for key in table if key not in required and key not in optional]
    if unknown:
        raise FiguresError(f"{where}: unknown key {unknown[0]!r} (known: {', '.join([*required, *optional])})")
    missing = [key for key in required if key not in table]
    if missing:
        raise FiguresError(f"{where}: missing key {missing[0]!r}")


def _segment(where: str, table: Any) -> Seg:
    _check_keys(where, table, SEGMENT_KEYS)
    owner, tablespace, obj, sub, kind, figures = (table[key] for key in SEGMENT_KEYS)
    return owner, tablespace, obj, sub, kind, figures


def _tablespace(where: str, table: Any) -> tuple[int, float, int]:
    _check_keys(where, table, TABLESPACE_KEYS)
    reads, av_read_ms, writes = (table[key] for key in TABLESPACE_KEYS)
    return reads, av_read_ms, writes


def _pair(where: str, table: dict[str, Any], key: str) -> tuple[Any, Any]:
    value = table[key]
    if not isinstance(value, list) or len(value) != 2:
        raise FiguresError(f"{where}: {key} is a [begin, end] pair, not {value!r}")
    return value[0], value[1]


def _instance_number(where: str, key: str) -> int:
    if not key.isdigit():
        raise FiguresError(f"{where}: startup key {key!r} is not an instance number")
    return int(key)


def _expected(where: str, table: Any) -> Expected:
    _check_keys(where, table, REQUIRED, OPTIONAL)
    return Expected(
        db_name=table["db_name"],
        dbid=table["dbid"],
        instances=table["instances"],
        release=table["release"],
        rac=table["rac"],
        snaps=_pair(where, table, "snaps"),
        times=_pair(where, table, "times"),
        elapsed_minutes=table["elapsed_minutes"],
        segments=[_segment(f"{where} segments[{i}]", s) for i, s in enumerate(table.get("segments", []))],
        tablespaces={name: _tablespace(f"{where} tablespaces.{name}", figures)
                     for name, figures in table.get("tablespaces", {}).items()},
        sysstat=table.get("sysstat", {}),
        no_segments=table.get("no_segments", False),
        no_tablespaces=table.get("no_tablespaces", False),
        startup={_instance_number(where, number): at for number, at in table.get("startup", {}).items()},
        is_global=table.get("is_global", False),
    )


def read_figures(text: str, source: str = FIGURES_TOML.name) -> dict[str, Expected]:
    """Each report's ``Expected``, by report file name, from the TOML ``text`` (``source`` names it in errors)."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise FiguresError(f"{source}: {error}") from error
    return {name: _expected(f"{source} [{name}]", table) for name, table in document.items()}


EXPECTED: dict[str, Expected] = read_figures(FIGURES_TOML.read_text(encoding="utf-8"))
