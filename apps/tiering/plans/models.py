"""A move plan and its steps (issue 16, item 5). Registered with the tiering app through apps.tiering.models."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from apps.core.fields import MoneyField
from apps.targets.rows import segment_name


class Plan(models.Model):
    """Recommendations chosen to be carried out, as steps in a safe order (apps.tiering.plans.steps).

    Its steps are fixed when it is made; only its state moves on: draft -> approved (by an admin other
    than its author) -> executed -> verified, each change recorded (who, when) and in the audit log.
    Totals are those of its steps; None where a move's figure is unknown (``unknown_*`` count them).
    Money per month in USD (the target's set's basis applied when it was made); ``move_cost_usd`` is
    one-off.
    """

    class State(models.TextChoices):
        DRAFT = "draft"
        APPROVED = "approved"
        EXECUTED = "executed"
        VERIFIED = "verified"

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="plans")
    run = models.ForeignKey("tiering.RecommendationRun", null=True, on_delete=models.SET_NULL, related_name="+",
                            help_text="the recommendations it was made from")
    dbid = models.BigIntegerField(null=True, help_text="the database its script runs on (checked by the script)")
    release = models.CharField(max_length=30, blank=True, help_text="the release its DDL was written for")
    source = models.CharField(max_length=200, help_text="how its recommendations were chosen")
    note = models.CharField(max_length=300, blank=True)
    state = models.CharField(max_length=10, choices=State.choices, default=State.DRAFT)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_by_name = models.CharField(max_length=150)
    approved_at = models.DateTimeField(null=True)
    approved_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    approved_by_name = models.CharField(max_length=150, blank=True)
    executed_at = models.DateTimeField(null=True)
    executed_by_name = models.CharField(max_length=150, blank=True)
    verified_at = models.DateTimeField(null=True)
    verified_by_name = models.CharField(max_length=150, blank=True)
    # Totals (apps.tiering.plans.steps.plan_totals).
    steps_count = models.IntegerField(default=0)
    moves_count = models.IntegerField(default=0)
    size_bytes = models.BigIntegerField(null=True)
    seconds = models.FloatField(null=True)
    redo_bytes = models.BigIntegerField(null=True)
    saving_usd_per_month = MoneyField(null=True)
    move_cost_usd = MoneyField(null=True)
    payback_days = models.FloatField(null=True)
    unknown_seconds = models.IntegerField(default=0)
    unknown_redo = models.IntegerField(default=0)
    unknown_cost = models.IntegerField(default=0)
    free_space_checked = models.BooleanField(default=False, help_text="free space after each step was computed")
    shortfalls = models.IntegerField(default=0, help_text="steps whose destination lacks room")

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            # The plan list of a target, newest first.
            models.Index(fields=["target", "-created_at"], name="plan_target_idx"),
        ]

    def __str__(self) -> str:
        return f"plan {self.pk} ({self.state})"


class PlanStep(models.Model):
    """One step of a plan: the statements it runs, what it moves, and its estimates (None: unknown).

    Names are copied from the segment, so a plan reads the same after its segments are gone.
    """

    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="steps")
    position = models.IntegerField()
    phase = models.CharField(max_length=10)
    kind = models.CharField(max_length=5)  # move / hint
    segment = models.ForeignKey("snapshots.Segment", null=True, on_delete=models.SET_NULL, related_name="+")
    owner = models.CharField(max_length=128)
    object_name = models.CharField(max_length=128)
    subobject_name = models.CharField(max_length=128, blank=True)
    object_type = models.CharField(max_length=30)
    container = models.CharField(max_length=128, blank=True, default="", db_default="",
                                 help_text="the PDB of a CDB's segment; its statements start by switching to it")
    action = models.CharField(max_length=24)
    from_tablespace = models.CharField(max_length=128, blank=True)
    to_tablespace = models.CharField(max_length=128, blank=True)
    to_tier = models.CharField(max_length=60, blank=True)
    runnable = models.BooleanField(default=True, help_text="it has a statement (else comments say why not)")
    ddl = models.TextField()
    size_bytes = models.BigIntegerField(null=True)
    seconds = models.FloatField(null=True)
    redo_bytes = models.BigIntegerField(null=True)
    free_after_bytes = models.BigIntegerField(null=True, help_text="destination's free space after it; null: unknown")
    shortfall_bytes = models.BigIntegerField(null=True, help_text="room the destination lacks for it")
    saving_usd_per_month = MoneyField(null=True)
    move_cost_usd = MoneyField(null=True)
    payback_days = models.FloatField(null=True)

    class Meta:
        ordering = ["plan", "position"]
        constraints = [models.UniqueConstraint(fields=["plan", "position"], name="plan_step_position")]

    def __str__(self) -> str:
        return f"{self.position}. {segment_name(self.owner, self.object_name, self.subobject_name, self.container)}"
