"""``whatif``'s report as JSON, CSV or plain-text tables."""

from __future__ import annotations

import io
import json
from decimal import Decimal

from tabulate import tabulate

from apps.tiering.costmodel import PURCHASE, Placement, to_cents
from apps.tiering.csvsafe import write_rows
from apps.tiering.optimizer import OptimizationResult
from apps.tiering.whatif.inputs import OUTPUT_FORMATS, WhatIfError
from apps.tiering.whatif.report import WhatIfReport


def _money(amount: Decimal) -> float:
    return float(to_cents(amount))


def _number(amount: Decimal | float | int) -> float | int:
    if isinstance(amount, Decimal):
        return int(amount) if amount == amount.to_integral_value() else float(amount)
    return amount


def _month(report: WhatIfReport, amount: Decimal) -> float:
    return float(to_cents(report.per_month(amount)))


def _costs_per_month(report: WhatIfReport, costs: dict[str, Decimal]) -> dict[str, float]:
    return {name: _month(report, cost) for name, cost in costs.items()}


def report_json(report: WhatIfReport) -> dict[str, object]:
    """The JSON document (see the module docstring for its shape)."""
    return {
        "cost_unit": report.cost_unit,
        "amortisation_months": report.months,
        "tiers": [
            {
                "name": t.name,
                "usd_per_gb": float(t.usd_per_gb),
                "usd_per_iops": float(t.usd_per_iops),
                "intensity": t.intensity,
                "billing": "purchase" if report.billing[t.name].purchase else "monthly",
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
                "costs_per_month": _costs_per_month(report, c.costs_by_tier(report.tiers)),
            }
            for c in report.choices
        ],
        "placements": [_placement_json(report, p) for p in report.placements],
    }


def _placement_json(report: WhatIfReport, placement: Placement) -> dict[str, object]:
    tiers = {
        u.tier_name: {"devices": u.devices, "cost": _money(u.cost_usd), "iops": _number(u.iops), "gb": _number(u.gb),
                      "cost_per_month": _month(report, u.cost_usd)}
        for u in placement.usages
    }
    return {"name": placement.name, "tiers": tiers, "total_cost": _money(placement.total_cost_usd),
            "total_cost_per_month": _month(report, placement.total_cost_usd)}


def report_csv(report: WhatIfReport) -> str:
    """The two-section CSV (see the module docstring for the layout)."""
    names = [tier.name for tier in report.tiers]
    out = io.StringIO(newline="")
    object_rows = []
    for c in report.choices:
        costs = c.costs_by_tier(report.tiers)
        monthly = [to_cents(report.per_month(cost)) for cost in costs.values()]
        object_rows.append([c.obj.name, c.obj.iops, c.obj.gb, c.obj.intensity, *costs.values(), c.tier_name, *monthly])
    header = ["object", "iops", "gb", "intensity", *(f"cost {name}" for name in names), "tier",
              *(f"cost per month {name}" for name in names)]
    write_rows(out, header, object_rows)
    out.write("\r\n")
    write_rows(out, ["placement", "tier", "devices", "cost", "iops", "gb", "cost_unit", "cost_per_month"],
               _placement_rows(report))
    return out.getvalue()


def _placement_rows(report: WhatIfReport) -> list[list[object]]:
    rows: list[list[object]] = []
    for placement in report.placements:
        for u in placement.usages:
            rows.append([placement.name, u.tier_name, u.devices, to_cents(u.cost_usd), _number(u.iops), _number(u.gb),
                         *_unit_and_month(report, u.cost_usd)])
        rows.append([placement.name, "TOTAL", None, to_cents(placement.total_cost_usd), None, None,
                     *_unit_and_month(report, placement.total_cost_usd)])
    bound = report.optimization.lower_bound_usd
    rows.append([report.optimization.placement.name, "LOWER BOUND", None, to_cents(bound), None, None,
                 *_unit_and_month(report, bound)])
    return rows


def _unit_and_month(report: WhatIfReport, amount: Decimal) -> list[object]:
    return [report.cost_unit, to_cents(report.per_month(amount))]


def report_table(report: WhatIfReport) -> str:
    """Plain-text tables of the same content, for a terminal."""
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
        f"Placements (cost in {report.cost_unit}{_months_note(report)})\n" + tabulate(
            _table_placement_rows(report),
            headers=["placement", "tier", "devices", "cost $", "IOPS", "GB", "$/month"],
            disable_numparse=True,  # keep the cents as formatted
        ),
        _optimizer_line(report.optimization),
    ]
    return "\n\n".join(sections) + "\n"


def _table_placement_rows(report: WhatIfReport) -> list[list[object]]:
    rows: list[list[object]] = []
    for placement in report.placements:
        total = placement.total_cost_usd
        rows.append([placement.name, "(total)", "", f"{to_cents(total):,}", "", "",
                     f"{to_cents(report.per_month(total)):,}"])
        for u in placement.usages:
            devices = "-" if u.devices is None else str(u.devices)
            cost, iops, gb = f"{to_cents(u.cost_usd):,}", f"{_number(u.iops):,}", f"{_number(u.gb):,}"
            rows.append(["", u.tier_name, devices, cost, iops, gb, f"{to_cents(report.per_month(u.cost_usd)):,}"])
    return rows


def _months_note(report: WhatIfReport) -> str:
    if report.cost_unit == PURCHASE:
        return f"; per month over {report.months} months"
    if any(basis.purchase for basis in report.billing.values()):
        return f"; purchases amortised over {report.months} months"
    return ""


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

