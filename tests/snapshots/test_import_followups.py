"""An import on the command line says when its recommendations will be ready and how to check, or compute them."""

from __future__ import annotations

import pytest

from apps.targets.models import Target
from tests.commands import command_output
from tests.snapshots.import_files import EXTRACTS, SAMPLES
from tests.targets.awr_report.samples import HTML_11G


@pytest.fixture
def report_target_committed(transactional_db, seed_tiers):
    return Target.objects.create(name="xydb", mode=Target.Mode.REPORT)


# Committed as the command commits (autocommit): what it queues once committed is queued before it prints.
@pytest.mark.django_db(transaction=True)
class ImportFollowupTests:
    def test_an_extract_import_says_its_refresh_was_queued_and_how_to_check(
            self, report_target_committed, monkeypatch):
        from apps.tiering.models import Refresh

        monkeypatch.setattr("apps.tiering.recommendations.refreshes._refresh_send", lambda *, refresh_id: None)  # sent; no worker
        said = command_output("import_extract", str(EXTRACTS / "rac"), "--target", "xydb")

        refresh = Refresh.objects.get(target=report_target_committed)  # queued, not run: no worker in this test
        assert refresh.status == Refresh.Status.QUEUED
        line = next(line for line in said.splitlines() if line.startswith("recommendations: "))
        assert f"a refresh was queued at {refresh.queued_at:%Y-%m-%d %H:%M:%S} UTC" in line
        assert "`manage.py recommend xydb`" in line and "`manage.py recommend xydb --refresh`" in line

    def test_a_report_import_whose_refresh_ran_says_it_is_done(self, report_target_committed):
        said = command_output("import_awr_report", str(SAMPLES / HTML_11G), "--target", "xydb")

        assert "recommendations: refreshed (" in said and "`manage.py recommend xydb` prints them" in said

    @pytest.mark.usefixtures("closed_broker")
    def test_an_import_that_could_not_queue_its_refresh_says_so_and_what_to_run(self, report_target_committed):
        said = command_output("import_extract", str(EXTRACTS / "rac"), "--target", "xydb")

        line = next(line for line in said.splitlines() if line.startswith("recommendations: "))
        assert line.startswith("recommendations: not refreshed: Not queued: the task broker did not answer (")
        assert line.endswith("queued again once it is back; to compute them now: `manage.py recommend xydb --refresh`.")
