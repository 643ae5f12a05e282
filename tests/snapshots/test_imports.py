"""AWR report and offline extract imports, against the real test database and real AWR reports."""

from __future__ import annotations

import datetime as dt
import io
import zipfile

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
from apps.tiering.models import Recommendation
from tests.snapshots.import_files import EXTRACTS, SAME_HTML, SAME_TEXT, SAMPLES, sample, sizes_csv
from tests.snapshots.stored_counts import NOTHING, stored_counts
from tests.targets.awr_report.samples import HTML_11G, TEXT_12C

RAC_GLOBAL = "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html"
UTC = dt.timezone.utc


@pytest.mark.django_db
class ReportImportTests:
    def test_it_imports_a_single_instance_html_report(self, report_target):
        run = report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)

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
        run = report_import(target=report_target, data=sample(TEXT_12C), filename=TEXT_12C)

        assert run.status == CollectionRun.Status.SUCCEEDED
        snap = Snapshot.objects.get(target=report_target)
        assert (snap.dbid, snap.snap_id) == (1135854311, 2669)
        assert SegmentStat.objects.filter(snapshot=snap).count() == 23
        stat = SegmentStat.objects.get(snapshot=snap, segment__object_name="DBPLUS_TAB4")
        assert (stat.physical_read_requests, stat.physical_reads_blocks) == (1406, 1670)

    def test_it_imports_a_global_rac_report_as_instance_zero(self, report_target):
        run = report_import(target=report_target, data=sample(RAC_GLOBAL), filename=RAC_GLOBAL)

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
        report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)
        before = stored_counts(report_target)

        run = report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)

        assert run.status == CollectionRun.Status.SUCCEEDED
        assert (run.snapshots_added, run.rows_added) == (0, 0)
        assert stored_counts(report_target) == before

    def test_it_adds_nothing_for_the_text_form_of_an_imported_html_report(self, report_target):
        report_import(target=report_target, data=sample(SAME_HTML), filename=SAME_HTML)
        before = stored_counts(report_target)

        run = report_import(target=report_target, data=sample(SAME_TEXT), filename=SAME_TEXT)

        assert run.snapshots_added == 0
        # The text form prints truncated names: none of them may turn into a new segment.
        assert stored_counts(report_target) == before
        assert before["snapshots"] == 1

    def test_it_refuses_a_report_of_another_database(self, report_target):
        report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)
        before = stored_counts(report_target)

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=sample(TEXT_12C), filename=TEXT_12C)

        assert "DBID 1135854311" in str(caught.value) and "DBID 1932768254" in str(caught.value)
        assert stored_counts(report_target) == before

    def test_it_refuses_a_report_whose_dbid_differs_from_a_live_target(self, demo_target):
        demo_target.capabilities = {"dbid": 42, "db_name": "DEMO"}
        demo_target.save()

        with pytest.raises(ImportRefused, match="DBID 42"):
            report_import(target=demo_target, data=sample(HTML_11G), filename=HTML_11G)

        assert Snapshot.objects.filter(target=demo_target).count() == 0

    def test_it_takes_sizes_from_a_companion_segments_listing(self, report_target):
        sizes = sizes_csv(
            ("IDC_U_UNIAUTH", "T_ONLINE_USER", "", "TABLE", "TS_UNIAUTH", 5 * 1024**3),
            ("IDC_U_UNIAUTH", "NOT_IN_THE_REPORT", "", "TABLE", "TS_UNIAUTH", 1024**3),
        )

        report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G, sizes=sizes)

        segments = Segment.objects.filter(target=report_target)
        assert segments.get(object_name="T_ONLINE_USER").size_bytes == 5 * 1024**3
        # Segments the report does not list are not invented; the rest stay "size unknown".
        assert not segments.filter(object_name="NOT_IN_THE_REPORT").exists()
        assert segments.count() == 22
        assert segments.filter(size_bytes__isnull=True).count() == 21

    def test_it_refuses_a_bad_sizes_file_naming_its_line(self, report_target):
        sizes = sizes_csv(("A", "B", "", "TABLE", "T", 1)) + b'"A","C","","TABLE","T","lots","1","","","","","","","",""\n'

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G, sizes=sizes,
                          sizes_filename="sizes.csv")

        assert str(caught.value) == "sizes.csv, line 3, column BYTES: 'lots' is not a whole number"
        assert stored_counts(report_target) == NOTHING

    def test_it_leaves_no_rows_for_a_truncated_report(self, report_target):
        data = sample(HTML_11G)

        with pytest.raises(ImportRefused) as caught:
            report_import(target=report_target, data=data[: len(data) // 3], filename=HTML_11G)

        assert HTML_11G in str(caught.value)
        assert stored_counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_leaves_no_rows_for_a_corrupt_file(self, report_target):
        with pytest.raises(ImportRefused):
            report_import(target=report_target, data=bytes(range(256)) * 100, filename="awr.html")

        assert stored_counts(report_target) == NOTHING

    def test_it_refuses_an_oversized_file_before_parsing(self, report_target, settings):
        from apps.core.config import get_config

        get_config.cache_clear()
        settings.TIERSCOPE = {"MAX_UPLOAD_BYTES": 1000}
        try:
            with pytest.raises(ImportRefused, match="more than the 1000 bytes allowed"):
                report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)
        finally:
            get_config.cache_clear()

        assert stored_counts(report_target) == NOTHING

    def test_it_refuses_a_file_over_the_parser_limit(self, report_target):
        with pytest.raises(ImportRefused):
            report_import(target=report_target, data=b" " * (MAX_REPORT_BYTES + 1), filename="big.html")

        assert stored_counts(report_target) == NOTHING

    def test_it_refreshes_recommendations_for_a_recent_report(self, report_target, seed_tiers,
                                                              django_capture_on_commit_callbacks):
        sizes = sizes_csv(("IDC_U_UNIAUTH", "T_ONLINE_USER", "", "TABLE", "TS_UNIAUTH", 5 * 1024**3))

        with time_machine.travel(dt.datetime(2023, 12, 12, 19, 0, tzinfo=UTC), tick=False), \
                django_capture_on_commit_callbacks(execute=True):
            report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G, sizes=sizes)

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
        before = stored_counts(report_target)
        before.pop("residency")  # residency is a per-collection reading, stored once per collected_at

        run = extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        after = stored_counts(report_target)
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
        assert stored_counts(report_target) == NOTHING
        assert not CollectionRun.objects.filter(target=report_target).exists()

    def test_it_refuses_an_extract_of_another_database(self, report_target):
        report_import(target=report_target, data=sample(HTML_11G), filename=HTML_11G)
        before = stored_counts(report_target)

        with pytest.raises(ImportRefused, match="DBID 1234567890"):
            extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        assert stored_counts(report_target) == before


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

        assert stored_counts(report_target) == NOTHING

    def test_it_refuses_an_unknown_target(self, db):
        with pytest.raises(CommandError, match="add_target --name nope --mode report"):
            call_command("import_extract", str(EXTRACTS / "single"), "--target", "nope")
