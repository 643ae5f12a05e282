"""Multitenant reports: each segment row's PDB is its container, and two PDBs' segments never merge.

A CDB-level report prints a "PDB Name" column in its "Segments by" tables; the importer used to ignore it, so
the same owner.object in three PDBs came out as one segment with the three PDBs' figures summed.
"""

from __future__ import annotations

import unittest

from apps.targets.awr_report import AwrSegment, parse_report
from apps.targets.awr_report.assembly import merge_segments
from apps.targets.awr_report.model import SegmentFigure
from tests.targets.awr_report.samples import sample_bytes

CDB_19C = "pcambell__awrrptanalyzor__awrrpt__19c_rac__awrrpt_1_18175_18176.html"
CDB_19C_XYDB = "pcambell__awrrptanalyzor__awrrpt__19c_rac__awr_xydb_1_20230217_8_9.html"
CDB_12C_EXADATA = "Azure__Oracle-Workloads-for-Azure__levelup-oracle-on-iaas__lab1__awr__AWR_DBS.html"
TEXT_11G = "1newstar__awr2csv__sample__awr_11204_1.txt"
NON_CDB = "sarthi2020__AWR-reports__awr_rpt_1.html"


def _named(segments, object_name: str) -> dict[str, AwrSegment]:
    return {s.container: s for s in segments if s.object_name == object_name}


class ContainerColumnTests(unittest.TestCase):
    def assert_one_in(self, report, object_name: str, container: str, read_requests: int) -> None:
        """``object_name`` is one segment of ``report``, in ``container``, with ``read_requests`` read requests."""
        (segment,) = _named(report.segments, object_name).values()
        self.assertEqual((segment.container, segment.stats["physical_read_requests"]), (container, read_requests))

    def test_each_segment_carries_the_pdb_its_row_names(self) -> None:
        # Segments by Physical Read Requests of the 19c CDB report: 56 requests in CDB$ROOT, 1 in DATAASSETS
        report = parse_report(sample_bytes(CDB_19C), filename=CDB_19C)

        self.assert_one_in(report, "SYS_TEMP_0FD9D9844_2E45E087", "CDB$ROOT", 56)
        self.assert_one_in(report, "SYS_C008671", "DATAASSETS", 1)
        self.assertEqual(report.to_json_dict()["segments"][0]["container"], report.segments[0].container)

    def test_it_reads_the_pdb_of_every_row_of_another_cdb_report(self) -> None:
        report = parse_report(sample_bytes(CDB_19C_XYDB), filename=CDB_19C_XYDB)

        self.assert_one_in(report, "SYS_LOB0000115263C00005$$", "EAMSPDB", 25730)
        self.assert_one_in(report, "nr_out_id", "LPTMJPDB", 200)
        self.assertTrue(all(segment.container for segment in report.segments))

    def test_a_report_without_a_pdb_column_gives_no_container(self) -> None:
        report = parse_report(sample_bytes(NON_CDB), filename=NON_CDB)

        self.assertTrue(report.segments)
        self.assertEqual({segment.container for segment in report.segments}, {""})

    def test_the_same_segment_name_in_two_pdbs_stays_two_segments_with_their_own_figures(self) -> None:
        # The CDB report with its DATAASSETS row (1 read request) renamed to the CDB$ROOT row's segment (56)
        document = sample_bytes(CDB_19C).decode()
        start = document.index("Segments by Physical Read Requests</h3>")
        row = ("<td class='awrc'>IDC_DATA_ASSETS</td><td class='awrc'>IDC_DATA_ASSETS</td>\n"
               "<td scope=\"row\" class='awrc'>SYS_C008671</td><td class='awrc'>&#160;</td><td class='awrc'>INDEX</td>")
        at = document.index(row, start)
        renamed = ("<td class='awrc'>SYS</td><td class='awrc'>TEMP</td>\n<td scope=\"row\" class='awrc'>"
                   "SYS_TEMP_0FD9D9844_2E45E087</td><td class='awrc'>&#160;</td><td class='awrc'>TABLE</td>")
        data = document[:at] + renamed + document[at + len(row):]

        report = parse_report(data, filename=CDB_19C)

        same = _named(report.segments, "SYS_TEMP_0FD9D9844_2E45E087")
        self.assertEqual(set(same), {"CDB$ROOT", "DATAASSETS"})
        self.assertEqual(same["CDB$ROOT"].stats["physical_read_requests"], 56)
        self.assertEqual(same["DATAASSETS"].stats, {"physical_read_requests": 1})

    def test_a_text_report_s_pdb_column_keeps_two_pdbs_apart(self) -> None:
        text = sample_bytes(TEXT_11G).decode()
        start = text.index("Segments by Physical Read Requests")
        edits = [
            ("Owner         Name    Object Name            Name     Type      Requests  %Total",
             "Owner         Name    Object Name            Name     Type      Requests  %Total PDB Name"),
            ("---------- ---------- -------------------- ---------- ----- ------------ -------\nSYS        SYSTEM     KOTAD$",
             "---------- ---------- -------------------- ---------- ----- ------------ ------- ----------\n"
             "SYS        SYSTEM     KOTAD$"),
            ("KOTAD$                          TABLE            7   10.29",
             "KOTAD$                          TABLE            7   10.29 CDB$ROOT"),
            ("IDL_UB2$                        TABLE            6    8.82",
             "KOTAD$                          TABLE            6    8.82 PDB1"),
        ]
        head, body = text[:start], text[start:]
        for old, new in edits:
            self.assertIn(old, body)
            body = body.replace(old, new, 1)

        report = parse_report(head + body, filename=TEXT_11G)

        kotad = {s.container: s.stats.get("physical_read_requests")
                 for s in report.segments if s.object_name == "KOTAD$" and s.container}
        self.assertEqual(kotad, {"CDB$ROOT": 7, "PDB1": 6})


