"""``whatif``'s input files: TIERS.json and OBJECTS.csv, parsed and validated (messages name file, line, field)."""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from apps.tiering.costmodel import (
    DEFAULT_AMORTISATION_MONTHS,
    TIER_KINDS,
    BillingBasis,
    CostModelError,
    StorageObject,
    Tier,
)

OUTPUT_FORMATS = ("json", "csv", "table")
OBJECT_COLUMNS = ("name", "iops", "gb")
OPTIONAL_OBJECT_COLUMNS = ("current_tier",)
_COMMON_OPTIONAL = ("read_latency_ms", "max_gb")

#: Per tier kind: (required keys, optional keys). ``name`` is always required.
TIER_KEYS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "device": (("device_cost", "device_gb", "device_iops"), _COMMON_OPTIONAL + ("max_devices",)),
    "linear": (("usd_per_gb", "usd_per_iops"), _COMMON_OPTIONAL),
    "provisioned_iops": (
        ("usd_per_gb",),
        _COMMON_OPTIONAL
        + ("usd_per_iops", "included_iops_per_volume", "max_iops_per_gb")
        + ("volume_min_gb", "volume_max_gb", "volume_max_iops"),
    ),
    "performance_level": (
        ("usd_per_gb", "iops_per_gb"),
        _COMMON_OPTIONAL + ("volume_min_gb", "volume_max_gb", "volume_max_iops"),
    ),
}
# JSON key -> costmodel field, where they differ.
_FIELD_NAMES = {
    "device_cost": "device_cost_usd",
    "usd_per_gb": "usd_per_gb_price",
    "usd_per_iops": "usd_per_iops_price",
}
#: A tier's ``billing``: a price paid once (amortised per month) or a monthly bill.
BILLINGS = ("purchase", "monthly")
_MONEY_KEYS = frozenset({"device_cost", "usd_per_gb", "usd_per_iops"})
_ZERO_ALLOWED = frozenset({"included_iops_per_volume", "read_latency_ms"})


class WhatIfError(ValueError):
    """Bad input; ``str()`` is one line naming the file, line and field."""


# -- tiers ------------------------------------------------------------------


def parse_tiers(text: str, source: str) -> tuple[Tier, ...]:
    """Tiers from the text of a TIERS.json file (``source`` names it in errors)."""
    return parse_tier_set(text, source)[0]


def parse_tier_set(
    text: str, source: str, *, months: int = DEFAULT_AMORTISATION_MONTHS
) -> tuple[tuple[Tier, ...], dict[str, BillingBasis]]:
    """Tiers from the text of a TIERS.json file, and each one's billing basis (a purchase amortised over
    ``months``, or monthly), by tier name."""
    entries = _json_list(text, source)
    if not entries:
        raise WhatIfError(f"{source} line 1: the tier list is empty")
    tiers: list[Tier] = []
    billing: dict[str, BillingBasis] = {}
    for line, entry in entries:
        tier, purchase = _tier(entry, source, line)
        if tier.name in billing:
            raise WhatIfError(f"{source} line {line}: field 'name': duplicate tier name {tier.name!r}")
        billing[tier.name] = BillingBasis(purchase=purchase, months=months)
        tiers.append(tier)
    return tuple(tiers), billing


def _json_list(text: str, source: str) -> list[tuple[int, object]]:
    """The elements of a top-level JSON list with the line each starts on."""
    decoder = json.JSONDecoder(parse_float=Decimal)
    position = _skip_space(text, 0)
    if position >= len(text):
        raise WhatIfError(f"{source} line 1: the file is empty")
    if text[position] != "[":
        raise WhatIfError(f"{source} line {_line(text, position)}: expected a JSON list of tiers")
    entries: list[tuple[int, object]] = []
    position = _skip_space(text, position + 1)
    while position < len(text) and text[position] != "]":
        try:
            entry, end = decoder.raw_decode(text, position)
        except json.JSONDecodeError as error:
            raise WhatIfError(f"{source} line {error.lineno}: malformed JSON: {error.msg}") from None
        entries.append((_line(text, position), entry))
        position = _skip_space(text, end)
        if position < len(text) and text[position] == ",":
            position = _skip_space(text, position + 1)
        elif position < len(text) and text[position] != "]":
            raise WhatIfError(f"{source} line {_line(text, position)}: malformed JSON: expected ',' or ']'")
    if position >= len(text):
        raise WhatIfError(f"{source} line {_line(text, len(text))}: malformed JSON: the list is not closed")
    if _skip_space(text, position + 1) < len(text):
        raise WhatIfError(f"{source} line {_line(text, position + 1)}: malformed JSON: extra data after the list")
    return entries


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position] in " \t\r\n\ufeff":
        position += 1
    return position


