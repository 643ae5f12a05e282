"""The offline extract reader: CSV fixtures in, the row contract out; every bad line named."""

from __future__ import annotations

import datetime as dt
import io
import zipfile
from pathlib import Path

import pytest

from apps.targets.extract import FILES, ExtractError, ExtractLimits, read_extract, read_segments_csv
from apps.targets.extract.reader import RETIRED_COLUMNS
from apps.targets.rows import SegmentKey

from .fixture_copies import FIXTURES, copy_fixture, copy_without, refused, refused_line, zipped

UTC = dt.timezone.utc
ORDERS_P = SegmentKey("APP", "ORDERS", "P2024_05", "TABLE PARTITION")


def _seg_stat_line(*, snap_id: str = "102", read_requests: str = "3600") -> str:
    return (f'"1","{snap_id}","APP","ORDERS","P2024_05","TABLE PARTITION","USERS","76543","76544","{read_requests}",'
            '"720","4000","800","100","0","1200","90000","5000","2","1073741824"')


class SingleInstanceExtractTests:
    def test_it_reads_the_database_and_converts_server_time_to_utc(self) -> None:
        collection = read_extract(FIXTURES / "single")

        db = collection.database
        assert (db.dbid, db.db_name, db.release, db.is_rac, db.instances) == (1234567890, "PROD", "19.0.0.0.0",
                                                                              False, (1,))
        assert db.pack_access == "DIAGNOSTIC+TUNING"
        # Server local time is UTC+2 (SERVER_UTC_OFFSET_MIN / SNAP_TZ_OFFSET_MIN 120).
        first = collection.snapshots[0]
        assert (first.snap_id, first.begin_at, first.end_at) == (
            101, dt.datetime(2024, 5, 2, 8, tzinfo=UTC), dt.datetime(2024, 5, 2, 9, tzinfo=UTC))
        assert first.startup_at == dt.datetime(2024, 5, 1, 6, tzinfo=UTC)
        assert collection.collected_at == dt.datetime(2024, 5, 2, 11, 5, 0, 123000, tzinfo=UTC)

    def test_it_uses_the_server_offset_when_the_snapshot_offset_is_null(self) -> None:
        collection = read_extract(FIXTURES / "single")

        last = collection.snapshots[-1]
        assert last.snap_id == 103
        assert last.end_at == dt.datetime(2024, 5, 2, 11, tzinfo=UTC)

    def test_it_attaches_segment_stats_to_their_snapshot(self) -> None:
        collection = read_extract(FIXTURES / "single")

        by_snap = {snap.snap_id: snap for snap in collection.snapshots}
        assert by_snap[101].segment_stats == ()
        orders = next(stat for stat in by_snap[103].segment_stats if stat.key == ORDERS_P)
        assert (orders.physical_read_requests, orders.physical_write_requests) == (7200, 1440)
        assert (orders.obj_number, orders.dataobj_number, orders.tablespace_name) == (76543, 76544, "USERS")
        assert all(snap.top_n_only for snap in collection.snapshots)

    def test_it_keeps_null_counters_as_none(self) -> None:
        collection = read_extract(FIXTURES / "single")

        snap_102 = next(snap for snap in collection.snapshots if snap.snap_id == 102)
        index = next(stat for stat in snap_102.segment_stats if stat.key.object_name == "ORDERS_PK")
        assert index.optimized_physical_reads is None
        assert index.key.subobject_name == ""
        lob = next(stat for snap in collection.snapshots for stat in snap.segment_stats
                   if stat.key.object_name.startswith("SYS_LOB"))
        assert lob.space_allocated_bytes is None
        # DBA_HIST_SEG_STAT_OBJ says LOB; DBA_SEGMENTS says LOBSEGMENT: the live mapping applies.
        assert lob.key.object_type == "LOBSEGMENT"

    def test_it_turns_cumulative_awr_system_figures_into_deltas(self) -> None:
        collection = read_extract(FIXTURES / "single")

        by_snap = {snap.snap_id: snap for snap in collection.snapshots}
        # The first snapshot is only the baseline.
        assert by_snap[101].sysstats == () and by_snap[101].tablespace_io == ()
        assert [(s.name, s.value) for s in by_snap[102].sysstats] == [("physical read IO requests", 3600)]
        users = by_snap[103].tablespace_io[0]
        assert (users.tablespace_name, users.read_requests, users.write_requests, users.read_time_ms) == (
            "USERS", 300, 20, 150.0)

    def test_it_reads_segments_with_lob_parents_and_cache_hints(self) -> None:
        collection = read_extract(FIXTURES / "single")

        infos = {info.key.object_name: info for info in collection.segments}
        assert len(infos) == 4
        assert infos["ORDERS"].bytes == 1073741824 and infos["ORDERS"].flash_cache == "KEEP"
        assert infos["ORDERS"].partitioned_parent == "ORDERS"
        lob = infos["SYS_LOB0000076543C00004$$"]
        assert (lob.partitioned_parent, lob.lob_column) == ("DOCS", "BODY")

    def test_it_drops_residency_rows_without_a_data_object(self) -> None:
        collection = read_extract(FIXTURES / "single")

        assert {(r.dataobj_number, r.flash_blocks, r.cache_blocks) for r in collection.residency} == {
            (76544, 1000, 9000), (76570, 0, 1024)}

    def test_it_builds_one_cumulative_sample_named_through_the_segments(self) -> None:
        collection = read_extract(FIXTURES / "single")

        (sample,) = collection.samples
        assert sample.sysstat_totals == {"physical read IO requests": 900000, "flash cache inserts": 1234}
        assert sample.segment_totals[ORDERS_P]["physical_read_requests"] == 50000
        # OBJ# 99999 matches no current segment (dropped since): left out, as in the live source.
        assert len(sample.segment_totals) == 2
        assert sample.tablespace_totals["LOBS"] == (1000, 0, None)

    def test_it_reads_a_nopack_extract_without_pack_files(self, tmp_path: Path) -> None:
        directory = copy_without(tmp_path, "pack_sysstat.csv", "pack_filestat.csv")

        collection = read_extract(directory)

        assert all(snap.sysstats == () for snap in collection.snapshots)
        assert len(collection.snapshots) == 3
        assert "nopack" in collection.notes[0]


