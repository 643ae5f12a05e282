"""The extract's partition files (part_tables.csv, bounds, subpartitions.csv): subpartitions named with their
partition and ordered by bound; an older extract without the files imports with them unknown."""

from __future__ import annotations

from pathlib import Path

from apps.targets.extract import read_extract

from .fixture_copies import copy_fixture

_SUBPARTITION_ROW = ('"APP","ORDERS","P2024_05_H1","TABLE SUBPARTITION","USERS","1048576","128","DEFAULT","DEFAULT",'
                     '"DEFAULT","76601","76601","","",""')
_NOVEMBER = "TO_DATE(' 2024-06-01 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')"


def _csv(*cells: str) -> str:
    return ",".join('"' + cell.replace('"', '""') + '"' for cell in cells)


def _with_partition_files(directory: Path) -> None:
    with (directory / "segments.csv").open("a", encoding="utf-8") as segments:
        segments.write(_SUBPARTITION_ROW + "\n")
    files = {
        "part_tables.csv": ("OWNER,OBJECT_NAME,OBJECT_KIND,PARTITIONING_TYPE,SUBPARTITIONING_TYPE,PARTITION_INTERVAL",
                            [_csv("APP", "ORDERS", "TABLE", "RANGE", "HASH", "")]),
        "part_key_columns.csv": ("OWNER,OBJECT_NAME,OBJECT_KIND,KEY_LEVEL,COLUMN_NAME,COLUMN_POSITION",
                                 [_csv("APP", "ORDERS", "TABLE", "PARTITION", "ORDER_DATE", "1"),
                                  _csv("APP", "ORDERS", "TABLE", "SUBPARTITION", "ORDER_ID", "1")]),
        "tab_partition_bounds.csv": ("OWNER,OBJECT_NAME,PARTITION_NAME,PARTITION_POSITION,HIGH_VALUE_LENGTH,HIGH_VALUE",
                                     [_csv("APP", "ORDERS", "P2024_05", "2", str(len(_NOVEMBER)), _NOVEMBER),
                                      _csv("APP", "ORDERS", "P_MAX", "1", "8", "MAXVALUE")]),
        "ind_partition_bounds.csv": ("OWNER,OBJECT_NAME,PARTITION_NAME,PARTITION_POSITION,HIGH_VALUE_LENGTH,HIGH_VALUE",
                                     []),
        "subpartitions.csv": ("OWNER,OBJECT_NAME,SEGMENT_TYPE,SUBPARTITION_NAME,PARTITION_NAME,TABLE_SUBPARTITION_NAME",
                              [_csv("APP", "ORDERS", "TABLE SUBPARTITION", "P2024_05_H1", "P2024_05", "P2024_05_H1")]),
    }
    for name, (header, rows) in files.items():
        (directory / name).write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")


def _subpartition(directory: Path):
    return next(s for s in read_extract(directory).segments if s.key.object_type == "TABLE SUBPARTITION")


class PartitionFilesTests:
    def test_it_names_a_subpartitions_partition_and_orders_it_by_bound(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        _with_partition_files(directory)

        sub = _subpartition(directory)

        assert sub.parent_partition == "P2024_05"
        assert sub.partitioning == "RANGE(ORDER_DATE)-HASH(ORDER_ID)"
        assert sub.partition_bound == _NOVEMBER  # commas and quotes of the LONG read back whole
        assert sub.partition_order == 1  # before MAXVALUE, though its PARTITION_POSITION is 2

    def test_an_older_extract_without_the_files_imports_with_them_unknown(self, tmp_path: Path) -> None:
        directory = copy_fixture(tmp_path)
        with (directory / "segments.csv").open("a", encoding="utf-8") as segments:
            segments.write(_SUBPARTITION_ROW + "\n")

        sub = _subpartition(directory)

        assert (sub.parent_partition, sub.partitioning, sub.partition_order) == (None, None, None)
