"""The extract's tablespaces.csv: room per tablespace read when there, an older extract without it still imports."""

from __future__ import annotations

from pathlib import Path

from apps.targets.extract import read_extract

from .fixture_copies import FIXTURES, copy_fixture, copy_without, refused_line, replace_line, zipped

GIB = 1024**3


class TablespaceFileTests:
    def test_it_reads_the_room_of_each_tablespace(self) -> None:
        spaces = {space.tablespace_name: space for space in read_extract(FIXTURES / "single").tablespaces}

        assert list(spaces) == ["LOBS", "USERS"]
        users = spaces["USERS"]
        assert (users.size_bytes, users.used_bytes, users.max_size_bytes) == (2 * GIB, 1350565888, 34359721984)
        assert users.free_bytes == 2 * GIB - 1350565888
        assert users.autoextensible is True
        assert spaces["LOBS"].autoextensible is False

    def test_it_imports_an_older_extract_without_the_file(self, tmp_path: Path) -> None:
        collection = read_extract(copy_without(tmp_path, "tablespaces.csv"))

        assert collection.tablespaces == ()
        assert len(collection.snapshots) == 3

    def test_it_reads_the_file_from_a_zip(self, tmp_path: Path) -> None:
        data = zipped(copy_fixture(tmp_path), folder="tierscope_PROD/")
        archive = tmp_path / "extract.zip"
        archive.write_bytes(data)

        assert [space.tablespace_name for space in read_extract(archive).tablespaces] == ["LOBS", "USERS"]

    def test_it_names_file_line_and_column_of_a_bad_size(self, tmp_path: Path) -> None:
        message = str(refused_line(tmp_path, "tablespaces.csv", 3,
                                   '"USERS","8192","PERMANENT","2 GB","34359721984","1","1350565888"'))

        assert message.startswith("tablespaces.csv, line 3")
        assert "SIZE_BYTES" in message

    def test_it_keeps_a_missing_figure_unknown(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        replace_line(directory / "tablespaces.csv", 2, '"LOBS","8192","PERMANENT","104857600","","0",""')

        lobs = next(space for space in read_extract(directory).tablespaces if space.tablespace_name == "LOBS")

        assert (lobs.size_bytes, lobs.used_bytes, lobs.max_size_bytes, lobs.free_bytes) == (104857600, None, None, None)
