"""A report target holding one imported AWR report: the 22-hour one of ../shared/awr-samples (snaps 160-204)."""

from __future__ import annotations

from pathlib import Path

from django.test import TestCase

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from apps.tiering.tiers import tier_presets_install

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
REPORT_22H = "jdmoreno__awr-export__test__in__PPD_-_2023-12-23_-_asd_-soak__awrrpt_1_160_204.html"
# Its one interval: 2023-12-23 05:59:38 to 2023-12-24 04:00:45 UTC (1,321.13 min).
REPORT_22H_SPAN = "2023-12-23 05:59 to 2023-12-24 04:00 UTC"


def report_imported(capture_on_commit, *, name: str = "ppd", report: str = REPORT_22H) -> Target:
    """A report target with ``report`` imported and its refresh run (as the worker would)."""
    from apps.snapshots.imports import report_import

    target = Target.objects.create(name=name, mode=Target.Mode.REPORT)
    with capture_on_commit(execute=True):
        run = report_import(target=target, data=(SAMPLES / report).read_bytes(), filename=report)
    assert run.status == CollectionRun.Status.SUCCEEDED, run.error
    return target


def ppd_imported_id() -> int:
    """The seed tiers installed and ``report_imported()``: the target's id (for tests/base.py rows_for_module)."""
    tier_presets_install()
    return report_imported(TestCase.captureOnCommitCallbacks).pk
