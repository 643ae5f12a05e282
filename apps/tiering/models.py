from __future__ import annotations

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models

from apps.core.fields import MoneyField
from apps.core.models import RunDuration
from apps.tiering.costmodel import DEFAULT_AMORTISATION_MONTHS, BillingBasis


class TierSet(models.Model):
    """Tiers compared with one another (a preset or a custom set), and the basis their prices are billed on.

    Purchase sets price devices bought once; their figures are amortised to a
    monthly one over ``amortisation_months``. Monthly sets (cloud) are billed
    per month already. Money shown across sets is per month (:meth:`per_month`).
    The name is the key, so a target's tier set is one of these, never a typo.
    """

    class Billing(models.TextChoices):
        PURCHASE = "purchase", "purchase (one-off, amortised)"
        MONTHLY = "monthly", "monthly"

    name = models.CharField(
        max_length=60, primary_key=True,
        validators=[RegexValidator(r"^[A-Za-z0-9][A-Za-z0-9 _.-]*$", "letters, digits, space, _ . - only")],
    )
    billing = models.CharField(max_length=10, choices=Billing.choices, default=Billing.PURCHASE)
    amortisation_months = models.PositiveSmallIntegerField(
        default=DEFAULT_AMORTISATION_MONTHS, validators=[MinValueValidator(1), MaxValueValidator(600)],
        help_text="purchase sets: months a purchase is spread over for the monthly figure",
    )
    note = models.CharField(max_length=300, blank=True)
    # Moves worth making (issue 16): a move is recommended only when its monthly saving pays back its one-off
    # cost (the IO and redo of moving it, and a DBA's time) within the horizon and is at least the minimum.
    move_cost_usd = models.DecimalField(max_digits=10, decimal_places=2, default=0,
                                        validators=[MinValueValidator(0)],
                                        help_text="a DBA's cost per move (USD), beside the IO the move costs")
    payback_horizon_months = models.DecimalField(
        max_digits=5, decimal_places=2, default=3, validators=[MinValueValidator(0)],
        help_text="a move must pay back its one-off cost within this many months")
    min_saving_usd_per_month = models.DecimalField(
        max_digits=10, decimal_places=2, default=1, validators=[MinValueValidator(0)],
        help_text="a move saving less than this per month is not worth its DDL")
    # Hysteresis: a segment is not sent back to a tier it left (or was advised to leave) unless its intensity
    # crosses the break-even by this share and the advice has held this many days.
    hysteresis_band = models.FloatField(default=0.25, validators=[MinValueValidator(0), MaxValueValidator(10)],
                                        help_text="share past the break-even intensity needed to move back")
    hysteresis_days = models.PositiveSmallIntegerField(default=7, validators=[MaxValueValidator(365)],
                                                       help_text="days a move back must be advised before it is")

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    @property
    def basis(self) -> BillingBasis:
        """The cost model's view of the billing (apps.tiering.costmodel.BillingBasis)."""
        return BillingBasis(purchase=self.billing == self.Billing.PURCHASE, months=self.amortisation_months)


