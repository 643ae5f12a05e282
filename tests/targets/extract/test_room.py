"""The extract's room files: used space from tablespace_usage.csv, else free_space.csv; disk groups from
asm_diskgroups.csv; a refused statement's file (ORA-00942/01031) falls back with a note, never to 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from apps.targets.extract import ExtractError, read_extract

from .fixture_copies import copy_fixture

GIB = 1024**3
MIB = 1024**2

TABLESPACES = ('TABLESPACE_NAME,BLOCK_SIZE_BYTES,CONTENTS,STATUS,SIZE_BYTES,MAX_SIZE_BYTES,AUTOEXTENSIBLE_FILES\n'
               '"LOBS","8192","PERMANENT","ONLINE","104857600","104857600","0"\n'
               '"USERS","8192","PERMANENT","ONLINE","2147483648","34359721984","1"\n')
USAGE = ('TABLESPACE_NAME,USED_BLOCKS,MAX_SIZE_BLOCKS,USED_PERCENT\n'
         '"LOBS","8192","12800","64"\n"USERS","131072","4194302","3.125"\n')
FREE = 'TABLESPACE_NAME,FREE_BYTES,FREE_EXTENTS\n"LOBS","52428800","2"\n"USERS","1610612736","4"\n'
GROUPS = ('GROUP_NUMBER,NAME,STATE,REDUNDANCY,TOTAL_MB,FREE_MB,REQUIRED_MIRROR_FREE_MB,USABLE_FILE_MB,OFFLINE_DISKS,'
          'ALLOCATION_UNIT_BYTES,SECTOR_SIZE_BYTES,BLOCK_SIZE_BYTES,COMPATIBILITY,DATABASE_COMPATIBILITY\n'
          '"1","DATA","CONNECTED","NORMAL","1048576","307200","65536","120832","0","4194304","512","4096",'
          '"19.0.0.0.0","19.0.0.0.0"\n')
#: What SQL*Plus spools under WHENEVER SQLERROR CONTINUE when the user may not read the view.
REFUSED = ('{header}\nFROM dba_tablespace_usage_metrics m\n     *\nERROR at line 10:\n'
           'ORA-00942: table or view does not exist\n\n')


def _extract(tmp_path: Path, **files: str) -> Path:
    directory = copy_fixture(tmp_path)
    (directory / "tablespaces.csv").write_text(TABLESPACES, encoding="utf-8")
    for name, text in files.items():
        (directory / f"{name}.csv").write_text(text, encoding="utf-8")
    return directory


def _refused(text: str) -> str:
    return REFUSED.format(header=text.splitlines()[0])


class ExtractRoomTests:
    def test_it_takes_used_space_from_the_usage_metrics_in_blocks(self, tmp_path: Path) -> None:
        collection = read_extract(_extract(tmp_path, tablespace_usage=USAGE, free_space=FREE, asm_diskgroups=GROUPS))

        spaces = {space.tablespace_name: space for space in collection.tablespaces}
        assert (spaces["USERS"].used_bytes, spaces["LOBS"].used_bytes) == (131072 * 8192, 8192 * 8192)
        assert spaces["USERS"].max_size_bytes == 34359721984

    def test_it_reads_the_disk_groups(self, tmp_path: Path) -> None:
        [data] = read_extract(_extract(tmp_path, tablespace_usage=USAGE, free_space=FREE,
                                       asm_diskgroups=GROUPS)).disk_groups

        assert (data.name, data.redundancy, data.total_mb, data.free_mb, data.usable_file_mb) == (
            "DATA", "NORMAL", 1048576, 307200, 120832)
        assert data.usable_file_bytes == 120832 * MIB

    def test_it_falls_back_to_free_space_when_the_metrics_were_refused(self, tmp_path: Path) -> None:
        collection = read_extract(_extract(tmp_path, tablespace_usage=_refused(USAGE), free_space=FREE,
                                           asm_diskgroups=GROUPS))

        spaces = {space.tablespace_name: space for space in collection.tablespaces}
        assert spaces["USERS"].used_bytes == 2 * GIB - 1610612736
        assert spaces["LOBS"].used_bytes == 104857600 - 52428800
        [note] = [note for note in collection.notes if "DBA_TABLESPACE_USAGE_METRICS" in note]
        assert "ORA-00942" in note and "GRANT SELECT ON SYS.DBA_TABLESPACE_USAGE_METRICS" in note

    def test_it_keeps_used_space_unknown_when_both_views_were_refused(self, tmp_path: Path) -> None:
        collection = read_extract(_extract(tmp_path, tablespace_usage=_refused(USAGE), free_space=_refused(FREE),
                                           asm_diskgroups=GROUPS))

        assert [space.used_bytes for space in collection.tablespaces] == [None, None]
        assert [space.free_bytes for space in collection.tablespaces] == [None, None]
        assert any("Used space of LOBS, USERS not known" in note for note in collection.notes)

    def test_it_keeps_disk_groups_unknown_when_their_view_was_refused(self, tmp_path: Path) -> None:
        collection = read_extract(_extract(tmp_path, tablespace_usage=USAGE, free_space=FREE,
                                           asm_diskgroups=_refused(GROUPS)))

        assert collection.disk_groups == ()
        assert any("V$ASM_DISKGROUP_STAT not readable (ORA-00942)" in note and "SYS.V_$ASM_DISKGROUP_STAT" in note
                   for note in collection.notes)

    def test_it_still_fails_on_another_error_in_a_room_file(self, tmp_path: Path) -> None:
        broken = USAGE.splitlines()[0] + "\nORA-01652: unable to extend temp segment\n"

        with pytest.raises(ExtractError) as caught:
            read_extract(_extract(tmp_path, tablespace_usage=broken, free_space=FREE, asm_diskgroups=GROUPS))

        assert str(caught.value).startswith("tablespace_usage.csv, line 2")
