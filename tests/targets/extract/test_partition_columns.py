"""segments.csv's partition columns (PARTITION_POSITION, PARTITION_INTERVAL): read when there, optional."""

from __future__ import annotations

import unittest

from apps.targets.extract.archive import ExtractError
from apps.targets.extract.reader import read_segments_csv

_OLD_HEADER = ("OWNER,SEGMENT_NAME,PARTITION_NAME,SEGMENT_TYPE,TABLESPACE_NAME,BYTES,BLOCKS,BUFFER_POOL,FLASH_CACHE,"
               "CELL_FLASH_CACHE,OBJ_NUMBER,DATAOBJ_NUMBER,LOB_TABLE_NAME,LOB_COLUMN_NAME,LOB_TABLE_PARTITION_NAME")
_ROW = '"APP","ORDERS","SYS_P2041","TABLE PARTITION","USERS","1048576","128","DEFAULT","DEFAULT","DEFAULT","7","7","","",""'


class PartitionColumnsTests(unittest.TestCase):
    def test_it_reads_a_partitions_position_and_whether_interval_partitioning_made_it(self) -> None:
        data = (f"{_OLD_HEADER},PARTITION_POSITION,PARTITION_INTERVAL\n{_ROW},\"14\",\"YES\"\n"
                f'"APP","ORDERS_PK","","INDEX","USERS","65536","8","DEFAULT","DEFAULT","DEFAULT","8","8","","","","",""\n')

        partition, index = read_segments_csv(data.encode())

        self.assertEqual((partition.partition_position, partition.partition_interval), (14, True))
        self.assertEqual((index.partition_position, index.partition_interval), (None, None))

    def test_an_older_listing_without_them_still_reads_with_them_unknown(self) -> None:
        (partition,) = read_segments_csv(f"{_OLD_HEADER}\n{_ROW}\n".encode())

        self.assertEqual((partition.partition_position, partition.partition_interval), (None, None))
        self.assertEqual(partition.bytes, 1048576)

    def test_a_position_that_is_no_number_is_refused_with_file_line_and_column(self) -> None:
        data = f"{_OLD_HEADER},PARTITION_POSITION,PARTITION_INTERVAL\n{_ROW},\"first\",\"NO\"\n"

        with self.assertRaisesRegex(ExtractError, r"segments\.csv.*line 2.*PARTITION_POSITION.*'first' is not a whole"):
            read_segments_csv(data.encode())