class MergeTests(unittest.TestCase):
    def _figure(self, container: str, instance: int, value: int) -> SegmentFigure:
        return SegmentFigure("APP", "DATA", "ORDERS", "", "TABLE", "physical_read_requests", value,
                             instance_number=instance, container=container)

    def test_rows_of_one_pdb_on_two_instances_sum_and_two_pdbs_stay_apart(self) -> None:
        segments = merge_segments([self._figure("PDB1", 1, 100), self._figure("PDB1", 2, 50),
                                   self._figure("PDB2", 1, 7)])

        self.assertEqual({(s.container, s.stats["physical_read_requests"], s.instance_numbers) for s in segments},
                         {("PDB1", 150, (1, 2)), ("PDB2", 7, (1,))})


class TablespaceContainerTests(unittest.TestCase):
    def test_it_keeps_each_pdb_s_tablespace_rows_and_notes_the_names_it_sums(self) -> None:
        # Tablespace IO Stats of the Exadata CDB report: SYSAUX 59,094 reads in CDB$ROOT, 115,092 in WWPCONT1
        # and 465 in a row whose PDB Name is blank
        report = parse_report(sample_bytes(CDB_12C_EXADATA), filename=CDB_12C_EXADATA)

        self.assertEqual(report.container_tablespaces[("CDB$ROOT", "SYSAUX")].reads, 59094)
        self.assertEqual(report.container_tablespaces[("WWPCONT1", "SYSAUX")].reads, 115092)
        self.assertEqual(report.container_tablespaces[("", "SYSAUX")].reads, 465)
        self.assertEqual(report.tablespaces["SYSAUX"].reads, 59094 + 115092 + 465)
        (note,) = [note for note in report.notes if "Tablespace IO Stats" in note]
        self.assertIn("SYSAUX (CDB$ROOT, WWPCONT1, a row with no PDB name)", note)
        self.assertIn("USERS (WWPCONT1, CDB$ROOT)", note)

    def test_a_report_without_a_pdb_column_has_no_rows_per_container(self) -> None:
        report = parse_report(sample_bytes(NON_CDB), filename=NON_CDB)

        self.assertTrue(report.tablespaces)
        self.assertEqual(report.container_tablespaces, {})
