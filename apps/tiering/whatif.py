"""``manage.py whatif``: tiers JSON + objects CSV in, placements out. No database.

Pure (no Django): parsing, validation, the report and its three renderings
live here; the management command only calls :func:`whatif_run`.

Input
-----
TIERS.json is a non-empty list of tier objects, one of:

* ``{"name", "device_cost", "device_gb", "device_iops"}`` — bought per device;
* ``{"name", "usd_per_gb", "usd_per_iops"}`` — linear prices;
* ``{"name", "kind": "provisioned_iops", "usd_per_gb", ...}`` and
  ``{"name", "kind": "performance_level", "usd_per_gb", "iops_per_gb", ...}``
  — the cloud kinds of :mod:`apps.tiering.costmodel` (keys in
  ``TIER_KEYS``).

Every kind also accepts ``read_latency_ms`` and ``max_gb``; device tiers
``max_devices``. Limits bind only the ``optimized`` placement. Any other key
is an error.

OBJECTS.csv has the header ``name,iops,gb`` (any order), optionally with a
``current_tier`` column (used to break cost ties). ``gb`` must be > 0 and
``iops`` >= 0; names are unique.

Output
------
JSON (``--format json``), exactly four keys:

* ``tiers``: ``[{name, usd_per_gb, usd_per_iops, intensity}]`` — unit prices
  unrounded, intensity = usd_per_gb / usd_per_iops;
* ``break_even``: ``[{between: [lower, upper], intensity}]`` for tiers adjacent
  in intensity (lower = cheaper GB); above ``intensity`` the upper tier is
  cheaper per object; ``null`` when one tier is cheaper on both prices;
* ``objects``: ``[{name, iops, gb, intensity, costs: {tier: usd}, tier}]`` —
  cost of the object alone on each tier, and its cheapest tier;
* ``placements``: ``[{name, tiers: {tier: {devices, cost, iops, gb}},
  total_cost}]`` named ``recommended`` (each object on its cheapest tier),
  ``all on <tier>`` for every tier, and ``optimized`` (lowest pooled total).
  ``devices`` counts devices or cloud volumes (null for linear tiers);
  ``iops``/``gb`` are the capacity provided (devices x device figures; the
  summed demand for linear tiers; billed GB and provisioned IOPS for cloud).

Money is rounded to cents; all numbers are JSON numbers.

CSV (``--format csv``): two sections separated by an empty line.

1. header ``object,iops,gb,intensity,cost <tier>...,tier``: one row per object;
2. header ``placement,tier,devices,cost,iops,gb``: one row per placement and
   tier, then a row ``<placement>,TOTAL,,<total>,,``; the optimized placement
   ends with a row ``optimized,LOWER BOUND,,<bound>,,`` (the proven bound).

Cells that a spreadsheet would run as formulas are neutralised
(:mod:`apps.tiering.csvsafe`). Table (``--format table``): the same content
as plain-text tables (tabulate), plus the optimizer's bound, gap and method.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path

from apps.tiering.costmodel import (
    BreakEven,
    CostModelError,
    DeviceTier,
    LinearTier,
    ObjectChoice,
    PerformanceLevelTier,
    Placement,
    ProvisionedIopsTier,
    StorageObject,
    Tier,
    break_evens,
    choose_tiers,
    place_all_on,
    place_recommended,
    to_cents,
)
from apps.tiering.optimizer import InfeasiblePlacementError, OptimizationResult, optimize_placement

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
_MONEY_KEYS = frozenset({"device_cost", "usd_per_gb", "usd_per_iops"})
_ZERO_ALLOWED = frozenset({"included_iops_per_volume", "read_latency_ms"})
_CLASSES: dict[str, type[Tier]] = {
    "device": DeviceTier,
    "linear": LinearTier,
    "provisioned_iops": ProvisionedIopsTier,
    "performance_level": PerformanceLevelTier,
}


class WhatIfError(ValueError):
    """Bad input; ``str()`` is one line naming the file, line and field."""


# -- tiers ------------------------------------------------------------------


def parse_tiers(text: str, source: str) -> tuple[Tier, ...]:
    """Tiers from the text of a TIERS.json file (``source`` names it in errors)."""
    entries = _json_list(text, source)
    if not entries:
        raise WhatIfError(f"{source} line 1: the tier list is empty")
    tiers: list[Tier] = []
    seen: set[str] = set()
    for line, entry in entries:
        tier = _tier(entry, source, line)
        if tier.name in seen:
            raise WhatIfError(f"{source} line {line}: field 'name': duplicate tier name {tier.name!r}")
        seen.add(tier.name)
        tiers.append(tier)
    return tuple(tiers)


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


def _tier(entry: object, source: str, line: int) -> Tier:
    where = f"{source} line {line}"
    if not isinstance(entry, dict):
        raise WhatIfError(f"{where}: a tier must be a JSON object, got {type(entry).__name__}")
    name = entry.get("name")
    if not isinstance(name, str) or not name.strip():
        raise WhatIfError(f"{where}: field 'name': a non-empty string is required")
    where = f"{where} (tier {name!r})"
    kind = _tier_kind(entry, where)
    required, optional = TIER_KEYS[kind]
    allowed = {"name", "kind", *required, *optional}
    for key in entry:
        if key not in allowed:
            known = ", ".join(sorted(allowed))
            raise WhatIfError(f"{where}: field {key!r}: unknown key for a {kind} tier (allowed: {known})")
    kwargs: dict[str, object] = {"name": name}
    for key in required:
        if key not in entry:
            raise WhatIfError(f"{where}: field {key!r}: missing")
    for key in (*required, *optional):
        if key in entry and not (key == "usd_per_iops" and kind == "provisioned_iops" and entry[key] is None):
            kwargs[_FIELD_NAMES.get(key, key)] = _tier_number(entry[key], key, where)
    try:
        return _CLASSES[kind](**kwargs)
    except CostModelError as error:
        raise WhatIfError(f"{where}: {error}") from None


def _tier_kind(entry: dict, where: str) -> str:
    kind = entry.get("kind")
    if kind is None:
        return "device" if "device_cost" in entry or "device_gb" in entry or "device_iops" in entry else "linear"
    if kind not in TIER_KEYS:
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


# -- report -----------------------------------------------------------------


@dataclass(frozen=True)
class WhatIfReport:
    """Everything the three output formats show."""

    tiers: tuple[Tier, ...]
    break_evens: tuple[BreakEven, ...]
    choices: tuple[ObjectChoice, ...]
    placements: tuple[Placement, ...]  # recommended, all on <tier>..., optimized
    optimization: OptimizationResult


def whatif_report(
    tiers: Sequence[Tier], objects: Sequence[StorageObject], *, time_limit_s: float = 30.0
) -> WhatIfReport:
    """Per-object costs, break-evens and the placements for a tier set."""
    choices = choose_tiers(objects, tiers)
    try:
        optimization = optimize_placement(objects, tiers, time_limit_s=time_limit_s)
    except InfeasiblePlacementError as error:
        raise WhatIfError(f"tiers: {error}") from None
    placements = (
        place_recommended(objects, tiers, choices),
        *(place_all_on(objects, tiers, tier) for tier in tiers),
        optimization.placement,
    )
    return WhatIfReport(tuple(tiers), tuple(break_evens(tiers)), tuple(choices), placements, optimization)


def _money(amount: Decimal) -> float:
    return float(to_cents(amount))


def _number(amount: Decimal | float | int) -> float | int:
    if isinstance(amount, Decimal):
        return int(amount) if amount == amount.to_integral_value() else float(amount)
    return amount


def report_json(report: WhatIfReport) -> dict[str, list[dict[str, object]]]:
    """The JSON document (see the module docstring for its shape)."""
    return {
        "tiers": [
            {
                "name": t.name,
                "usd_per_gb": float(t.usd_per_gb),
                "usd_per_iops": float(t.usd_per_iops),
                "intensity": t.intensity,
            }
            for t in report.tiers
        ],
        "break_even": [{"between": [b.lower, b.upper], "intensity": b.intensity} for b in report.break_evens],
        "objects": [
            {
                "name": c.obj.name,
                "iops": c.obj.iops,
                "gb": c.obj.gb,
                "intensity": c.obj.intensity,
                "costs": {name: float(cost) for name, cost in c.costs_by_tier(report.tiers).items()},
                "tier": c.tier_name,
            }
            for c in report.choices
        ],
        "placements": [_placement_json(p) for p in report.placements],
    }


def _placement_json(placement: Placement) -> dict[str, object]:
    tiers = {
        u.tier_name: {"devices": u.devices, "cost": _money(u.cost_usd), "iops": _number(u.iops), "gb": _number(u.gb)}
        for u in placement.usages
    }
    return {"name": placement.name, "tiers": tiers, "total_cost": _money(placement.total_cost_usd)}


def report_csv(report: WhatIfReport) -> str:
    """The two-section CSV (see the module docstring for the layout)."""
    from apps.tiering.csvsafe import write_rows

    names = [tier.name for tier in report.tiers]
    out = io.StringIO(newline="")
    object_rows = [
        [c.obj.name, c.obj.iops, c.obj.gb, c.obj.intensity, *c.costs_by_tier(report.tiers).values(), c.tier_name]
        for c in report.choices
    ]
    write_rows(out, ["object", "iops", "gb", "intensity", *(f"cost {name}" for name in names), "tier"], object_rows)
    out.write("\r\n")
    write_rows(out, ["placement", "tier", "devices", "cost", "iops", "gb"], _placement_rows(report))
    return out.getvalue()


def _placement_rows(report: WhatIfReport) -> list[list[object]]:
    rows: list[list[object]] = []
    for placement in report.placements:
        for u in placement.usages:
            rows.append([placement.name, u.tier_name, u.devices, to_cents(u.cost_usd), _number(u.iops), _number(u.gb)])
        rows.append([placement.name, "TOTAL", None, to_cents(placement.total_cost_usd), None, None])
    bound = to_cents(report.optimization.lower_bound_usd)
    rows.append([report.optimization.placement.name, "LOWER BOUND", None, bound, None, None])
    return rows


def report_table(report: WhatIfReport) -> str:
    """Plain-text tables of the same content, for a terminal."""
    from tabulate import tabulate

    names = [tier.name for tier in report.tiers]
    sections = [
        "Tiers\n" + tabulate(
            [[t.name, float(t.usd_per_gb), float(t.usd_per_iops), t.intensity] for t in report.tiers],
            headers=["tier", "$/GB", "$/IOPS", "intensity"],
        ),
        "Break-even intensities\n" + tabulate(
            [[b.lower, b.upper, "none (dominated)" if b.intensity is None else b.intensity]
             for b in report.break_evens],
            headers=["lower tier", "upper tier", "intensity"],
        ),
        "Objects\n" + tabulate(
            [
                [c.obj.name, c.obj.iops, c.obj.gb, round(c.obj.intensity, 3),
                 *c.costs_by_tier(report.tiers).values(), c.tier_name]
                for c in report.choices
            ],
            headers=["object", "IOPS", "GB", "intensity", *(f"$ {name}" for name in names), "cheapest"],
        ),
        "Placements\n" + tabulate(
            _table_placement_rows(report),
            headers=["placement", "tier", "devices", "cost $", "IOPS", "GB"],
            disable_numparse=True,  # keep the cents as formatted
        ),
        _optimizer_line(report.optimization),
    ]
    return "\n\n".join(sections) + "\n"


def _table_placement_rows(report: WhatIfReport) -> list[list[object]]:
    rows: list[list[object]] = []
    for placement in report.placements:
        rows.append([placement.name, "(total)", "", f"{to_cents(placement.total_cost_usd):,}", "", ""])
        for u in placement.usages:
            devices = "-" if u.devices is None else str(u.devices)
            cost, iops, gb = f"{to_cents(u.cost_usd):,}", f"{_number(u.iops):,}", f"{_number(u.gb):,}"
            rows.append(["", u.tier_name, devices, cost, iops, gb])
    return rows


def _optimizer_line(result: OptimizationResult) -> str:
    return (
        f"optimized: ${to_cents(result.placement.total_cost_usd):,} (method {result.method}); "
        f"lower bound ${to_cents(result.lower_bound_usd):,}; gap {result.gap_pct:.2f}%"
    )


def render(report: WhatIfReport, output_format: str) -> str:
    """The report as ``json``, ``csv`` or ``table`` text."""
    if output_format == "json":
        return json.dumps(report_json(report), indent=2) + "\n"
    if output_format == "csv":
        return report_csv(report)
    if output_format == "table":
        return report_table(report)
    raise WhatIfError(f"--format: unknown format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise WhatIfError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise WhatIfError(f"{path}: cannot read the file: {error}") from None


def whatif_run(
    *, tiers_path: Path | str, objects_path: Path | str, output_format: str = "table", time_limit_s: float = 30.0
) -> str:
    """Read both files, build the report and render it; raises WhatIfError on bad input."""
    if output_format not in OUTPUT_FORMATS:
        raise WhatIfError(f"--format: unknown format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    tiers_file, objects_file = Path(tiers_path), Path(objects_path)
    tiers = parse_tiers(_read(tiers_file), str(tiers_file))
    objects = parse_objects(_read(objects_file), str(objects_file), [tier.name for tier in tiers])
    return render(whatif_report(tiers, objects, time_limit_s=time_limit_s), output_format)
