"""Reading tiers' calibrations for the pages (issue 17)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from apps.targets.models import Target
from apps.tiering.models import TierCalibration


def tier_calibration_latest_list() -> list[TierCalibration]:
    """Each calibrated tier's latest calibration, with its tier and uploader (one query: DISTINCT ON)."""
    return list(TierCalibration.objects.select_related("tier", "uploaded_by")
                .order_by("tier_id", "-uploaded_at", "-id").distinct("tier_id"))


def tier_set_target_names(*, tier_set_id: str) -> list[str]:
    """The targets whose recommendations a change to this set's tiers touches."""
    return list(Target.objects.filter(tier_set_id=tier_set_id).order_by("name").values_list("name", flat=True))


@dataclass(frozen=True)
class CalibrationCatalog:
    """The tiers page's measurements: each set's calibrated tiers' latest calibration, and which tiers."""

    by_set: dict[str, list[TierCalibration]]
    tier_ids: frozenset[int]


def tier_calibration_catalog() -> CalibrationCatalog:
    """Each calibrated tier's latest calibration, grouped by the tier's set (one query)."""
    by_set: dict[str, list[TierCalibration]] = defaultdict(list)
    latest = sorted(tier_calibration_latest_list(), key=lambda c: c.tier.name)
    for calibration in latest:
        by_set[calibration.tier.tier_set_id].append(calibration)
    return CalibrationCatalog(by_set=dict(by_set), tier_ids=frozenset(c.tier_id for c in latest))