class RacExtractTests:
    def test_it_reads_both_instances(self) -> None:
        collection = read_extract(FIXTURES / "rac")

        assert collection.database.is_rac
        assert collection.database.instances == (1, 2)
        assert collection.database.block_size_bytes == 16384
        assert [(s.instance_number, s.snap_id) for s in collection.snapshots] == [(1, 201), (2, 201)]
        reads = {s.instance_number: s.segment_stats[0].physical_read_requests for s in collection.snapshots}
        assert reads == {1: 7200, 2: 3600}

    def test_it_keeps_each_instance_incarnation(self) -> None:
        collection = read_extract(FIXTURES / "rac")

        startups = {s.instance_number: s.startup_at for s in collection.samples}
        assert startups == {1: dt.datetime(2024, 4, 1, 6, tzinfo=UTC), 2: dt.datetime(2024, 4, 20, 7, 30, tzinfo=UTC)}
        assert {r.instance_number: r.flash_blocks for r in collection.residency} == {1: 200, 2: 0}
        totals = {s.instance_number: s.sysstat_totals["physical read IO requests"] for s in collection.samples}
        assert totals == {1: 500000, 2: 200000}


class ZipExtractTests:
    def test_it_reads_a_zip_with_the_files_in_a_folder(self, tmp_path: Path) -> None:
        archive = tmp_path / "prod.zip"
        archive.write_bytes(zipped(FIXTURES / "single", folder="tierscope_PROD/"))

        from_path = read_extract(archive)
        from_stream = read_extract(io.BytesIO(archive.read_bytes()))

        assert from_path == read_extract(FIXTURES / "single")
        assert from_stream == from_path

    def test_it_refuses_a_file_that_is_not_a_zip(self, tmp_path: Path) -> None:
        path = tmp_path / "notes.zip"
        path.write_bytes(b"hello")

        error = refused(path)

        assert "not a readable .zip" in str(error)

    def test_it_refuses_a_zip_holding_two_extracts(self, tmp_path: Path) -> None:
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as archive:
            for folder in ("a/", "b/"):
                for path in (FIXTURES / "single").iterdir():
                    archive.write(path, folder + path.name)

        error = refused(io.BytesIO(buffer.getvalue()))

        assert "more than once" in str(error) and "(a/" in str(error) and ", b/" in str(error)

    def test_it_refuses_a_zip_that_unpacks_past_the_bound(self) -> None:
        data = zipped(FIXTURES / "single")

        with pytest.raises(ExtractError, match="unpacks? to"):
            read_extract(io.BytesIO(data), limits=ExtractLimits(unpacked_bytes=1000))


