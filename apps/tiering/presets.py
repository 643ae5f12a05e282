"""Ready-made tier sets: the seed's 2009 tiers, today's on-premises drives, cloud volumes.

Pure data plus :func:`preset_tiers`, which turns a preset into
:mod:`apps.tiering.costmodel` tier objects. Every tier carries where its price
came from and the date it was read.

Honesty about the prices: they are *list* (cloud) or *street* (drives) prices
as of the date given, recalled from the named source. They could NOT be
verified online from this environment (no access to the vendors' price pages);
check them before relying on a figure, and prefer your own contract prices.
Cloud prices are per month in AWS us-east-1 / OCI commercial regions and must
not be mixed with purchase prices in one comparison. Read latencies are
nominal figures for ranking tiers ("IO time saved"), not measurements.

Throughputs (``throughput_mb_s``, sequential MB/s, MB = 2**20 bytes) time a move
(apps.tiering.moves.payback); each comes with its source (``throughput_source``), and
a tier without a source has none (None: a move to or from it has an unknown
duration, never 0). A cloud volume's figure is the per-volume one, which larger
volumes reach (OCI scales it per GB up to the figure; gp3 includes it).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from apps.tiering.costmodel import TIER_KINDS, CostModelError, Tier

SEED_DOCUMENT = 'seeds/database-on-flash-oracle-development.txt ("This is your Database on Flash", Oracle, 2009)'
AWS_EBS_PRICING = "https://aws.amazon.com/ebs/pricing/ (us-east-1)"
OCI_PRICING = "https://www.oracle.com/cloud/price-list/ (Block Volume storage + VPUs)"
# The cloud volumes' limits (IOPS per GB, minimum and maximum size and IOPS) are those documented at
# https://docs.aws.amazon.com/ebs/latest/userguide/ebs-volume-types.html and
# https://docs.oracle.com/en-us/iaas/Content/Block/Concepts/blockvolumeperformance.htm
STREET_PRICES = "street prices of distributor listings, typical 2025 (no single page: see PresetTier.note)"

#: When the figures below were read (the seed: when its printed figures were taken over).
READ_ON = dt.date(2026, 11, 22)


@dataclass(frozen=True)
class PresetTier:
    """One tier of a preset, with its provenance.

    ``kind`` is "device", "provisioned_iops" or "performance_level";
    ``figures`` holds the keyword arguments of the matching costmodel class
    (prices as strings so they stay exact decimals).
    """

    kind: str
    name: str
    figures: tuple[tuple[str, str | float | int | None], ...]
    read_latency_ms: float
    price_source: str
    price_read_on: dt.date
    note: str = ""
    throughput_mb_s: float | None = None
    throughput_source: str = ""


def _device(name: str, cost: str, gb: float, iops: float, latency_ms: float, source: str, note: str) -> PresetTier:
    figures = (("device_cost_usd", cost), ("device_gb", gb), ("device_iops", iops))
    return PresetTier("device", name, figures, latency_ms, source, READ_ON, note)


#: Sequential throughput in the seeds: Oracle's deck gives flash "100 to 500 MB/s reads" (the low end is
#: taken); the ORION calibration of seeds/ssd-as-oracle-storage-2010.txt measured "Large read throughput ...
#: 40 MBPS for SAN" (mirrored and striped disks; large writes 79 MBPS), the only disk figure of the seeds,
#: which do not tell disk classes apart: both disk tiers get it.
SEED_FLASH_THROUGHPUT = f"{SEED_DOCUMENT}: flash '100 to 500 MB/s reads', the low end"
SEED_DISK_THROUGHPUT = "seeds/ssd-as-oracle-storage-2010.txt (ORION): 'Large read throughput ... 40 MBPS for SAN'"


def _with_throughput(tier: PresetTier, mb_s: float, source: str) -> PresetTier:
    return dataclasses.replace(tier, throughput_mb_s=mb_s, throughput_source=source)


SEED_2009: tuple[PresetTier, ...] = (
    _with_throughput(_device("hi-cap disk", "250", 1000, 100, 12.0, SEED_DOCUMENT,
                             "2009 price as printed; 7.2k rpm latency"), 40, SEED_DISK_THROUGHPUT),
    _with_throughput(_device("fast disk", "600", 300, 300, 7.0, SEED_DOCUMENT,
                             "2009 price as printed; the deck quotes 7000 us"), 40, SEED_DISK_THROUGHPUT),
    _with_throughput(_device("flash", "2400", 80, 30000, 0.2, SEED_DOCUMENT,
                             "2009 price as printed; the deck quotes 100-200 us"), 100, SEED_FLASH_THROUGHPUT),
)

# Drive figures: random 8 KiB IOPS an array can sustain per drive (not the
# 4 KiB read maximum of the datasheet), so disks get ~1/2 of their seek rate
# and SSDs a mixed read/write figure well below the datasheet.
ON_PREM_2025: tuple[PresetTier, ...] = tuple(
    _device(name, cost, gb, iops, latency_ms, STREET_PRICES, note)
    for name, cost, gb, iops, latency_ms, note in (
        # (name, price USD, GB, IOPS, read latency ms, what it is)
        ("NL-SAS HDD 20TB", "420", 20000, 150, 8.0, "7.2k rpm enterprise drive (Exos X20 / Ultrastar HC560 class), ~$21/TB"),
        ("SAS 10k HDD 2.4TB", "380", 2400, 220, 5.0, "10k rpm SAS (Exos 10E2400 class); end-of-line product, prices vary"),
        ("SATA SSD 3.84TB", "520", 3840, 60000, 0.2, "enterprise SATA TLC (PM893 / 5400 PRO class), mixed 70/30 8K figure"),
        ("NVMe SSD 7.68TB", "1100", 7680, 250000, 0.1, "enterprise U.2/U.3 TLC (PM9A3 / 7450 PRO class), mixed 70/30 8K figure"),
    )
)


def _ebs(name: str, latency_ms: float, note: str, **figures: str | float | int | None) -> PresetTier:
    return PresetTier("provisioned_iops", name, tuple(figures.items()), latency_ms, AWS_EBS_PRICING, READ_ON, note)


AWS_EBS: tuple[PresetTier, ...] = (
    _ebs(
        "EBS st1", 10.0, "HDD; IOPS counted in 1 MiB units, poor at small random IO; 125 GiB minimum",
        usd_per_gb_price="0.045", usd_per_iops_price=None, included_iops_per_volume=500,
        volume_min_gb=125, volume_max_gb=16384, volume_max_iops=500,
    ),
    _with_throughput(_ebs(
        "EBS gp3", 1.0, "3000 IOPS included per volume; max 500 IOPS/GiB, 16000 IOPS and 16 TiB per "
        "volume as documented before AWS's 2025 gp3 size/IOPS increase; throughput charge not modelled",
        usd_per_gb_price="0.08", usd_per_iops_price="0.005", included_iops_per_volume=3000,
        volume_min_gb=1, volume_max_gb=16384, volume_max_iops=16000, max_iops_per_gb=500,
    ), 125, "https://docs.aws.amazon.com/sdk-for-kotlin/api/latest/ec2/aws.sdk.kotlin.services.ec2.model/"
       "-create-volume-request/throughput.html (gp3: minimum 125 MiB/s, the baseline the price includes)"),
    _ebs(
        "EBS io2", 0.5, "io2 Block Express; first IOPS band price ($0.065 up to 32k per volume; "
        "cheaper bands above are not modelled); max 1000 IOPS/GiB, 256k IOPS, 64 TiB per volume",
        usd_per_gb_price="0.125", usd_per_iops_price="0.065", included_iops_per_volume=0,
        volume_min_gb=4, volume_max_gb=65536, volume_max_iops=256000, max_iops_per_gb=1000,
    ),
)


def _oci(name: str, usd_per_gb: str, iops_per_gb: float, max_iops: float, latency_ms: float, note: str) -> PresetTier:
    figures = (
        ("usd_per_gb_price", usd_per_gb),
        ("iops_per_gb", iops_per_gb),
        ("volume_min_gb", 50),
        ("volume_max_gb", 32768),
        ("volume_max_iops", max_iops),
    )
    return PresetTier("performance_level", name, figures, latency_ms, OCI_PRICING, READ_ON, note)


# OCI bills storage at $0.0255/GB-month plus $0.0017 per VPU per GB-month:
# Lower Cost = 0 VPU, Balanced = 10 VPUs, Higher Performance = 20 VPUs.
OCI_BLOCK_VOLUME: tuple[PresetTier, ...] = (
    _oci("OCI lower cost", "0.0255", 2, 3000, 5.0, "0 VPU/GB: 2 IOPS/GB, max 3000 IOPS per volume"),
    _with_throughput(
        _oci("OCI balanced", "0.0425", 60, 25000, 1.5, "10 VPU/GB: 60 IOPS/GB, max 25000 IOPS per volume"), 480,
        "https://docs.oracle.com/iaas/Content/Block/Concepts/blockvolumebalancedperformance.htm (480 KB/s per GB, "
        "max 480 MB/s per volume, reached at 1 TB)"),
    _with_throughput(
        _oci("OCI higher performance", "0.0595", 75, 50000, 1.0, "20 VPU/GB: 75 IOPS/GB, max 50000 IOPS per volume"),
        480, "https://docs.cloud.oracle.com/iaas/Content/Block/Concepts/blockvolumeelasticperformance.htm "
             "(600 KBPS/GB up to a maximum of 480 MBPS per volume; newer pages may quote more)"),
)

PRESETS: dict[str, tuple[PresetTier, ...]] = {
    "seed-2009": SEED_2009,
    "on-prem-2025": ON_PREM_2025,
    "aws-ebs": AWS_EBS,
    "oci-block-volume": OCI_BLOCK_VOLUME,
}

#: How each preset's prices are billed: device prices are a purchase (amortised per month over the
#: set's months), cloud prices are per month.
PRESET_BILLING: dict[str, str] = {
    "seed-2009": "purchase",
    "on-prem-2025": "purchase",
    "aws-ebs": "monthly",
    "oci-block-volume": "monthly",
}

_MONEY_FIELDS = frozenset({"device_cost_usd", "usd_per_gb_price", "usd_per_iops_price"})


def preset_tier(preset: PresetTier) -> Tier:
    """The costmodel tier of one preset entry (money fields as Decimal)."""
    # The tier's keyword arguments, named by the preset's figures (each tier class checks its own).
    kwargs: dict[str, Any] = {"name": preset.name, "read_latency_ms": preset.read_latency_ms}
    for key, number in preset.figures:
        kwargs[key] = Decimal(number) if key in _MONEY_FIELDS and number is not None else number
    return TIER_KINDS[preset.kind](**kwargs)


def preset_tiers(name: str) -> tuple[Tier, ...]:
    """The tiers of a named preset (see :data:`PRESETS` for the names)."""
    if name not in PRESETS:
        raise CostModelError(f"unknown tier preset {name!r}; known: {', '.join(sorted(PRESETS))}")
    return tuple(preset_tier(entry) for entry in PRESETS[name])
