"""A report section the importer passes over reaches the DBA: the run's warnings, the command's output, the
target page (a section passed over leaves the segments it lists "not measured" for its statistic)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from django.core.management import call_command

from apps.snapshots.imports import report_import
from apps.snapshots.models import SegmentStat
from apps.targets.models import Target

SAMPLES = Path(__file__).resolve().parents[2] / ".." / "shared" / "awr-samples"
TEXT_11G = "1newstar__awr2csv__sample__awr_11204_1.txt"


def _with_write_requests_title_unread() -> str:
    """The sample with its 'Segments by Physical Write Requests' title line no longer a section title."""
    text = (SAMPLES / TEXT_11G).read_text()
    line = next(line for line in text.split("\n") if line.startswith("Segments by Physical Write Requests"))
    return text.replace(line, line.replace("Snaps: 2-3", "Snap: 3"), 1)


@pytest.mark.django_db
class PassedOverSectionImportTests:
    def test_a_run_together_title_imports_its_request_figures(self, report_target):
        squeezed = re.sub(r"[ \t]+DB/Inst:", "DB/Inst:", (SAMPLES / TEXT_11G).read_text())

        run = report_import(target=report_target, data=squeezed, filename=TEXT_11G)

        measured = SegmentStat.objects.filter(snapshot__target=report_target, physical_read_requests__isnull=False)
        assert measured.count() == 5  # as the sample with its spaces imports them
        assert not [w for w in run.warnings if "passed over" in w]

    def test_a_section_passed_over_is_a_warning_on_the_run_the_page_and_the_command(self, report_target, admin_client,
                                                                                   tmp_path):
        run = report_import(target=report_target, data=_with_write_requests_title_unread(), filename=TEXT_11G)

        (warning,) = [w for w in run.warnings if "passed over" in w]
        assert "'Segments by Physical Write Requests" in warning
        from django.utils.html import escape

        assert escape(warning) in admin_client.get(f"/targets/{report_target.name}/").content.decode()

        Target.objects.create(name="orcl_cli", mode=Target.Mode.REPORT)
        path = tmp_path / TEXT_11G
        path.write_text(_with_write_requests_title_unread())
        out = io.StringIO()
        call_command("import_awr_report", str(path), "--target", "orcl_cli", stdout=out)
        assert f"note: {warning}" in out.getvalue()