class Tier(models.Model):
    """A storage tier and its price, in one tier set (whose billing says whether the price is a purchase or monthly).

    Priced per device (the seed's form: device cost, GB, IOPS), linearly (USD per
    GB and per IOPS), or as cloud block storage (per GB plus provisioned IOPS
    above an included baseline; or per GB at a performance level that gives
    IOPS per GB).
    """

    class Kind(models.TextChoices):
        DEVICE = "device", "per device"
        LINEAR = "linear", "per GB and per IOPS"
        PROVISIONED_IOPS = "provisioned_iops", "cloud: per GB + IOPS above a baseline"
        PERFORMANCE_LEVEL = "performance_level", "cloud: per GB at IOPS per GB"

    name = models.CharField(max_length=60, unique=True)
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.DEVICE)
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
    throughput_mb_s = models.FloatField(null=True, blank=True,
                                        help_text="sequential MB/s a move reads from or writes to it; empty: unknown")
    throughput_source = models.CharField(max_length=300, blank=True,
                                         help_text="where the MB/s figure comes from (a document, a benchmark)")
    is_flash = models.BooleanField(default=False)
    max_gb = models.FloatField(null=True, blank=True, help_text="capacity limit for placements; empty = unlimited")
    price_source = models.CharField(max_length=300, blank=True)
    priced_on = models.DateField(null=True, blank=True)
    # Tiers are compared within one set; each target names its set.
    tier_set = models.ForeignKey(TierSet, on_delete=models.PROTECT, related_name="tiers")
    note = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A tier mapped to tablespaces or storage locations stays in their targets' set: moving it would price
        them in another unit."""
        super().clean()
        if self.pk is None or self.tier_set_id is None:
            return
        errors = []
        for what, mapped, name in (("tablespaces", self.tablespaces, "tablespace_name"),
                                   ("storage locations", self.storage_locations, "name")):
            elsewhere = mapped.exclude(target__tier_set_id=self.tier_set_id).select_related("target").order_by(name)
            if maps := ", ".join(f"{m.target.name}: {getattr(m, name)}" for m in elsewhere[:5]):
                errors.append(f"tier {self.name!r} is mapped to {what} of targets on another set ({maps}); "
                              f"map them to other tiers first, or keep the set")
        if errors:
            raise ValidationError({"tier_set": errors})


class RecommendationRun(models.Model):
    """One refresh of a target's recommendations: its window, and whether its rows are the current ones.

    A refresh writes a new run beside the current one (``writing``: no page
    reads it, so its rows may be written on several connections at once), then
    makes it current in one small transaction. The run it replaces stays as
    ``history`` when it is the last of an earlier UTC day; one of the same day
    is ``replaced``, shown nowhere, and deleted by a task after the refresh
    (apps.tiering.recommendations.services.recommendation_runs_prune), as is a ``writing`` run a
    failed refresh left.
    """

    class State(models.TextChoices):
        WRITING = "writing"
        CURRENT = "current"
        HISTORY = "history"
        REPLACED = "replaced"

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="recommendation_runs")
    computed_at = models.DateTimeField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.WRITING)
    window_days = models.PositiveSmallIntegerField()
    window_first_day = models.DateField(null=True)
    window_last_day = models.DateField(null=True)
    statistic = models.CharField(max_length=4)
    flash_cache_enabled = models.BooleanField(default=False, help_text="the instance's flash cache holds blocks")
    recommendations = models.IntegerField(default=0)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["target"], condition=models.Q(state="current"),
                                               name="reco_run_one_current")]
        indexes = [models.Index(fields=["target", "-computed_at"], name="reco_run_target_idx")]

    def __str__(self) -> str:
        return f"{self.target_id} @ {self.computed_at:%Y-%m-%d %H:%M} ({self.state})"


class RecommendationRunFigures(models.Model):
    """What a run's pages show that depends on all its rows (apps.dashboard.recommendations.run_figures),
    computed once: a run's rows never change once stored. A table of its own, not a column of the run: the run is
    joined to every recommendation row listed, and a 100 kB JSON document would travel with each. No row: not
    computed yet (a run stored before it), computed on first view."""

    run = models.OneToOneField(RecommendationRun, on_delete=models.CASCADE, primary_key=True, related_name="figures")
    figures = models.JSONField()
    # The scatter chart's points (hundreds of kB at 100k segments) as the JSON text the page embeds: text read as
    # stored, where a JSON document's would be rebuilt by PostgreSQL, parsed and serialised again at each view.
    scatter_json = models.TextField(default="")

    class Meta:
        verbose_name = verbose_name_plural = "recommendation run figures"


class RecommendationQuerySet(models.QuerySet):
    def current(self, *, target_id: int | None = None) -> RecommendationQuerySet:
        """The rows of the current run of one target (or of every target)."""
        runs = RecommendationRun.objects.filter(state=RecommendationRun.State.CURRENT)
        if target_id is None:
            return self.filter(run__in=runs.values("pk"))
        # "run_id = (SELECT ...)": PostgreSQL reads the one run's rows by the key, where "IN (SELECT ...)"
        # led it to scan every run's rows and join before filtering.
        return self.filter(run_id=models.Subquery(runs.filter(target_id=target_id).values("pk")[:1]))

    def counted(self) -> RecommendationQuerySet:
        """The rows that sums add up: not a LOB index, whose figures its LOB's row counts (folded_into)."""
        return self.filter(folded_into__isnull=True)


