"""Placements: objects assigned to tiers, each tier's pooled usage and the exact total."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal

from apps.tiering.costmodel._money import to_decimal
from apps.tiering.costmodel.base import CostModelError, StorageObject, Tier, TierUsage
from apps.tiering.costmodel.choice import ObjectChoice, choose_tiers


@dataclass(frozen=True)
class Placement:
    """A named assignment of objects to tiers, with each tier's usage and the total.

    ``assignment`` maps object name to tier name; ``usages`` has one entry per
    tier in the order the tiers were given (unused tiers cost 0).
    """

    name: str
    assignment: Mapping[str, str]
    usages: tuple[TierUsage, ...]
    total_cost_usd: Decimal = field(default=Decimal(0))

    @property
    def within_limits(self) -> bool:
        return all(usage.within_limits for usage in self.usages)

    def usage_of(self, tier_name: str) -> TierUsage:
        for usage in self.usages:
            if usage.tier_name == tier_name:
                return usage
        raise KeyError(tier_name)


def place(
    name: str, objects: Sequence[StorageObject], tiers: Sequence[Tier], tier_of: Sequence[str]
) -> Placement:
    """Cost a placement: ``tier_of[i]`` is the tier name of ``objects[i]``.

    Sums per tier are exact decimals of the inputs, so device counts and
    totals are exact (the seed's $18,000 / $28,200 / $28,800).
    """
    index_of = {tier.name: index for index, tier in enumerate(tiers)}
    gb_sums = [Decimal(0)] * len(tiers)
    iops_sums = [Decimal(0)] * len(tiers)
    for obj, tier_name in zip(objects, tier_of, strict=True):
        if tier_name not in index_of:
            raise CostModelError(f"object {obj.name!r}: unknown tier {tier_name!r}")
        index = index_of[tier_name]
        gb_sums[index] += to_decimal(obj.gb)
        iops_sums[index] += to_decimal(obj.iops)
    usages = tuple(tier.usage(gb_sums[i], iops_sums[i]) for i, tier in enumerate(tiers))
    assignment = {obj.name: tier_name for obj, tier_name in zip(objects, tier_of)}
    total = sum((usage.cost_usd for usage in usages), Decimal(0))
    return Placement(name, assignment, usages, total)


def place_all_on(objects: Sequence[StorageObject], tiers: Sequence[Tier], tier: Tier) -> Placement:
    """Everything on one tier, named ``all on <tier name>``."""
    return place(f"all on {tier.name}", objects, tiers, [tier.name] * len(objects))


def place_recommended(
    objects: Sequence[StorageObject], tiers: Sequence[Tier], choices: Sequence[ObjectChoice] | None = None
) -> Placement:
    """Every object on its own cheapest tier, named ``recommended``."""
    chosen = choices if choices is not None else choose_tiers(objects, tiers)
    return place("recommended", objects, tiers, [choice.tier_name for choice in chosen])


def io_time_saved_ms_per_s(read_iops: float, from_latency_ms: float, to_latency_ms: float) -> float:
    """Read time saved per second of wall time by moving reads to a faster tier.

    read requests/s x (current latency - tier latency), never negative: a
    slower tier saves nothing. Current latency comes from tablespace IO stats.

    >>> io_time_saved_ms_per_s(100.0, 6.0, 0.5)
    550.0
    """
    return read_iops * max(0.0, from_latency_ms - to_latency_ms)
