"""apps.tiering.ddl.lifecycle: where an interval-partitioned table creates its next partitions."""

from __future__ import annotations

import unittest

from apps.tiering.ddl import DdlError, DdlRequest
from apps.tiering.ddl.lifecycle import interval_default_ddl


def _request(object_type: str, name: str = "ORDERS") -> DdlRequest:
    return DdlRequest(owner="SOE", object_name=name, object_type=object_type, release="19.0.0.0.0",
                      subobject_name="SYS_P2041", target_tablespace="FLASH_DATA")


class IntervalDefaultDdlTests(unittest.TestCase):
    def test_it_sets_the_store_in_list_and_the_default_tablespace_of_a_table(self) -> None:
        script = interval_default_ddl(_request("TABLE PARTITION"))

        self.assertEqual(script.statements, (
            'ALTER TABLE "SOE"."ORDERS" SET STORE IN ("FLASH_DATA");',
            'ALTER TABLE "SOE"."ORDERS" MODIFY DEFAULT ATTRIBUTES TABLESPACE "FLASH_DATA";',
        ))
        self.assertIn("existing ones stay where they are", script.comments[0])

    def test_it_sets_the_default_tablespace_of_a_local_index(self) -> None:
        script = interval_default_ddl(_request("INDEX PARTITION", "ORDERS_PK"))

        self.assertEqual(script.statements,
                         ('ALTER INDEX "SOE"."ORDERS_PK" MODIFY DEFAULT ATTRIBUTES TABLESPACE "FLASH_DATA";',))

    def test_it_needs_a_tablespace(self) -> None:
        request = DdlRequest(owner="SOE", object_name="ORDERS", object_type="TABLE PARTITION", release="19.0",
                             subobject_name="SYS_P2041")

        with self.assertRaisesRegex(DdlError, "target_tablespace is needed"):
            interval_default_ddl(request)