def _line(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _tier(entry: object, source: str, line: int) -> tuple[Tier, bool]:
    """The tier of one entry and whether its price is a purchase (default: device tiers are, others monthly)."""
    where = f"{source} line {line}"
    if not isinstance(entry, dict):
        raise WhatIfError(f"{where}: a tier must be a JSON object, got {type(entry).__name__}")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise WhatIfError(f"{where}: field 'name': a non-empty string is required")
    where = f"{where} (tier {name!r})"
    kind = _tier_kind(entry, where)
    required, optional = TIER_KEYS[kind]
    allowed = {"name", "kind", "billing", *required, *optional}
    for key in entry:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise WhatIfError(f"{where}: field {key!r}: unknown key for a {kind} tier (allowed: {known})")
    kwargs: dict[str, Any] = {"name": name}  # named by the file's keys, checked above and by the tier class
    for key in required:
        if key not in entry:
            raise WhatIfError(f"{where}: field {key!r}: missing")
    for key in (*required, *optional):
        if key in entry and not (key == "usd_per_iops" and kind == "provisioned_iops" and entry[key] is None):
            kwargs[_FIELD_NAMES.get(key, key)] = _tier_number(entry[key], key, where)
    billing = entry.get("billing", "purchase" if kind == "device" else "monthly")
    if billing not in BILLINGS:
        raise WhatIfError(f"{where}: field 'billing': must be one of {', '.join(BILLINGS)}, got {billing!r}")
    try:
        return TIER_KINDS[kind](**kwargs), billing == "purchase"
    except CostModelError as error:
        raise WhatIfError(f"{where}: {error}") from None


def _tier_kind(entry: dict[str, Any], where: str) -> str:
    kind = entry.get("kind")
    if kind is None:
        return "device" if "device_cost" in entry or "device_gb" in entry or "device_iops" in entry else "linear"
    if not isinstance(kind, str) or kind not in TIER_KEYS:
        raise WhatIfError(f"{where}: field 'kind': unknown kind {kind!r} (known: {', '.join(TIER_KEYS)})")
    return kind


def _tier_number(number: object, key: str, where: str) -> Decimal | float | int:
    if isinstance(number, bool) or not isinstance(number, (int, Decimal)):
        raise WhatIfError(f"{where}: field {key!r}: must be a number, got {json.dumps(number, default=str)}")
    if number < 0 or (number == 0 and key not in _ZERO_ALLOWED):
        qualifier = "non-negative" if key in _ZERO_ALLOWED else "positive"
        raise WhatIfError(f"{where}: field {key!r}: must be {qualifier}, got {number}")
    if key == "max_devices":
        if number != int(number):
            raise WhatIfError(f"{where}: field {key!r}: must be a whole number, got {number}")
        return int(number)
    if key in _MONEY_KEYS:
        return Decimal(number)
    return float(number)


# -- objects ----------------------------------------------------------------


def parse_objects(text: str, source: str, tier_names: Sequence[str] = ()) -> tuple[StorageObject, ...]:
    """Objects from the text of an OBJECTS.csv file (``source`` names it in errors)."""
    reader = csv.reader(io.StringIO(text.lstrip("\ufeff")))
    header = next(reader, None)
    if header is None or not any(cell.strip() for cell in header):
        raise WhatIfError(f"{source} line 1: the file is empty (expected the header {','.join(OBJECT_COLUMNS)})")
    columns = _object_columns(header, source)
    objects: list[StorageObject] = []
    seen: set[str] = set()
    for row in reader:
        if not any(cell.strip() for cell in row):
            continue
        obj = _object(row, columns, source, reader.line_num, tier_names)
        if obj.name in seen:
            raise WhatIfError(f"{source} line {reader.line_num}: field 'name': duplicate object name {obj.name!r}")
        seen.add(obj.name)
        objects.append(obj)
    if not objects:
        raise WhatIfError(f"{source} line 2: no objects after the header")
    return tuple(objects)


def _object_columns(header: list[str], source: str) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, raw in enumerate(header):
        column = raw.strip().lower()
        if column not in OBJECT_COLUMNS + OPTIONAL_OBJECT_COLUMNS:
            raise WhatIfError(f"{source} line 1: field {raw!r}: unknown column (expected {','.join(OBJECT_COLUMNS)})")
        if column in columns:
            raise WhatIfError(f"{source} line 1: field {raw!r}: duplicate column")
        columns[column] = index
    for column in OBJECT_COLUMNS:
        if column not in columns:
            raise WhatIfError(f"{source} line 1: field {column!r}: missing column")
    return columns


def _object(
    row: list[str], columns: dict[str, int], source: str, line: int, tier_names: Sequence[str]
) -> StorageObject:
    where = f"{source} line {line}"
    if len(row) != len(columns):
        raise WhatIfError(f"{where}: {len(row)} cells but the header has {len(columns)}")
    name = row[columns["name"]].strip()
    if not name:
        raise WhatIfError(f"{where}: field 'name': missing")
    iops = _csv_number(row[columns["iops"]], "iops", where, allow_zero=True)
    gb = _csv_number(row[columns["gb"]], "gb", where, allow_zero=False)
    current = (row[columns["current_tier"]].strip() or None) if "current_tier" in columns else None
    if current is not None and tier_names and current not in tier_names:
        raise WhatIfError(f"{where}: field 'current_tier': unknown tier {current!r}")
    return StorageObject(name=name, iops=iops, gb=gb, current_tier=current)


def _csv_number(cell: str, column: str, where: str, *, allow_zero: bool) -> float | int:
    text = cell.strip()
    if not text:
        raise WhatIfError(f"{where}: field {column!r}: missing number")
    try:
        number: float | int = int(text)
    except ValueError:
        try:
            number = float(text)
        except ValueError:
            raise WhatIfError(f"{where}: field {column!r}: not a number: {text!r}") from None
    if not math.isfinite(number):
        raise WhatIfError(f"{where}: field {column!r}: must be finite, got {text!r}")
    if number < 0 or (number == 0 and not allow_zero):
        raise WhatIfError(f"{where}: field {column!r}: must be {'>= 0' if allow_zero else '> 0'}, got {text}")
    return number