class RunFacts:
    """The run's facts, read through a recommendation row (select_related("run") where many rows are shown): by
    the model and by the export's lean rows (apps.tiering.recommendations.export_read)."""

    __slots__ = ()
    run: RecommendationRun  # the row's (a foreign key of the model, an element of a lean row)

    @property
    def computed_at(self):
        return self.run.computed_at

    @property
    def window_days(self) -> int:
        return self.run.window_days

    @property
    def statistic(self) -> str:
        return self.run.statistic

    @property
    def flash_cache_enabled(self) -> bool:
        return self.run.flash_cache_enabled


class Recommendation(RunFacts, models.Model):
    """Where one segment should live, as one refresh (its run) computed it.

    The runs that ended earlier UTC days stay as the segment's recommendation
    history. A row holds the figures the seed rules read (request counts,
    flash-cache residency, the cost model's own choice), so its reasons and
    DDL are worded when shown (apps.tiering.recommendations.explain) rather than written for
    100k segments at every refresh.
    """

    #: The rows of the LOB indexes folded into a LOB segment's row, set on a table page's rows
    #: (apps.dashboard.recommendations.selectors.lob_indexes_attach); absent otherwise.
    lob_index_rows: list[Recommendation]

    # The primary key (run, segment): a run's rows, and one segment's row in each run (its history: the
    # target's runs, then one probe each); Meta adds the keyset sort keys. Every index costs a refresh 100k
    # insertions at fleet scale. No database-level foreign keys (as for SegmentStat): PostgreSQL
    # checks them row by row; rows are written only by apps.tiering.recommendations.services with ids it has just read,
    # and deletes cascade (tiers set NULL) through the ORM.
    pk = models.CompositePrimaryKey("run", "segment")
    run = models.ForeignKey(RecommendationRun, on_delete=models.CASCADE, related_name="rows", db_index=False,
                            db_constraint=False)
    segment = models.ForeignKey("snapshots.Segment", on_delete=models.CASCADE, related_name="recommendations",
                                db_index=False, db_constraint=False)
    # NULL where not measured (a top-N gap, ``measured`` False): then ``iops_bound`` bounds it when the
    # source gave a bound, and the costs are lower bounds (GB x $/GB plus what was measured).
    iops = models.FloatField(null=True)
    read_iops = models.FloatField(null=True)
    write_iops = models.FloatField(null=True)
    measured = models.BooleanField(default=True, db_default=True,
                                   help_text="every read and write request of the window was measured")
    iops_bound = models.FloatField(null=True, help_text="upper bound on IOPS where not measured")
    size_bytes = models.BigIntegerField(null=True)
    size_gb = models.FloatField(null=True)
    intensity = models.FloatField(null=True)
    read_requests_per_day = models.FloatField(null=True)  # NULL: reads not all measured
    # Window totals the rules read (requests; blocks; scans).
    read_requests = models.BigIntegerField(default=0)
    write_requests = models.BigIntegerField(default=0)
    physical_reads_blocks = models.BigIntegerField(default=0)
    physical_reads_direct_blocks = models.BigIntegerField(default=0)
    optimized_physical_reads = models.BigIntegerField(default=0)
    table_scans = models.BigIntegerField(default=0)
    db_block_changes = models.BigIntegerField(default=0)
    # V$BH at the last collection (null: not collected), the FLASH_CACHE hint.
    flash_blocks = models.BigIntegerField(null=True)
    cache_blocks = models.BigIntegerField(null=True)
    flash_cache = models.CharField(max_length=10, blank=True, default="")
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
    # The move's one-off cost (issue 16): its duration and redo, and days its saving takes to pay it back
    # (NULL: no move, or not known).
    move_seconds = models.FloatField(null=True)
    move_redo_bytes = models.BigIntegerField(null=True)
    move_cost_usd = MoneyField(null=True)
    payback_days = models.FloatField(null=True)
    action = models.CharField(max_length=24)
    findings = models.IntegerField(default=0, help_text="bitmask of rules.FINDING_CODES that fired")
    # A LOB index is priced, judged and moved with its LOB (apps.tiering.recommendations.lobfold): the LOB's row counts its
    # size and IO, and the index's own row names the LOB and is left out of every sum (``counted()``).
    folded_into = models.ForeignKey("snapshots.Segment", null=True, on_delete=models.DO_NOTHING, related_name="+",
                                    db_index=False, db_constraint=False,
                                    help_text="the LOB segment this LOB index is counted with")
    # The moves judged for payback together (apps.tiering.recommendations.grouping), in words: '' when in no group.
    move_group = models.CharField(max_length=400, blank=True, default="", db_default="",
                                  help_text="the group of moves it was judged with, and the group's verdict")

    objects = RecommendationQuerySet.as_manager()

    class Meta:
        # The segment tables page by keyset on each numeric sort column (apps.dashboard.recommendations.keyset):
        # one index per column, (run, column, segment), read forwards or backwards.
        indexes = [models.Index(fields=["run", column, "segment"], name=f"reco_{short}_key_idx")
                   for column, short in (("savings_usd", "savings"), ("iops", "iops"), ("intensity", "intensity"),
                                         ("size_gb", "size"), ("cost_now_usd", "cost_now"),
                                         ("cost_after_usd", "cost_after"))] + [
            # A run's LOB indexes by the LOB they are folded into (selectors.lob_indexes_of), without a scan of
            # the whole run per export part: only the few folded rows are indexed.
            models.Index(fields=["run", "folded_into"], name="reco_folded_into_idx",
                         condition=models.Q(folded_into__isnull=False)),
        ]

    @property
    def is_current(self) -> bool:
        return self.run.state == RecommendationRun.State.CURRENT


