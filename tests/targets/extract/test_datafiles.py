"""The extract's datafiles.csv: the storage map's files read when there; an older extract without it still imports."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.targets.extract import ExtractError, read_extract

from .fixture_copies import FIXTURES, copy_fixture, replace_line, zipped

GIB = 1024**3


class DatafilesFileTests:
    def test_it_reads_data_and_temp_files(self) -> None:
        files = read_extract(FIXTURES / "single").datafiles

        assert [(f.file_type, f.file_id, f.tablespace_name) for f in files] == [
            ("DATA", 1, "SYSTEM"), ("DATA", 4, "USERS"), ("DATA", 5, "LOBS"), ("TEMP", 1, "TEMP")]
        users = files[1]
        assert (users.file_name, users.size_bytes, users.autoextensible) == (
            "+DATA/PROD/DATAFILE/users.259.1150000001", 2 * GIB, True)

    def test_it_imports_an_older_extract_without_the_file(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        (directory / "datafiles.csv").unlink()

        collection = read_extract(directory)

        assert collection.datafiles == ()
        assert len(collection.snapshots) == 3
        assert collection.tablespaces  # the rest of the extract is read as before

    def test_it_reads_the_file_from_a_zip(self, tmp_path: Path) -> None:
        archive = tmp_path / "extract.zip"
        archive.write_bytes(zipped(copy_fixture(tmp_path), folder="tierscope_PROD/"))

        assert len(read_extract(archive).datafiles) == 4

    def test_it_names_file_line_and_column_of_a_bad_file_id(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "datafiles.csv", 4, '"LOBS","five","/u02/oradata/PROD/lobs01.dbf","1","NO","0","DATA"')

        with pytest.raises(ExtractError) as caught:
            read_extract(directory)

        message = str(caught.value)
        assert message.startswith("datafiles.csv, line 4")
        assert "FILE_ID" in message
        assert "\n" not in message

    def test_it_refuses_a_file_listed_twice(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "datafiles.csv", 4, '"LOBS","4","/u02/oradata/PROD/lobs01.dbf","1","NO","0","DATA"')

        with pytest.raises(ExtractError, match=r"^datafiles.csv, line 4.*FILE_ID.*data file 4 is listed twice"):
            read_extract(directory)

    def test_it_refuses_an_unknown_file_type(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "datafiles.csv", 5, '"TEMP","1","+DATA/PROD/TEMPFILE/t","1","NO","0","REDO"')

        with pytest.raises(ExtractError, match=r"^datafiles.csv, line 5.*FILE_TYPE"):
            read_extract(directory)

    def test_it_refuses_a_file_without_a_name(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "datafiles.csv", 2, '"SYSTEM","1","","1","NO","0","DATA"')

        with pytest.raises(ExtractError, match=r"^datafiles.csv, line 2.*FILE_NAME"):
            read_extract(directory)

    def test_it_refuses_a_header_of_another_file(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "datafiles.csv", 1, "TABLESPACE_NAME,FILE_ID")

        with pytest.raises(ExtractError, match=r"^datafiles.csv, line 1.*FILE_NAME"):
            read_extract(directory)
