from __future__ import annotations

from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.core.validators import MinValueValidator, RegexValidator
from django.db import models

from apps.core.crypto import decrypt_secret, encrypt_secret

DEFAULT_TIER_SET = "seed-2009"


def default_tier_set() -> str:
    """The seed's tier set, created (empty, bought devices) if it does not exist yet, so a new target always
    names a real set; its tiers come with the presets (apps.tiering.tiers.tier_presets_install)."""
    tier_set_model = apps.get_model("tiering", "TierSet")  # by name: targets comes before tiering on the path
    tier_set_model.objects.get_or_create(name=DEFAULT_TIER_SET)
    return DEFAULT_TIER_SET


class TargetQuerySet(models.QuerySet["Target"]):
    def enabled(self) -> TargetQuerySet:
        return self.filter(enabled=True)


_TargetManagerBase = models.Manager.from_queryset(TargetQuerySet)


class TargetManager(_TargetManagerBase["Target"]):
    """The targets not being deleted: a target whose delete was asked for is gone from every page, list, schedule and
    task at once, while a worker removes its data (apps.targets.deletion)."""

    def get_queryset(self) -> TargetQuerySet:
        return TargetQuerySet(self.model, using=self._db).filter(deleting_since__isnull=True)


class Target(models.Model):
    """A database tierscope watches, and how its data reaches us."""

    class Mode(models.TextChoices):
        AWR = "awr", "awr (Diagnostics Pack licensed)"
        NOPACK = "nopack", "nopack (no Diagnostics Pack)"
        DEMO = "demo", "demo (built-in simulation)"
        REPORT = "report", "report-only (AWR reports / offline extracts)"

    name = models.CharField(
        max_length=60,
        unique=True,
        validators=[RegexValidator(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$", "letters, digits, _ . - only")],
    )
    mode = models.CharField(max_length=10, choices=Mode.choices)
    dsn = models.CharField(max_length=400, blank=True, help_text="host:port/service_name")
    username = models.CharField(max_length=128, blank=True)
    password_encrypted = models.TextField(blank=True, editable=False)
    interval_minutes = models.PositiveIntegerField(default=60, validators=[MinValueValidator(5)])
    enabled = models.BooleanField(default=True)
    # The Celery queue its collections, connection checks and refreshes go to (docs/scaling.md): a group of
    # targets served by workers of their own, e.g. on a machine near those databases. Blank: the default queue.
    collect_queue = models.CharField(
        max_length=60, blank=True, verbose_name="queue",
        validators=[RegexValidator(r"^[a-z0-9_-]+$", "lower-case letters, digits, _ - only")],
        help_text="Celery queue of this target's group (blank: the default queue); start a worker with "
                  "celery -A config worker -Q <queue>",
    )
    demo_seed = models.IntegerField(default=42)
    tier_set = models.ForeignKey("tiering.TierSet", on_delete=models.PROTECT, related_name="targets",
                                 default=default_tier_set, help_text="the tier set recommendations compare")
    next_collect_at = models.DateTimeField(null=True, blank=True)
    # What the last collection learned: release, dbid, RAC, pack access.
    capabilities = models.JSONField(default=dict, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when its delete was asked for (apps.targets.deletion): hidden from ``objects``, renamed so that its name is
    # free, its data removed by a worker in short transactions, then the row itself.
    deleting_since = models.DateTimeField(null=True, blank=True, editable=False)

    objects = TargetManager()  # the default manager: the targets not being deleted
    all_objects = TargetQuerySet.as_manager()  # with those being deleted (their purge)

    class Meta:
        ordering = ["name"]
        indexes = [
            # snapshot_collect_due: enabled targets whose next collection is due.
            models.Index(fields=["next_collect_at"], condition=models.Q(enabled=True), name="target_due_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        super().clean()
        if self.pk is None or self.tier_set_id is None:
            return
        foreign: list[TablespaceTier | StorageLocation] = [*(TablespaceTier.objects.filter(target_id=self.pk).exclude(tier__tier_set_id=self.tier_set_id)
                     .select_related("tier").order_by("tablespace_name")),
                   *(StorageLocation.objects.filter(target_id=self.pk, tier__isnull=False)
                     .exclude(tier__tier_set_id=self.tier_set_id).select_related("tier").order_by("name"))]
        if foreign:
            names = ", ".join(f"{m.tablespace_name if isinstance(m, TablespaceTier) else m.name} → {m.tier}"
                              for m in foreign[:5])
            raise ValidationError({"tier_set": (
                f"target {self.name!r}: its tablespace map names tiers of another set ({names}); "
                f"map those tablespaces (or storage locations) to tiers of {self.tier_set_id!r} first, or keep the set"
            )})

    def set_password(self, plain: str) -> None:
        self.password_encrypted = encrypt_secret(plain) if plain else ""

    def get_password(self) -> str:
        return decrypt_secret(self.password_encrypted)

    @property
    def is_live(self) -> bool:
        return self.mode in (self.Mode.AWR, self.Mode.NOPACK, self.Mode.DEMO)

    @property
    def mode_explanation(self) -> str:
        return {
            self.Mode.AWR: "Reads AWR history (DBA_HIST_*), which needs the Oracle Diagnostics Pack licence.",
            self.Mode.NOPACK: (
                "No Diagnostics Pack: reads only the licence-exempt DBA_HIST_SNAPSHOT / SEG_STAT / SEG_STAT_OBJ "
                "and samples V$ views each run."
            ),
            self.Mode.DEMO: "Built-in simulated order-entry database: no Oracle connection.",
            self.Mode.REPORT: "Report-only: fed by uploaded AWR reports and offline extracts; never connected to.",
        }[self.Mode(self.mode)]


def tier_of_target_set(target: Target, tier: Any, what: str) -> None:
    """Refuse ``tier`` for ``what`` (a tablespace or storage location of ``target``) unless it is a tier of the
    target's tier set: a target compares its tiers' money in one unit."""
    if tier.tier_set_id != target.tier_set_id:
        raise ValidationError({"tier": (
            f"{what} of target {target.name!r}: tier {tier.name!r} is in tier set {tier.tier_set_id!r}, but the "
            f"target compares the {target.tier_set_id!r} set; pick a tier of {target.tier_set_id!r}"
        )})


class TablespaceTier(models.Model):
    """Which tier a target's tablespace sits on today."""

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="tablespace_tiers")
    tablespace_name = models.CharField(max_length=128)
    tier = models.ForeignKey("tiering.Tier", on_delete=models.PROTECT, related_name="tablespaces")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "tablespace_name"], name="tablespace_tier_unique"),
        ]
        ordering = ["target", "tablespace_name"]

    def __str__(self) -> str:
        return f"{self.target}: {self.tablespace_name} → {self.tier}"

    def clean(self) -> None:
        super().clean()
        if self.target_id is not None and self.tier_id is not None:
            tier_of_target_set(self.target, self.tier, f"tablespace {self.tablespace_name!r}")


class StorageLocation(models.Model):
    """A disk group or mount point of a target, as the DBA maps it (apps.targets.storage finds them in the data
    files' names): its tier, which the tablespaces whose files are all there take unless the hand map
    (TablespaceTier) names theirs, and whether the array pool behind it tiers by itself."""

    class Kind(models.TextChoices):
        ASM = "asm", "ASM disk group"
        MOUNT = "mount", "mount point"

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="storage_locations")
    name = models.CharField(max_length=513, help_text="disk group as file names write it (+DATA) or mount point (/u03)")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    tier = models.ForeignKey("tiering.Tier", on_delete=models.PROTECT, null=True, blank=True,
                             related_name="storage_locations", help_text="empty: not mapped")
    array_tiering = models.BooleanField(
        default=False, help_text="the array pool behind it tiers by itself: moving segments fights the array")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "name"], name="storage_location_unique"),
        ]
        ordering = ["target", "name"]

    def __str__(self) -> str:
        return f"{self.target}: {self.name} → {self.tier or 'not mapped'}"

    def clean(self) -> None:
        super().clean()
        if self.target_id is not None and self.tier_id is not None and self.tier is not None:
            tier_of_target_set(self.target, self.tier, f"location {self.name!r}")


class TargetCheck(models.Model):
    """One "test connection" of a target, run by a worker; its steps appear on a page as they complete."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        PASSED = "passed"
        FAILED = "failed"

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="checks")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    # [{"step": "connect", "ok": true, "detail": "..."}, ...] in the order they completed.
    steps = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    requested_by = models.CharField(max_length=150, blank=True)
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-queued_at"]

    def __str__(self) -> str:
        return f"check of {self.target} ({self.status})"

    @property
    def done(self) -> bool:
        return self.status in (self.Status.PASSED, self.Status.FAILED)