class Refresh(RunDuration, models.Model):
    """One refresh of a target's recommendations as a task of its own, after a collection or an import.

    Shown on /runs/ beside the run that caused it. A refresh that fails fails
    only itself (the run it follows stays succeeded) and is retried;
    apps.tiering.recommendations.refreshes.refreshes_reap fails the ones left behind by a dead
    worker and queues the missing ones.
    """

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="refreshes")
    after_run = models.ForeignKey("snapshots.CollectionRun", null=True, blank=True, on_delete=models.SET_NULL,
                                  related_name="refreshes", help_text="the collection or import it follows")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True)
    finished_at = models.DateTimeField(null=True)
    attempts = models.IntegerField(default=0)
    recommendations = models.IntegerField(null=True)
    error = models.TextField(blank=True)

    class Meta:
        verbose_name_plural = "refreshes"
        ordering = ["-queued_at"]
        indexes = [
            # /runs/ and the reaper: a target's latest refreshes.
            models.Index(fields=["target", "-queued_at"], name="refresh_target_idx"),
        ]


# The fleet budget's remembered runs (its package, apps.tiering.budget) and a tier's measured figures (issue 17)
# live in their own modules, as move plans do.
from apps.tiering.budget.models import BudgetRun  # noqa: E402, F401
from apps.tiering.calibration.models import TierCalibration  # noqa: E402, F401

# Move plans (issue 16) live in their own module; imported here so that they are the tiering app's models.
from apps.tiering.plans.models import Plan, PlanStep  # noqa: E402, F401

# A run's export rendered once (apps.tiering.recommendations.export_store).
from apps.tiering.recommendations.export_models import ExportLine, ExportRender  # noqa: E402, F401
