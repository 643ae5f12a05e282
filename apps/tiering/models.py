from __future__ import annotations

from django.db import models

from apps.core.fields import MoneyField


class Tier(models.Model):
    """A storage tier and its price.

    Priced per device (the seed's form: device cost, GB, IOPS), linearly (USD per
    GB and per IOPS), or as cloud block storage (per GB plus provisioned IOPS
    above an included baseline; or per GB at a performance level that gives
    IOPS per GB). ``billing`` says whether the money is one-off (bought
    devices) or monthly (cloud).
    """

    class Kind(models.TextChoices):
        DEVICE = "device", "per device"
        LINEAR = "linear", "per GB and per IOPS"
        PROVISIONED_IOPS = "provisioned_iops", "cloud: per GB + IOPS above a baseline"
        PERFORMANCE_LEVEL = "performance_level", "cloud: per GB at IOPS per GB"

    class Billing(models.TextChoices):
        ONE_OFF = "one_off", "one-off"
        MONTHLY = "monthly", "monthly"

    name = models.CharField(max_length=60, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.DEVICE)
    billing = models.CharField(max_length=10, choices=Billing.choices, default=Billing.ONE_OFF)
    device_cost_usd = models.DecimalField(max_digits=14, decimal_places=2, null=True, blank=True)
    device_gb = models.FloatField(null=True, blank=True)
    device_iops = models.FloatField(null=True, blank=True)
    usd_per_gb = models.DecimalField(max_digits=14, decimal_places=6, null=True, blank=True)
    usd_per_iops = models.DecimalField(max_digits=14, decimal_places=6, null=True, blank=True)
    included_iops = models.FloatField(null=True, blank=True, help_text="IOPS included free (gp3-style baseline)")
    iops_per_gb = models.FloatField(null=True, blank=True, help_text="IOPS per billed GB (OCI-style)")
    # Cloud volume limits (provisioned_iops / performance_level kinds).
    volume_min_gb = models.FloatField(null=True, blank=True)
    volume_max_gb = models.FloatField(null=True, blank=True)
    volume_max_iops = models.FloatField(null=True, blank=True)
    max_iops_per_gb = models.FloatField(null=True, blank=True, help_text="provider IOPS:GB cap (gp3 500, io2 1000)")
    max_devices = models.IntegerField(null=True, blank=True, help_text="device-count limit; empty = unlimited")
    read_latency_ms = models.FloatField(default=5.0, help_text="nominal single-block read latency")
    is_flash = models.BooleanField(default=False)
    max_gb = models.FloatField(null=True, blank=True, help_text="capacity limit for placements; empty = unlimited")
    price_source = models.CharField(max_length=300, blank=True)
    priced_on = models.DateField(null=True, blank=True)
    # Tiers are compared within one set (a preset or a custom set); each target names its set.
    tier_set = models.CharField(max_length=60, default="custom")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Recommendation(models.Model):
    """Where one segment should live, computed after a collection.

    Older rows stay (is_current=False) as the segment's recommendation history,
    one per segment and UTC day. A row holds the figures the seed rules read
    (request counts, flash-cache residency, the cost model's own choice), so
    its reasons and DDL are worded when shown (apps.tiering.explain) rather
    than written for 100k segments at every refresh.
    """

    # No database-level foreign keys (as for SegmentStat): PostgreSQL checks deferred ones at commit,
    # 5 x 100k lookups that took 4.7 of a refresh's seconds. Rows are written only by
    # tiering.services with ids it has just read; deletes cascade (and tiers set NULL) through the ORM.
    # Indexed by reco_current_idx (current rows) and reco_segment_hist_idx (segment first); tiers are
    # never searched by. Each index costs every refresh 100k insertions at fleet scale.
    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="recommendations",
                               db_index=False, db_constraint=False)
    segment = models.ForeignKey("snapshots.Segment", on_delete=models.CASCADE, related_name="recommendations",
                                db_index=False, db_constraint=False)
    computed_at = models.DateTimeField()
    is_current = models.BooleanField(default=True)
    window_days = models.PositiveSmallIntegerField()
    window_first_day = models.DateField(null=True)
    window_last_day = models.DateField(null=True)
    statistic = models.CharField(max_length=4)
    iops = models.FloatField()
    read_iops = models.FloatField(default=0)
    write_iops = models.FloatField(default=0)
    size_bytes = models.BigIntegerField(null=True)
    size_gb = models.FloatField(null=True)
    intensity = models.FloatField(null=True)
    read_requests_per_day = models.FloatField(default=0)
    # Window totals the rules read (requests; blocks; scans).
    read_requests = models.BigIntegerField(default=0)
    write_requests = models.BigIntegerField(default=0)
    physical_reads_blocks = models.BigIntegerField(default=0)
    physical_reads_direct_blocks = models.BigIntegerField(default=0)
    optimized_physical_reads = models.BigIntegerField(default=0)
    table_scans = models.BigIntegerField(default=0)
    db_block_changes = models.BigIntegerField(default=0)
    # V$BH at the last collection (null: not collected), the FLASH_CACHE hint, the instance's flash cache.
    flash_blocks = models.BigIntegerField(null=True)
    cache_blocks = models.BigIntegerField(null=True)
    flash_cache = models.CharField(max_length=10, blank=True, default="")
    flash_cache_enabled = models.BooleanField(default=False)
    below_awr_capture = models.BooleanField(default=False)
    current_tier = models.ForeignKey(Tier, null=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
                                     db_constraint=False)
    cost_tier = models.ForeignKey(Tier, null=True, on_delete=models.SET_NULL, related_name="+", db_index=False,
                                  db_constraint=False, help_text="the cost model's cheapest tier, before the seed rules")
    recommended_tier = models.ForeignKey(Tier, null=True, on_delete=models.SET_NULL, related_name="+",
                                         db_index=False, db_constraint=False)
    cost_now_usd = MoneyField(null=True)
    cost_tier_usd = MoneyField(null=True, help_text="cost on the cost model's cheapest tier")
    cost_after_usd = MoneyField(null=True)
    savings_usd = MoneyField(null=True)
    io_time_saved_s_per_day = models.FloatField(null=True)
    action = models.CharField(max_length=24)
    findings = models.IntegerField(default=0, help_text="bitmask of rules.FINDING_CODES that fired")

    class Meta:
        indexes = [
            # The current rows of one target (every page and the refresh). Not ordered by savings: rows
            # arrive in segment order, and a savings-ordered index tripled the refresh's insert time.
            models.Index(fields=["target"], condition=models.Q(is_current=True), name="reco_current_idx"),
            # segment page: history of one segment.
            models.Index(fields=["segment", "-computed_at"], name="reco_segment_hist_idx"),
        ]
