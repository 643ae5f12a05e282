"""The budget runs remembered: registered with the tiering app through apps.tiering.models."""

from __future__ import annotations

import numpy as np
from django.conf import settings
from django.db import models
from django.db.models import Q

from apps.tiering.budget.split import Capacity

#: How the chosen segment ids are stored: sorted, 8-byte little-endian integers.
ID_DTYPE = np.dtype("<i8")


class BudgetRun(models.Model):
    """A fleet budget of one tier that was acted on (its plans made, or remembered on purpose): the segments it
    placed on the tier. The next budget of the tier reads the latest one (apps.tiering.budget.selectors), and
    a segment it chose holds its place there unless a challenger beats it by the margin
    (apps.tiering.budget.worth).

    The chosen set is one packed array (``chosen_segment_ids``), not a row per segment: a fleet's budget can
    place a million segments, read back at once as one numpy array, never queried one by one. Segment ids are
    unique across targets, so one array holds every target's.
    """

    tier = models.ForeignKey("tiering.Tier", on_delete=models.CASCADE, related_name="budget_runs")
    made_at = models.DateTimeField()
    made_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                related_name="+")
    made_by_name = models.CharField(max_length=150)
    budget_gb = models.FloatField(null=True, blank=True)
    budget_usd_per_month = models.FloatField(null=True, blank=True)
    how = models.CharField(max_length=200, help_text="what it was remembered for: its plans, or on purpose")
    chosen_count = models.IntegerField()
    chosen_gb = models.FloatField(help_text="GiB on the tier under it (sizes unknown not counted)")
    chosen_segment_ids = models.BinaryField(help_text="the segments on the tier under it: sorted int64, little-endian")

    class Meta:
        ordering = ["-made_at", "-id"]
        indexes = [
            # The next budget of a tier reads its latest run; pruning keeps each tier's latest few.
            models.Index(fields=["tier", "-made_at"], name="budget_run_tier_idx"),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(budget_gb__isnull=False, budget_usd_per_month__isnull=True)
                | Q(budget_gb__isnull=True, budget_usd_per_month__isnull=False),
                name="budget_run_one_budget"),
        ]

    def __str__(self) -> str:
        return f"{self.capacity.words} of tier {self.tier_id} @ {self.made_at:%Y-%m-%d %H:%M}"

    @property
    def capacity(self) -> Capacity:
        return Capacity(gb=self.budget_gb, usd_per_month=self.budget_usd_per_month)

    @property
    def chosen(self) -> np.ndarray:
        """The segment ids it placed on the tier, sorted."""
        return np.frombuffer(bytes(self.chosen_segment_ids), dtype=ID_DTYPE).astype(np.int64)
