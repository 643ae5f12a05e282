"""AWR report and offline extract imports, against the real test database and real AWR reports."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest
import time_machine
from django.core.management import CommandError, call_command

from apps.snapshots.imports import ImportRefused, extract_import, report_import
from apps.snapshots.models import (
    CollectionRun,
    Residency,
    SampleState,
    Segment,
    SegmentStat,
    Snapshot,
    SysStat,
    TablespaceIO,
)
from apps.targets.awr_report import MAX_REPORT_BYTES
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.snapshots.import_files import EXTRACTS, HTML_11G, SAMPLES, sizes_csv

TEXT_12C = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"
RAC_GLOBAL = "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html"
SAME_HTML = "1newstar__awr2csv__sample__awr_11204_1.html"
SAME_TEXT = "1newstar__awr2csv__sample__awr_11204_1.txt"
UTC = dt.timezone.utc


def _sample(name: str) -> bytes:
    return (SAMPLES / name).read_bytes()


def _counts(target: Target) -> dict[str, int]:
    return {
        "snapshots": Snapshot.objects.filter(target=target).count(),
        "segment_stats": SegmentStat.objects.filter(snapshot__target=target).count(),
        "sysstats": SysStat.objects.filter(snapshot__target=target).count(),
        "tablespace_io": TablespaceIO.objects.filter(snapshot__target=target).count(),
        "segments": Segment.objects.filter(target=target).count(),
        "residency": Residency.objects.filter(target=target).count(),
        "samples": SampleState.objects.filter(target=target).count(),
    }


NOTHING = {"snapshots": 0, "segment_stats": 0, "sysstats": 0, "tablespace_io": 0, "segments": 0, "residency": 0,
           "samples": 0}


@pytest.fixture
def report_target(db) -> Target:
    return Target.objects.create(name="xydb", mode=Target.Mode.REPORT)


@pytest.mark.django_db
class ReportImportTests:
    def test_it_imports_a_single_instance_html_report(self, report_target):
        run = report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)

        assert (run.status, run.trigger) == (CollectionRun.Status.SUCCEEDED, "import")
        assert run.snapshots_added == 1
        snap = Snapshot.objects.get(target=report_target)
        assert (snap.kind, snap.dbid, snap.instance_number, snap.snap_id) == ("report", 1932768254, 1, 36007)
        assert snap.top_n_only
        assert SegmentStat.objects.filter(snapshot=snap).count() == 22
        assert Segment.objects.filter(target=report_target).count() == 22
        # Figures as the report prints them (Segments by Physical Read Requests: 2,040,761).
        stat = SegmentStat.objects.get(snapshot=snap, segment__object_name="T_ONLINE_USER")
        assert stat.physical_read_requests == 2040761
        # The interval is the elapsed time the report states (60.09 min), not end - begin (3,606 s)
        assert stat.interval_s == pytest.approx(60.09 * 60)
        assert SysStat.objects.get(snapshot=snap, name="physical read IO requests").value == 4084013
        assert TablespaceIO.objects.filter(snapshot=snap).count() == 12
        report_target.refresh_from_db()
        assert report_target.capabilities["dbid"] == 1932768254
        assert report_target.capabilities["instances"] == [1]

    def test_it_imports_a_text_report(self, report_target):
        run = report_import(target=report_target, data=_sample(TEXT_12C), filename=TEXT_12C)

        assert run.status == CollectionRun.Status.SUCCEEDED
        snap = Snapshot.objects.get(target=report_target)
        assert (snap.dbid, snap.snap_id) == (1135854311, 2669)
        assert SegmentStat.objects.filter(snapshot=snap).count() == 23
        stat = SegmentStat.objects.get(snapshot=snap, segment__object_name="DBPLUS_TAB4")
        assert (stat.physical_read_requests, stat.physical_reads_blocks) == (1406, 1670)

    def test_it_imports_a_global_rac_report_as_instance_zero(self, report_target):
        run = report_import(target=report_target, data=_sample(RAC_GLOBAL), filename=RAC_GLOBAL)

        assert run.status == CollectionRun.Status.SUCCEEDED
        snap = Snapshot.objects.get(target=report_target)
        assert (snap.dbid, snap.instance_number, snap.snap_id) == (3648831675, 0, 177)
        assert SegmentStat.objects.filter(snapshot=snap).count() == 22
        stat = SegmentStat.objects.get(snapshot=snap, segment__owner="USER1", segment__object_name="CF1")
        assert stat.physical_read_requests == 1673295
        report_target.refresh_from_db()
        assert report_target.capabilities["rac"] is True
        assert report_target.capabilities["instances"] == [1, 2]

    def test_it_adds_nothing_when_the_same_report_is_imported_again(self, report_target):
        report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)
        before = _counts(report_target)

        run = report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)

        assert run.status == CollectionRun.Status.SUCCEEDED
        assert (run.snapshots_added, run.rows_added) == (0, 0)
        assert _counts(report_target) == before

    def test_it_adds_nothing_for_the_text_form_of_an_imported_html_report(self, report_target):
        report_import(target=report_target, data=_sample(SAME_HTML), filename=SAME_HTML)
        before = _counts(report_target)

        run = report_import(target=report_target, data=_sample(SAME_TEXT), filename=SAME_TEXT)

        assert run.snapshots_added == 0
        # The text form prints truncated names: none of them may turn into a new segment.
        assert _counts(report_target) == before
        assert before["snapshots"] == 1

    def test_it_refuses_a_report_of_another_database(self, report_target):
        report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)
        before = _counts(report_target)

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=_sample(TEXT_12C), filename=TEXT_12C)

        assert "DBID 1135854311" in str(caught.value) and "DBID 1932768254" in str(caught.value)
        assert _counts(report_target) == before

    def test_it_refuses_a_report_whose_dbid_differs_from_a_live_target(self, demo_target):
        demo_target.capabilities = {"dbid": 42, "db_name": "DEMO"}
        demo_target.save()

        with pytest.raises(ImportRefused, match="DBID 42"):
            report_import(target=demo_target, data=_sample(HTML_11G), filename=HTML_11G)

        assert Snapshot.objects.filter(target=demo_target).count() == 0

    def test_it_takes_sizes_from_a_companion_segments_listing(self, report_target):
        sizes = sizes_csv(
            ("IDC_U_UNIAUTH", "T_ONLINE_USER", "", "TABLE", "TS_UNIAUTH", 5 * 1024**3),
            ("IDC_U_UNIAUTH", "NOT_IN_THE_REPORT", "", "TABLE", "TS_UNIAUTH", 1024**3),
        )

        report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G, sizes=sizes)

        segments = Segment.objects.filter(target=report_target)
        assert segments.get(object_name="T_ONLINE_USER").size_bytes == 5 * 1024**3
        # Segments the report does not list are not invented; the rest stay "size unknown".
        assert not segments.filter(object_name="NOT_IN_THE_REPORT").exists()
        assert segments.count() == 22
        assert segments.filter(size_bytes__isnull=True).count() == 21

    def test_it_refuses_a_bad_sizes_file_naming_its_line(self, report_target):
        sizes = sizes_csv(("A", "B", "", "TABLE", "T", 1)) + b'"A","C","","TABLE","T","lots","1","","","","","","","",""\n'

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G, sizes=sizes,
                          sizes_filename="sizes.csv")

        assert str(caught.value) == "sizes.csv, line 3, column BYTES: 'lots' is not a whole number"
        assert _counts(report_target) == NOTHING

    def test_it_leaves_no_rows_for_a_truncated_report(self, report_target):
        data = _sample(HTML_11G)

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=data[: len(data) // 3], filename=HTML_11G)

        assert HTML_11G in str(caught.value)
        assert _counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_leaves_no_rows_for_a_corrupt_file(self, report_target):
        with pytest.raises(ImportRefused):
            report_import(target=report_target, data=bytes(range(256)) * 100, filename="awr.html")

        assert _counts(report_target) == NOTHING

    def test_it_refuses_an_oversized_file_before_parsing(self, report_target, settings):
        from apps.core.config import get_config

        get_config.cache_clear()
        settings.TIERSCOPE = {"MAX_UPLOAD_BYTES": 1000}
        try:
            with pytest.raises(ImportRefused, match="more than the 1000 bytes allowed"):
                report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)
        finally:
            get_config.cache_clear()

        assert _counts(report_target) == NOTHING

    def test_it_refuses_a_file_over_the_parser_limit(self, report_target):
        with pytest.raises(ImportRefused):
            report_import(target=report_target, data=b" " * (MAX_REPORT_BYTES + 1), filename="big.html")

        assert _counts(report_target) == NOTHING

    def test_it_refreshes_recommendations_for_a_recent_report(self, report_target, seed_tiers,
                                                              django_capture_on_commit_callbacks):
        sizes = sizes_csv(("IDC_U_UNIAUTH", "T_ONLINE_USER", "", "TABLE", "TS_UNIAUTH", 5 * 1024**3))

        with time_machine.travel(dt.datetime(2023, 12, 12, 19, 0, tzinfo=UTC), tick=False), \
                django_capture_on_commit_callbacks(execute=True):
            report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G, sizes=sizes)

        current = Recommendation.objects.current(target_id=report_target.id)
        assert current.filter(segment__object_name="T_ONLINE_USER").exists()


@pytest.mark.django_db
class ExtractImportTests:
    def test_it_imports_a_single_instance_extract_directory(self, report_target):
        run = extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        assert (run.status, run.trigger, run.snapshots_added) == (CollectionRun.Status.SUCCEEDED, "import", 3)
        snaps = Snapshot.objects.filter(target=report_target, kind="extract").order_by("snap_id")
        assert [s.snap_id for s in snaps] == [101, 102, 103]
        assert snaps[0].end_at == dt.datetime(2024, 5, 2, 9, tzinfo=UTC)
        assert SegmentStat.objects.filter(snapshot__target=report_target).count() == 4
        # DBA_SEGMENTS gives sizes, including PRODUCTS which AWR did not capture.
        segments = Segment.objects.filter(target=report_target)
        assert segments.get(object_name="PRODUCTS").size_bytes == 8388608
        assert not segments.get(object_name="PRODUCTS").in_awr
        assert segments.get(object_name="ORDERS").flash_cache == "KEEP"
        assert SysStat.objects.get(snapshot=snaps[1], name="physical read IO requests").value == 3600
        assert Residency.objects.filter(target=report_target).count() == 2
        assert SampleState.objects.filter(target=report_target).count() == 1
        report_target.refresh_from_db()
        assert report_target.capabilities["pack_access"] == "DIAGNOSTIC+TUNING"

    def test_it_imports_a_rac_extract_zip(self, report_target):
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for path in (EXTRACTS / "rac").iterdir():
                archive.write(path, f"tierscope_RACDB/{path.name}")
        buffer.seek(0)

        run = extract_import(target=report_target, path_or_zip=buffer)

        assert run.status == CollectionRun.Status.SUCCEEDED
        snaps = Snapshot.objects.filter(target=report_target, kind="extract")
        assert sorted(snaps.values_list("instance_number", "snap_id")) == [(1, 201), (2, 201)]
        assert Residency.objects.filter(target=report_target).count() == 2
        assert SampleState.objects.filter(target=report_target).count() == 2
        report_target.refresh_from_db()
        assert report_target.capabilities["instances"] == [1, 2]

    def test_it_adds_nothing_when_the_same_extract_is_imported_again(self, report_target):
        extract_import(target=report_target, path_or_zip=EXTRACTS / "single")
        before = _counts(report_target)
        before.pop("residency")  # residency is a per-collection reading, stored once per collected_at

        run = extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        after = _counts(report_target)
        after.pop("residency")
        assert run.snapshots_added == 0
        assert after == before
        assert Residency.objects.filter(target=report_target).count() == 2

    def test_it_leaves_no_rows_for_an_extract_with_a_bad_line(self, report_target, tmp_path):
        import shutil

        directory = tmp_path / "bad"
        shutil.copytree(EXTRACTS / "single", directory)
        with (directory / "seg_stat.csv").open("a", encoding="utf-8") as handle:
            handle.write('"1","103","APP","X","","TABLE","USERS","1","1","many"\n')

        with pytest.raises(ImportRefused) as caught:
            extract_import(target=report_target, path_or_zip=directory)

        assert str(caught.value).startswith("seg_stat.csv, line 6")
        assert _counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_refuses_an_extract_of_another_database(self, report_target):
        report_import(target=report_target, data=_sample(HTML_11G), filename=HTML_11G)
        before = _counts(report_target)

        with pytest.raises(ImportRefused, match="DBID 1234567890"):
            extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        assert _counts(report_target) == before


@pytest.mark.django_db
class ImportCommandTests:
    def test_it_imports_a_report_from_the_command_line(self, report_target, tmp_path):
        sizes = tmp_path / "segments.csv"
        sizes.write_bytes(sizes_csv(("IDC_U_UNIAUTH", "T_ONLINE_USER", "", "TABLE", "TS_UNIAUTH", 1024**3)))
        out = io.StringIO()

        call_command("import_awr_report", str(SAMPLES / HTML_11G), "--target", "xydb", "--sizes", str(sizes),
                     stdout=out)

        assert "1 snapshot(s), 39 rows added" in out.getvalue()
        assert Segment.objects.get(target=report_target, object_name="T_ONLINE_USER").size_bytes == 1024**3

    def test_it_imports_an_extract_from_the_command_line(self, report_target):
        out = io.StringIO()

        call_command("import_extract", str(EXTRACTS / "rac"), "--target", "xydb", stdout=out)
        call_command("import_extract", str(EXTRACTS / "rac"), "--target", "xydb", stdout=out)

        assert "2 snapshot(s)" in out.getvalue() and "nothing new" in out.getvalue()

    def test_it_names_the_bad_line_on_the_command_line(self, report_target, tmp_path):
        bad = tmp_path / "bad.txt"
        bad.write_text("hello\n")

        with pytest.raises(CommandError, match="bad.txt"):
            call_command("import_awr_report", str(bad), "--target", "xydb")

        assert _counts(report_target) == NOTHING

    def test_it_refuses_an_unknown_target(self, db):
        with pytest.raises(CommandError, match="add_target --name nope --mode report"):
            call_command("import_extract", str(EXTRACTS / "single"), "--target", "nope")


def _edited(name: str, old: bytes, new: bytes) -> bytes:
    data = _sample(name)
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
        assert _counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_stores_an_overflowed_figure_as_null_and_notes_it_on_the_run(self, report_target):
        data = _edited(TEXT_12C, b"     142581        1,406", b"     142581      #######")

        run = report_import(target=report_target, data=data, filename=TEXT_12C)

        # Stored as unknown (NULL), never 0; the figures printed beside it are kept.
        stat = SegmentStat.objects.get(snapshot__target=report_target, segment__object_name="DBPLUS_TAB4")
        assert (stat.physical_read_requests, stat.physical_reads_blocks) == (None, 1670)
        assert "DBPLUS_REP.DBPLUS_TAB4" in run.notes and "unknown" in run.notes and "at most 1,411" in run.notes

    def test_a_report_without_segment_sections_imports_with_a_visible_warning(self, report_target, admin_client):
        run = report_import(target=report_target, data=_sample(WITHOUT_SEGMENTS_HTML), filename=WITHOUT_SEGMENTS_HTML)

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
        run = report_import(target=report_target, data=_sample(SAME_TEXT), filename=SAME_TEXT)

        cut = Segment.objects.filter(target=report_target, name_truncated=True)
        assert cut.count() == 11
        assert cut.filter(object_name="WRH$_LATCH_MISSES_SU", subobject_name="80142923_0").exists()
        assert not Segment.objects.get(target=report_target, object_name="KOTAD$").name_truncated
        assert "11 segment names are cut" in run.notes

    def test_it_completes_cut_names_from_the_sizes_listing(self, report_target):
        from apps.targets.awr_report import parse_report

        twin = parse_report(_sample(SAME_HTML), filename=SAME_HTML)
        sizes = sizes_csv(*((s.owner, s.object_name, s.subobject_name, "TABLE", s.tablespace_name, 8192)
                             for s in twin.segments))

        run = report_import(target=report_target, data=_sample(SAME_TEXT), filename=SAME_TEXT, sizes=sizes)

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

        report_import(target=report_target, data=_sample(SAME_TEXT), filename=SAME_TEXT)

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
