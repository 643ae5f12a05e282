"""Tier rows <-> costmodel tiers, the presets as rows and their installation, and the demo's tablespace map."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from apps.targets.demo.schema import DEFAULT_TABLESPACE_TIERS
from apps.targets.models import TablespaceTier, Target
from apps.tiering import costmodel
from apps.tiering.models import Tier, TierSet
from apps.tiering.presets import PRESET_BILLING, PRESETS

FLASH_LATENCY_MS = 2.0  # nominal read latency at or below this: SSD/flash-backed (HDD tiers are 5 ms and up)


def tier_to_model(tier: Tier) -> costmodel.Tier:
    """The costmodel tier for a stored tier row (raises CostModelError naming the tier on bad figures)."""
    common: dict[str, Any] = {"name": tier.name, "read_latency_ms": tier.read_latency_ms, "max_gb": tier.max_gb}
    volumes: dict[str, Any] = {  # the volume figures that are set: the tier's defaults stand for the others
        k: v for k, v in (("volume_min_gb", tier.volume_min_gb), ("volume_max_gb", tier.volume_max_gb),
                          ("volume_max_iops", tier.volume_max_iops)) if v is not None
    }
    # The stored figures are NULL where the kind does not use them (Any: a NULL one the kind needs is refused
    # by the cost model's own checks, which name it).
    if tier.kind == Tier.Kind.DEVICE:
        device: dict[str, Any] = {"device_cost_usd": tier.device_cost_usd, "device_gb": tier.device_gb,
                                  "device_iops": tier.device_iops}
        return costmodel.DeviceTier(**common, **device, max_devices=tier.max_devices)
    prices: dict[str, Any] = {"usd_per_gb_price": tier.usd_per_gb, "usd_per_iops_price": tier.usd_per_iops}
    if tier.kind == Tier.Kind.LINEAR:
        return costmodel.LinearTier(**common, **prices)
    if tier.kind == Tier.Kind.PROVISIONED_IOPS:
        return costmodel.ProvisionedIopsTier(
            **common, **volumes, **prices,
            included_iops_per_volume=tier.included_iops or 0.0, max_iops_per_gb=tier.max_iops_per_gb,
        )
    performance: dict[str, Any] = {"usd_per_gb_price": tier.usd_per_gb, "iops_per_gb": tier.iops_per_gb}
    return costmodel.PerformanceLevelTier(**common, **volumes, **performance)


_FIELD_OF = {
    "device_cost_usd": "device_cost_usd", "device_gb": "device_gb", "device_iops": "device_iops",
    "usd_per_gb_price": "usd_per_gb", "usd_per_iops_price": "usd_per_iops",
    "included_iops_per_volume": "included_iops", "iops_per_gb": "iops_per_gb", "volume_min_gb": "volume_min_gb",
    "volume_max_gb": "volume_max_gb", "volume_max_iops": "volume_max_iops", "max_iops_per_gb": "max_iops_per_gb",
}


def preset_sets_ensure() -> list[str]:
    """Create the preset tier sets that do not exist yet, with their billing basis (never overwrite an edited
    set); returns the names created."""
    created = []
    for set_name in PRESETS:
        billing = TierSet.Billing.PURCHASE if PRESET_BILLING[set_name] == "purchase" else TierSet.Billing.MONTHLY
        _, was_created = TierSet.objects.get_or_create(name=set_name, defaults={"billing": billing})
        if was_created:
            created.append(set_name)
    return created


def preset_rows() -> list[dict[str, Any]]:
    """Every preset tier as the field values of a Tier row (its set by name: ``tier_set_id``)."""
    rows = []
    for set_name, entries in PRESETS.items():
        for entry in entries:
            row: dict[str, Any] = {
                "name": entry.name, "kind": entry.kind, "tier_set_id": set_name,
                "read_latency_ms": entry.read_latency_ms, "is_flash": entry.read_latency_ms <= FLASH_LATENCY_MS,
                "price_source": entry.price_source, "priced_on": entry.price_read_on, "note": entry.note[:300],
                "throughput_mb_s": entry.throughput_mb_s, "throughput_source": entry.throughput_source[:300],
            }
            for key, value in entry.figures:
                if value is not None:
                    row[_FIELD_OF[key]] = Decimal(str(value)) if key.endswith(("usd", "price")) else value
            rows.append(row)
    return rows


def tier_presets_install() -> list[str]:
    """Create the preset tiers that do not exist yet (by name); never overwrite an edited tier."""
    preset_sets_ensure()
    created = []
    for row in preset_rows():
        _, was_created = Tier.objects.get_or_create(name=row["name"], defaults=row)
        if was_created:
            created.append(row["name"])
    return [f"created {len(created)} preset tiers"] if created else []


def demo_tablespaces_map(*, target: Target) -> None:
    """The demo target's tablespaces on the seed's 2009 tiers (tier names compared case-insensitively;
    a mapping a DBA changed is kept)."""
    tiers = {tier.name.lower(): tier for tier in Tier.objects.filter(tier_set=target.tier_set)}
    for tablespace, tier_name in DEFAULT_TABLESPACE_TIERS.items():
        if tier_name.lower() in tiers:
            TablespaceTier.objects.get_or_create(
                target=target, tablespace_name=tablespace, defaults={"tier": tiers[tier_name.lower()]})
