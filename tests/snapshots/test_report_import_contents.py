"""What an AWR report import makes of a report's contents: a figure it cannot read (refused, or NULL and noted), names
AWR cut short, and a compare-periods report's two periods; against the real test database and real AWR reports."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from apps.snapshots.imports import ImportRefused, report_import
from apps.snapshots.models import CollectionRun, Segment, SegmentStat, Snapshot
from tests.snapshots.import_files import SAME_HTML, SAME_TEXT, sample, sizes_csv
from tests.snapshots.stored_counts import NOTHING, stored_counts
from tests.targets.awr_report.samples import HTML_11G, TEXT_12C

UTC = dt.timezone.utc


def _edited(name: str, old: bytes, new: bytes) -> bytes:
    data = sample(name)
    assert data.count(old) >= 1
    return data.replace(old, new, 1)


WITHOUT_SEGMENTS_HTML = "pcambell__awrrptanalyzor__awrrpt__12c_rac__awrrpt_1_56288_562891.html"


@pytest.mark.django_db
class ReportCellImportTests:
    """Issue 15, items 3 and 4 at the import: refusals leave nothing; an unknown figure is NULL and noted."""

    def test_it_refuses_a_typo_in_a_figure_and_imports_nothing(self, report_target):
        data = _edited(HTML_11G, b">2,040,761<", b">2,04O,761<")

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=data, filename=HTML_11G)

        assert "'2,04O,761'" in str(caught.value) and "'Segments by Physical Read Requests'" in str(caught.value)
        assert stored_counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_stores_an_overflowed_figure_as_null_and_notes_it_on_the_run(self, report_target):
        data = _edited(TEXT_12C, b"     142581        1,406", b"     142581      #######")

        run = report_import(target=report_target, data=data, filename=TEXT_12C)

        # Stored as unknown (NULL), never 0; the figures printed beside it are kept.
        stat = SegmentStat.objects.get(snapshot__target=report_target, segment__object_name="DBPLUS_TAB4")
        assert (stat.physical_read_requests, stat.physical_reads_blocks) == (None, 1670)
        assert "DBPLUS_REP.DBPLUS_TAB4" in run.notes and "unknown" in run.notes and "at most 1,411" in run.notes

    def test_a_report_without_segment_sections_imports_with_a_visible_warning(self, report_target, admin_client):
        run = report_import(target=report_target, data=sample(WITHOUT_SEGMENTS_HTML), filename=WITHOUT_SEGMENTS_HTML)

        # What it has (its interval) is stored; the run says, first among its warnings, that no segment got figures.
        assert run.status == CollectionRun.Status.SUCCEEDED and run.snapshots_added == 1
        assert not SegmentStat.objects.filter(snapshot__target=report_target).exists()
        assert run.warnings[0].startswith("Warning: no segment figures in this report")
        assert "no 'Segments by ...' sections" in run.warnings[0] and "awrrpt.sql" in run.warnings[0]
        # The target page and /runs/ show it.
        from django.utils.html import escape

        assert escape(run.warnings[0]) in admin_client.get(f"/targets/{report_target.name}/").content.decode()
        assert escape(run.warnings[0]) in admin_client.get("/runs/").content.decode()


@pytest.mark.django_db
class TruncatedNameImportTests:
    """Issue 15 item 6: a text report's cut names are completed from the sizes listing or stay marked cut."""

    def test_it_keeps_cut_names_marked_when_nothing_completes_them(self, report_target):
        run = report_import(target=report_target, data=sample(SAME_TEXT), filename=SAME_TEXT)

        cut = Segment.objects.filter(target=report_target, name_truncated=True)
        assert cut.count() == 11
        assert cut.filter(object_name="WRH$_LATCH_MISSES_SU", subobject_name="80142923_0").exists()
        assert not Segment.objects.get(target=report_target, object_name="KOTAD$").name_truncated
        assert "11 segment names are cut" in run.notes

    def test_it_completes_cut_names_from_the_sizes_listing(self, report_target):
        from apps.targets.awr_report import parse_report

        twin = parse_report(sample(SAME_HTML), filename=SAME_HTML)
        sizes = sizes_csv(*((s.owner, s.object_name, s.subobject_name, "TABLE", s.tablespace_name, 8192)
                             for s in twin.segments))

        run = report_import(target=report_target, data=sample(SAME_TEXT), filename=SAME_TEXT, sizes=sizes)

        segments = Segment.objects.filter(target=report_target)
        assert not segments.filter(name_truncated=True).exists()
        full = segments.get(object_name="WRH$_LATCH_MISSES_SUMMARY_PK", subobject_name="WRH$_LATCH__1380142923_0")
        assert full.size_bytes == 8192
        assert not segments.filter(object_name="WRH$_LATCH_MISSES_SU").exists()
        assert "11 of 11 names cut to their column width completed" in run.notes

    def test_it_completes_cut_names_from_the_segments_the_target_holds(self, report_target):
        # A segment tierscope already holds under its full name (from an HTML report or an extract)
        Segment.objects.bulk_create([
            Segment(target=report_target, owner="SYS", object_name="WRH$_LATCH_MISSES_SUMMARY_PK",
                    subobject_name="WRH$_LATCH__1380142923_0", object_type="INDEX PARTITION",
                    first_seen_at=dt.datetime(2026, 1, 1, tzinfo=UTC), last_seen_at=dt.datetime(2026, 1, 1, tzinfo=UTC)),
        ])

        report_import(target=report_target, data=sample(SAME_TEXT), filename=SAME_TEXT)

        segments = Segment.objects.filter(target=report_target)
        assert segments.filter(object_name="WRH$_LATCH_MISSES_SUMMARY_PK", subobject_name="WRH$_LATCH__1380142923_0",
                               object_type="INDEX PARTITION").count() == 1
        assert not segments.filter(object_name="WRH$_LATCH_MISSES_SU").exists()
        assert segments.filter(name_truncated=True).count() == 10


