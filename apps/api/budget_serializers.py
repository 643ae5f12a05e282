"""The fleet budget as the fleet page's "Flash budget" card reads it (apps.tiering.budget): each target's
share and the fleet's, the segments it moves, its evictions and the places kept, in USD per month."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

from rest_framework import serializers

from apps.tiering.budget.fleet import FleetBudget

#: Segments listed per list, as on the card (the `budget` command lists them all).
LISTED = 50

_SHARE_FIELDS = ("gb_now", "gb_after", "moves_in", "moves_in_gb", "moves_out", "moves_out_gb", "evicted",
                 "evicted_gb", "kept", "kept_not_repaying", "unknown", "saving_usd_per_month",
                 "recommended_saving_usd_per_month", "one_off_usd", "evicted_one_off_usd")


def _finite(value: Any) -> Any:
    """NaN and infinities are not JSON numbers: unknown (null)."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _plain(item: Any, *extra: str) -> dict[str, Any]:
    row = {key: _finite(value) for key, value in dataclasses.asdict(item).items()}
    row.update({name: getattr(item, name) for name in extra})
    return row


def budget_body(budget: FleetBudget) -> dict[str, Any]:
    split = budget.split
    targets = [{**_plain(result), "vs_recommendations_usd_per_month": result.vs_recommendations_usd_per_month}
               for result in split.targets]
    fleet = {field: _finite(float(split.total(field))) for field in _SHARE_FIELDS}
    fleet["vs_recommendations_usd_per_month"] = fleet["saving_usd_per_month"] - fleet["recommended_saving_usd_per_month"]
    return {
        "tier": budget.tier.name, "tier_set": budget.tier.tier_set_id, "budget": budget.capacity.words,
        "usd_per_gb_month": _finite(float(budget.usd_per_gb_month)), "left_out": list(budget.left_out),
        "targets": targets, "fleet": fleet,
        "segments": [_plain(s) for s in budget.segments(limit=LISTED)],
        "evictions": [_plain(e, "words") for e in budget.evictions(limit=LISTED)],
        "kept": [_plain(k, "words") for k in budget.kept(limit=LISTED)],
    }


def _floats(*names: str, null: bool = False) -> dict[str, serializers.Field]:
    return {name: serializers.FloatField(allow_null=null) for name in names}


def _ints(*names: str) -> dict[str, serializers.Field]:
    return {name: serializers.IntegerField() for name in names}


_COUNTS = ("moves_in", "moves_out", "evicted", "kept", "kept_not_repaying", "unknown")
_GB_AND_MONEY = tuple(f for f in _SHARE_FIELDS if f not in _COUNTS) + ("vs_recommendations_usd_per_month",)

FleetShareSerializer = type("FleetShare", (serializers.Serializer,), {
    **_floats(*_GB_AND_MONEY, *_COUNTS), "__doc__": "The fleet's totals (counts summed as numbers)."})
TargetShareSerializer = type("TargetShare", (serializers.Serializer,), {
    "name": serializers.CharField(), **_floats(*_GB_AND_MONEY, "kept_gb", "kept_not_repaying_gb"),
    **_ints(*_COUNTS, "unknown_size_on_tier"), "__doc__": "One target's share of the budget."})
BudgetSegmentSerializer = type("BudgetSegment", (serializers.Serializer,), {
    "target": serializers.CharField(), "segment_id": serializers.IntegerField(), "label": serializers.CharField(),
    "outcome": serializers.CharField(), "size_gb": serializers.FloatField(), "to_tier": serializers.CharField(),
    "value_usd_per_gb_month": serializers.FloatField(allow_null=True),
    "saving_usd_per_month": serializers.FloatField(allow_null=True)})
BudgetEvictionSerializer = type("BudgetEviction", (serializers.Serializer,), {
    "target": serializers.CharField(), "segment_id": serializers.IntegerField(), "label": serializers.CharField(),
    "to_tier": serializers.CharField(), "tier": serializers.CharField(), "replacement": serializers.CharField(),
    "replacements": serializers.IntegerField(), "words": serializers.CharField(),
    **_floats("size_gb", "loses_usd_per_month", "cost_usd", "horizon_months", "loses_usd", "replaced_gb",
              "replacement_earns_usd", null=True)})
BudgetKeptSerializer = type("BudgetKept", (serializers.Serializer,), {
    "target": serializers.CharField(), "segment_id": serializers.IntegerField(), "label": serializers.CharField(),
    "outcome": serializers.CharField(), "why_it_holds": serializers.CharField(), "reason": serializers.CharField(),
    "challenger": serializers.CharField(), "words": serializers.CharField(),
    **_floats("size_gb", "value_usd_per_gb_month", "worth_usd_per_gb_month", "challenger_value_usd_per_gb_month",
              "challenger_worth_usd_per_gb_month", "margin", "horizon_months", null=True)})


class FleetBudgetSerializer(serializers.Serializer):
    tier = serializers.CharField()
    tier_set = serializers.CharField()
    budget = serializers.CharField(help_text="'500 GB' or '$1,200.00/month'")
    usd_per_gb_month = serializers.FloatField(allow_null=True)
    left_out = serializers.ListField(child=serializers.CharField(),
                                     help_text="enabled targets whose tier set has no such tier")
    targets = TargetShareSerializer(many=True)
    fleet = FleetShareSerializer()
    segments = BudgetSegmentSerializer(many=True, help_text=f"the first {LISTED}, most valuable per GB first")
    evictions = BudgetEvictionSerializer(many=True)
    kept = BudgetKeptSerializer(many=True)
