"""The extract's datafiles.csv: the storage map's files read when there; an older extract without it still imports."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from apps.targets.extract import read_extract

from .fixture_copies import FIXTURES, copy_fixture, copy_without, refused_line, zipped

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
        collection = read_extract(copy_without(tmp_path, "datafiles.csv"))

        assert collection.datafiles == ()
        assert len(collection.snapshots) == 3
        assert collection.tablespaces  # the rest of the extract is read as before

    def test_it_reads_the_file_from_a_zip(self, tmp_path: Path) -> None:
        archive = tmp_path / "extract.zip"
        archive.write_bytes(zipped(copy_fixture(tmp_path), folder="tierscope_PROD/"))

        assert len(read_extract(archive).datafiles) == 4

    @pytest.mark.parametrize(("number", "text", "message"), [
        pytest.param(4, '"LOBS","five","/u02/oradata/PROD/lobs01.dbf","1","NO","0","DATA"',
                     r"^datafiles.csv, line 4.*FILE_ID", id="a bad file id"),
        pytest.param(4, '"LOBS","4","/u02/oradata/PROD/lobs01.dbf","1","NO","0","DATA"',
                     r"^datafiles.csv, line 4.*FILE_ID.*data file 4 is listed twice", id="a file listed twice"),
        pytest.param(5, '"TEMP","1","+DATA/PROD/TEMPFILE/t","1","NO","0","REDO"',
                     r"^datafiles.csv, line 5.*FILE_TYPE", id="an unknown file type"),
        pytest.param(2, '"SYSTEM","1","","1","NO","0","DATA"',
                     r"^datafiles.csv, line 2.*FILE_NAME", id="a file without a name"),
        pytest.param(1, "TABLESPACE_NAME,FILE_ID", r"^datafiles.csv, line 1.*FILE_NAME", id="a header of another file"),
    ])
    def test_it_refuses_a_bad_line_naming_file_line_and_column(
        self, tmp_path: Path, number: int, text: str, message: str
    ) -> None:
        assert re.search(message, str(refused_line(tmp_path, "datafiles.csv", number, text)))
