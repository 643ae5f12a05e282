"""Reading tiers' calibrations for the pages (issue 17)."""

from __future__ import annotations

from apps.targets.models import Target
from apps.tiering.models import TierCalibration


def tier_calibration_latest_list() -> list[TierCalibration]:
    """Each calibrated tier's latest calibration, with its tier and uploader (one query: DISTINCT ON)."""
    return list(TierCalibration.objects.select_related("tier", "uploaded_by")
                .order_by("tier_id", "-uploaded_at", "-id").distinct("tier_id"))


def tier_set_target_names(*, tier_set_id: str) -> list[str]:
    """The targets whose recommendations a change to this set's tiers touches."""
    return list(Target.objects.filter(tier_set_id=tier_set_id).order_by("name").values_list("name", flat=True))
