"""``manage.py whatif``: tiers JSON + objects CSV in, placements out. No database.

Pure (no Django): parsing and validation (:mod:`.inputs`), the report and
its money (:mod:`.report`) and its three renderings (:mod:`.render`); the
management command only calls :func:`whatif_run`.

Input
-----
TIERS.json is a non-empty list of tier objects, one of:

* ``{"name", "device_cost", "device_gb", "device_iops"}`` — bought per device;
* ``{"name", "usd_per_gb", "usd_per_iops"}`` — linear prices;
* ``{"name", "kind": "provisioned_iops", "usd_per_gb", ...}`` and
  ``{"name", "kind": "performance_level", "usd_per_gb", "iops_per_gb", ...}``
  — the cloud kinds of :mod:`apps.tiering.costmodel` (keys in
  ``TIER_KEYS``).

Every kind also accepts ``read_latency_ms``, ``max_gb`` and ``billing``
(``"purchase"``: a price paid once, amortised per month over
``--amortisation-months``, default 60; ``"monthly"``: billed per month;
default purchase for device tiers, monthly for the others); device tiers
``max_devices``. Limits bind only the ``optimized`` placement. Any other key
is an error.

OBJECTS.csv has the header ``name,iops,gb`` (any order), optionally with a
``current_tier`` column (used to break cost ties). ``gb`` must be > 0 and
``iops`` >= 0; names are unique.

Output
------
Money: when every tier has one billing basis, costs are in its unit (the
seed's device prices stay purchase totals, exactly) and a per-month figure
is given beside each; when tiers are billed differently, everything is
compared per month (a purchase divided by its months). Cloud volume tiers
price each object inside a pooled volume (its marginal cost); a placement
pays each tier's minimum volume size and free IOPS baseline once.

JSON (``--format json``), exactly six keys (``cost_unit``: "USD purchase" or
"USD/month", the unit of every ``cost``; ``amortisation_months``), and:

* ``tiers``: ``[{name, usd_per_gb, usd_per_iops, intensity, billing}]`` — unit prices
  unrounded, intensity = usd_per_gb / usd_per_iops;
* ``break_even``: ``[{between: [lower, upper], intensity}]`` for tiers adjacent
  in intensity (lower = cheaper GB); above ``intensity`` the upper tier is
  cheaper per object; ``null`` when one tier is cheaper on both prices;
* ``objects``: ``[{name, iops, gb, intensity, costs: {tier: usd}, tier,
  costs_per_month}]`` — cost of the object on each tier (inside a pooled
  volume on cloud tiers), and its cheapest tier;
* ``placements``: ``[{name, tiers: {tier: {devices, cost, iops, gb,
  cost_per_month}}, total_cost, total_cost_per_month}]`` named ``recommended`` (each object on its cheapest tier),
  ``all on <tier>`` for every tier, and ``optimized`` (lowest pooled total).
  ``devices`` counts devices or cloud volumes (null for linear tiers);
  ``iops``/``gb`` are the capacity provided (devices x device figures; the
  summed demand for linear tiers; billed GB and provisioned IOPS for cloud).

Money is rounded to cents; all numbers are JSON numbers.

CSV (``--format csv``): two sections separated by an empty line.

1. header ``object,iops,gb,intensity,cost <tier>...,tier,cost per month
   <tier>...``: one row per object;
2. header ``placement,tier,devices,cost,iops,gb,cost_unit,cost_per_month``:
   one row per placement and tier, then a row
   ``<placement>,TOTAL,,<total>,,,<unit>,<per month>``; the optimized
   placement ends with a row ``optimized,LOWER BOUND,,<bound>,,,<unit>,<per
   month>`` (the proven bound). Columns are only ever appended.

Cells that a spreadsheet would run as formulas are neutralised
(:mod:`apps.tiering.csvsafe`). Table (``--format table``): the same content
as plain-text tables (tabulate), plus the optimizer's bound, gap and method.
"""

from __future__ import annotations

from pathlib import Path

from apps.tiering.costmodel import DEFAULT_AMORTISATION_MONTHS
from apps.tiering.whatif.inputs import (
    OBJECT_COLUMNS,
    OUTPUT_FORMATS,
    TIER_KEYS,
    WhatIfError,
    parse_objects,
    parse_tier_set,
    parse_tiers,
)
from apps.tiering.whatif.render import render, report_csv, report_json, report_table
from apps.tiering.whatif.report import WhatIfReport, whatif_report

__all__ = [
    "OBJECT_COLUMNS", "OUTPUT_FORMATS", "TIER_KEYS", "WhatIfError", "WhatIfReport", "parse_objects",
    "parse_tier_set", "parse_tiers", "render", "report_csv", "report_json", "report_table", "whatif_report",
    "whatif_run",
]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise WhatIfError(f"{path}: file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise WhatIfError(f"{path}: cannot read the file: {error}") from None


def whatif_run(
    *, tiers_path: Path | str, objects_path: Path | str, output_format: str = "table", time_limit_s: float = 30.0,
    amortisation_months: int = DEFAULT_AMORTISATION_MONTHS,
) -> str:
    """Read both files, build the report and render it; raises WhatIfError on bad input."""
    if output_format not in OUTPUT_FORMATS:
        raise WhatIfError(f"--format: unknown format {output_format!r} (known: {', '.join(OUTPUT_FORMATS)})")
    tiers_file, objects_file = Path(tiers_path), Path(objects_path)
    if not amortisation_months >= 1:
        raise WhatIfError(f"--amortisation-months: must be at least 1, got {amortisation_months}")
    tiers, billing = parse_tier_set(_read(tiers_file), str(tiers_file), months=amortisation_months)
    objects = parse_objects(_read(objects_file), str(objects_file), [tier.name for tier in tiers])
    return render(whatif_report(tiers, objects, time_limit_s=time_limit_s, billing=billing), output_format)