COMPARE_FIXTURES = Path(__file__).resolve().parents[1] / "targets" / "awr_report" / "fixtures"


@pytest.mark.django_db
class CompareReportImportTests:
    """Issue 15 item 5: a compare-period report imports as two snapshots, one per period (it was refused)."""

    def test_it_stores_each_period_as_a_snapshot_with_its_own_instance_and_interval(self, report_target):
        data = (COMPARE_FIXTURES / "awrdiff_rac_12c.html").read_bytes()

        run = report_import(target=report_target, data=data, filename="awrdiff_rac_12c.html")

        assert run.status == CollectionRun.Status.SUCCEEDED and run.snapshots_added == 2
        snaps = Snapshot.objects.filter(target=report_target).order_by("instance_number")
        assert [(s.kind, s.dbid, s.instance_number, s.snap_id) for s in snaps] == [
            ("report", 2871094613, 1, 1201), ("report", 2871094613, 2, 1201)]
        intervals = {stat.snapshot.instance_number: stat.interval_s
                     for stat in SegmentStat.objects.filter(snapshot__target=report_target, segment__object_name="ORDERS")}
        assert intervals == {1: pytest.approx(60.10 * 60), 2: pytest.approx(60.07 * 60)}
        reads = dict(SegmentStat.objects.filter(snapshot__target=report_target, segment__object_name="ORDERS")
                     .values_list("snapshot__instance_number", "physical_read_requests"))
        assert reads == {1: 88000, 2: 52500}
        assert "1st period: DBID 2871094613 instance 1, snaps 1200-1201" in run.notes

    def test_it_leaves_out_a_period_of_another_database_and_says_so(self, report_target):
        text = (COMPARE_FIXTURES / "awrdiff_19c.txt").read_bytes().replace(
            b"Second (2nd)   909607496", b"Second (2nd)   123456789", 1)

        run = report_import(target=report_target, data=text, filename="awrdiff_19c.txt")

        assert list(Snapshot.objects.filter(target=report_target).values_list("dbid", "snap_id")) == [(909607496, 92)]
        assert "the 2nd period (snaps 88-89) is of database CDB1 (DBID 123456789)" in run.notes
        assert "not imported" in run.notes
