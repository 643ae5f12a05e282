"""Storing a calibration beside its tier, and what that changes (issue 17)."""

from __future__ import annotations

import datetime as dt
import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone

from apps.core.audit import audit_event_record
from apps.tiering.calibration import CalibrationReading
from apps.tiering.models import Tier, TierCalibration


@dataclass(frozen=True)
class CalibrationOutcome:
    """The stored row, the tier figures it set and the ones it left alone (with why), as sentences."""

    calibration: TierCalibration
    changed: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line: 'set device IOPS 30,000 → 6,614; read latency 0.2 → 0.136 ms. Kept ...'."""
        parts = []
        if self.changed:
            parts.append("Set " + "; ".join(self.changed) + ".")
        if self.kept:
            parts.append("Kept " + "; ".join(self.kept) + ".")
        return " ".join(parts)


def _figure(value: float | None, unit: str = "") -> str:
    if value is None:
        return "none"
    text = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
    return f"{text}{unit}"


def _nominal(current: float | None, previous: TierCalibration | None, *, nominal: str, set_by: str) -> float | None:
    """The tier's figure before it was first measured: the last calibration's nominal one while the tier
    still has what that calibration left it with (nobody edited it since), else the tier's figure now."""
    if previous is None:
        return current
    left = getattr(previous, set_by) if getattr(previous, set_by) is not None else getattr(previous, nominal)
    return getattr(previous, nominal) if left == current else current


@transaction.atomic
def tier_calibration_store(*, tier_id: int, reading: CalibrationReading, file_name: str, data: bytes,
                           actor: Any = None, now: dt.datetime | None = None) -> CalibrationOutcome:
    """Store a parsed calibration file beside its tier and set the tier's figures from it.

    Sets the tier's device IOPS (reads and writes together, from the directions measured; only for a
    tier priced per device, the one kind whose price depends on it) and its nominal read latency, each
    only when the file measured it; a figure not measured keeps its nominal value and the outcome says
    so. The change to the tier is in the audit log like any tier edit (auditlog, with the actor of the
    request or command), and the upload itself as an action. Recommendations pick the new figures up at
    each target's next refresh (collection, import or Recompute), as after a tier edit.
    """
    tier = Tier.objects.select_for_update().get(pk=tier_id)
    figures = reading.figures
    previous = tier.calibrations.first()
    calibration = TierCalibration(
        tier=tier, source=figures.source, read_iops=figures.read_iops, write_iops=figures.write_iops,
        read_mbps=figures.read_mbps, write_mbps=figures.write_mbps, read_latency_ms=figures.read_latency_ms,
        write_latency_ms=figures.write_latency_ms, block_size_bytes=figures.block_size_bytes, jobs=figures.jobs,
        file_name=file_name[:255], file_sha256=hashlib.sha256(data).hexdigest(), measured_at=reading.measured_at,
        uploaded_at=now or timezone.now(), uploaded_by=actor if getattr(actor, "is_authenticated", False) else None,
        nominal_device_iops=_nominal(tier.device_iops, previous, nominal="nominal_device_iops",
                                     set_by="set_device_iops"),
        nominal_read_latency_ms=_nominal(tier.read_latency_ms, previous, nominal="nominal_read_latency_ms",
                                         set_by="set_read_latency_ms"),
        nominal_throughput_mb_s=tier.throughput_mb_s,
    )
    changed, kept, fields = [], [], []
    if figures.iops is None:
        kept.append(f"device IOPS {_figure(tier.device_iops)} (the file measured no IOPS)")
    elif tier.kind != Tier.Kind.DEVICE:
        kept.append(f"the {_figure(figures.iops)} IOPS measured as a figure only ({tier.get_kind_display()} "
                    "pricing does not use a device's IOPS)")
    else:
        changed.append(f"device IOPS {_figure(tier.device_iops)} → {_figure(figures.iops)}")
        calibration.set_device_iops = tier.device_iops = figures.iops
        fields.append("device_iops")
    if figures.read_latency_ms is None:
        kept.append(f"read latency {_figure(tier.read_latency_ms, ' ms')} (the file measured no read latency)")
    else:
        changed.append(f"read latency {_figure(tier.read_latency_ms, ' ms')} → {_figure(figures.read_latency_ms, ' ms')}")
        calibration.set_read_latency_ms = tier.read_latency_ms = figures.read_latency_ms
        fields.append("read_latency_ms")
    calibration.save()
    if fields:
        tier.save(update_fields=fields)  # auditlog writes the tier's old and new values
    outcome = CalibrationOutcome(calibration=calibration, changed=changed, kept=kept)
    audit_event_record(actor=actor, action="tier calibration", detail=f"tier {tier.name}: {file_name} "
                       f"({figures.source}, sha256 {calibration.file_sha256[:12]})", outcome=outcome.summary())
    return outcome