class BadExtractTests:
    def test_it_names_every_missing_file(self, tmp_path: Path) -> None:
        directory = copy_without(tmp_path, "segments.csv", "residency.csv")

        error = refused(directory)

        assert "missing residency.csv, segments.csv" in str(error)

    def test_it_refuses_half_of_the_pack_files(self, tmp_path: Path) -> None:
        directory = copy_without(tmp_path, "pack_filestat.csv")

        assert "not pack_filestat.csv" in str(refused(directory))

    def test_it_refuses_a_wrong_header_naming_the_missing_columns(self, tmp_path: Path) -> None:
        error = refused_line(tmp_path, "snapshots.csv", 1, "DBID,INSTANCE_NUMBER,SNAP,STARTUP_TIME")

        assert (error.filename, error.line) == ("snapshots.csv", 1)
        assert "SNAP_ID" in error.problem and "END_INTERVAL_TIME" in error.problem

    def test_it_names_file_line_and_column_of_a_bad_number(self, tmp_path: Path) -> None:
        error = refused_line(tmp_path, "seg_stat.csv", 3, _seg_stat_line(read_requests="12x"))

        assert str(error) == ("seg_stat.csv, line 3, column PHYSICAL_READ_REQUESTS: '12x' is not a whole number")

    @pytest.mark.parametrize(("filename", "number", "text", "column"), [
        pytest.param("instances.csv", 2, '"1","1","PROD","dbhost1","02-MAY-24","OPEN","2024-05-02T11:05:00.123"',
                     "STARTUP_TIME", id="a bad date"),
        pytest.param("seg_stat.csv", 2, _seg_stat_line(snap_id="99"), "SNAP_ID",
                     id="history rows without their snapshot"),
        pytest.param("snapshots.csv", 4, '"42","1","103","2024-05-01T08:00:00","2024-05-02T12:00:00.000",'
                                         '"2024-05-02T13:00:00.000","","",""', "DBID",
                     id="a snapshot of another database"),
    ])
    def test_it_names_file_line_and_column_of_a_refused_line(
        self, tmp_path: Path, filename: str, number: int, text: str, column: str
    ) -> None:
        error = refused_line(tmp_path, filename, number, text)

        assert (error.filename, error.line, error.column) == (filename, number, column)

    def test_it_refuses_null_in_a_required_column(self, tmp_path: Path) -> None:
        error = refused_line(tmp_path, "segments.csv", 3,
                             '"APP","ORDERS_PK","","INDEX","USERS","","32768","DEFAULT","DEFAULT","DEFAULT","76550",'
                             '"76550","","",""')

        assert (error.filename, error.line, error.column) == ("segments.csv", 3, "BYTES")
        assert "NULL" in error.problem

    def test_it_refuses_a_line_with_the_wrong_number_of_values(self, tmp_path: Path) -> None:
        error = refused_line(tmp_path, "parameters.csv", 3, '"control_management_pack_access","A","B"')

        assert (error.filename, error.line) == ("parameters.csv", 3)
        assert "3 values, the header has 2" in error.problem

    def test_it_reports_a_statement_that_failed_on_the_database(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        with (directory / "residency.csv").open("a", encoding="utf-8") as handle:
            handle.write("ORA-00942: table or view does not exist\n")

        error = refused(directory)

        assert (error.filename, error.line) == ("residency.csv", 5)
        assert "ORA-00942" in error.problem

    def test_it_refuses_an_empty_file(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        (directory / "instances.csv").write_bytes(b"")

        assert "instances.csv: is empty" in str(refused(directory))

    def test_it_refuses_text_that_is_not_utf8(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        with (directory / "segments.csv").open("ab") as handle:
            handle.write('"APP","CAFÉ","","TABLE","USERS","1","1","","","","1","1","","",""\n'.encode("latin-1"))

        error = refused(directory)

        assert (error.filename, error.line) == ("segments.csv", 6)
        assert "UTF-8" in error.problem

    def test_it_refuses_a_release_before_11_2(self, tmp_path: Path) -> None:
        error = refused_line(tmp_path, "instance.csv", 2,
                             '"1","PROD","dbhost1","10.2.0.5.0","2024-05-01T08:00:00","1234567890","PROD","120"')

        assert (error.filename, error.column) == ("instance.csv", "VERSION")

    def test_it_refuses_a_path_that_does_not_exist(self, tmp_path: Path) -> None:
        assert "no such directory" in str(refused(tmp_path / "nowhere"))


class SegmentsCsvTests:
    def test_it_reads_a_sizes_file_alone(self) -> None:
        infos = read_segments_csv((FIXTURES / "single" / "segments.csv").read_bytes())

        assert [info.bytes for info in infos] == [1073741824, 268435456, 67108864, 8388608]

    def test_it_refuses_a_name_of_more_than_128_bytes(self) -> None:
        # 100 characters fit the 128-character columns but are 200 bytes: longer than an Oracle name
        data = (FIXTURES / "single" / "segments.csv").read_bytes().replace(b'"ORDERS_PK"', '"{}"'.format("É" * 100).encode())

        with pytest.raises(ExtractError) as caught:
            read_segments_csv(data, filename="sizes.csv")

        assert str(caught.value).startswith("sizes.csv, line 3, column SEGMENT_NAME: ")
        assert "200 bytes" in str(caught.value) and "128 bytes" in str(caught.value)

    def test_it_names_the_uploaded_file_in_errors(self) -> None:
        data = (FIXTURES / "single" / "segments.csv").read_bytes() + b'"APP","X","","TABLE","USERS","big"\n'

        with pytest.raises(ExtractError) as caught:
            read_segments_csv(data, filename="prod_sizes.csv")

        assert str(caught.value).startswith("prod_sizes.csv, line 6")

    def test_it_declares_every_column_of_the_extract_script(self) -> None:
        script = (Path(__file__).resolve().parents[3] / "scripts" / "oracle" / "tierscope_extract.sql").read_text()

        for name, columns in FILES.items():
            # An older extract's columns the script no longer writes are read, not declared.
            header = ",".join(column.name for column in columns if column.name not in RETIRED_COLUMNS.get(name, ()))
            assert f"{name}  (from" in script
            assert f"--     {header}\n" in script, name
