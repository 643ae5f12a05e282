"""A tier's measured figures (issue 17): one row per calibration file stored beside the tier."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.tiering.calibration.base import BothDirections


class TierCalibration(BothDirections, models.Model):
    """What a calibration file (fio, ORION, CALIBRATE_IO) measured on a tier, and what it changed.

    Storing one sets the tier's device IOPS and read latency from what was measured
    (apps.tiering.calibration.services.tier_calibration_store); ``set_*`` say which figures it set (null:
    left alone, because not measured or not used by the tier's pricing) and ``nominal_*`` keep the
    figures the tier had before it was first measured, so a page can show measured against nominal.
    """

    class Source(models.TextChoices):
        FIO = "fio", "fio"
        ORION = "orion", "ORION"
        CALIBRATE_IO = "calibrate_io", "CALIBRATE_IO"

    tier = models.ForeignKey("tiering.Tier", on_delete=models.CASCADE, related_name="calibrations")
    source = models.CharField(max_length=12, choices=Source.choices)
    # The file's figures (apps.tiering.calibration.CalibrationFigures); null where it measured nothing.
    read_iops = models.FloatField(null=True, blank=True)
    write_iops = models.FloatField(null=True, blank=True)
    read_mbps = models.FloatField(null=True, blank=True, help_text="MB = 2**20 bytes")
    write_mbps = models.FloatField(null=True, blank=True)
    read_latency_ms = models.FloatField(null=True, blank=True)
    write_latency_ms = models.FloatField(null=True, blank=True)
    block_size_bytes = models.IntegerField(null=True, blank=True)
    jobs = models.IntegerField(null=True, blank=True)
    file_name = models.CharField(max_length=255)
    file_sha256 = models.CharField(max_length=64)
    measured_at = models.DateTimeField(null=True, blank=True, help_text="when the file says it was measured")
    uploaded_at = models.DateTimeField()
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                    related_name="+")
    # The tier's figures before it was first measured, and what this file set (null: left alone).
    nominal_device_iops = models.FloatField(null=True, blank=True)
    nominal_read_latency_ms = models.FloatField(null=True, blank=True)
    nominal_throughput_mb_s = models.FloatField(null=True, blank=True)
    set_device_iops = models.FloatField(null=True, blank=True)
    set_read_latency_ms = models.FloatField(null=True, blank=True)

    class Meta:
        ordering = ["-uploaded_at", "-id"]
        indexes = [
            # The tier pages: each tier's latest measurement.
            models.Index(fields=["tier", "-uploaded_at"], name="tier_calibration_tier_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.tier_id}: {self.source} {self.file_name} @ {self.uploaded_at:%Y-%m-%d %H:%M}"
