"""The hand-read figures file (sample_figures.toml) is read strictly: its values as the tests compare them, and a
table with a key the figures do not have, or without one they need, refused with the report and the key named."""

from __future__ import annotations

import unittest

from tests.targets.awr_report.sample_figures import Expected, FiguresError, read_figures

REPORT = "awrrpt_1_2_3.html"
HEADER = f"""["{REPORT}"]
db_name = "ORCL"
dbid = 42
instances = [1, 2]
release = "19.0.0.0.0"
rac = true
snaps = [2, 3]
times = ["2024-01-01T00:00:00", "2024-01-01T01:00:00"]
elapsed_minutes = 60.0
"""
SEGMENTS = """segments = [
    {owner = "SYS", tablespace = "SYSTEM", object = "OBJ$", subobject = "", type = "TABLE", figures = {logical_reads = 7}},
]
"""


class ReadFiguresTests(unittest.TestCase):

    def test_it_reads_a_report_table_into_its_expected_figures(self) -> None:
        text = HEADER + SEGMENTS + """tablespaces.USERS = {reads = 10, av_read_ms = 0.0, writes = 3}
sysstat."physical read IO requests" = 5
startup.2 = "2023-12-31T22:00:00"
is_global = true
"""
        self.assertEqual(read_figures(text), {REPORT: Expected(
            "ORCL", 42, [1, 2], "19.0.0.0.0", True, (2, 3), ("2024-01-01T00:00:00", "2024-01-01T01:00:00"), 60.0,
            segments=[("SYS", "SYSTEM", "OBJ$", "", "TABLE", {"logical_reads": 7})],
            tablespaces={"USERS": (10, 0.0, 3)},
            sysstat={"physical read IO requests": 5},
            startup={2: "2023-12-31T22:00:00"},
            is_global=True,
        )})

    def test_it_refuses_a_table_with_a_wrong_or_missing_key_naming_the_report_and_the_key(self) -> None:
        cases = {
            "a misspelt report key": (HEADER + "no_segment = true\n", "unknown key 'no_segment'"),
            "a missing report key": (HEADER.replace("dbid = 42\n", ""), "missing key 'dbid'"),
            "a misspelt segment key": (HEADER + SEGMENTS.replace("subobject =", "sub ="), "unknown key 'sub'"),
            "a misspelt tablespace key": (HEADER + "tablespaces.USERS = {reads = 1, av_read_ms = 0.5, write = 2}\n",
                                          "unknown key 'write'"),
            "a startup not keyed by instance": (HEADER + 'startup.one = "2024-01-01T00:00:00"\n',
                                                "startup key 'one'"),
            "snaps that are not a pair": (HEADER.replace("[2, 3]", "[2, 3, 4]"), "snaps is a [begin, end] pair"),
        }
        for case, (text, message) in cases.items():
            with self.subTest(case):
                with self.assertRaises(FiguresError) as refused:
                    read_figures(text, "figures.toml")
                self.assertIn(f"figures.toml [{REPORT}]", str(refused.exception))
                self.assertIn(message, str(refused.exception))

    def test_it_refuses_text_that_is_not_toml_naming_the_file(self) -> None:
        with self.assertRaisesRegex(FiguresError, "figures.toml: Cannot overwrite a value"):
            read_figures(HEADER + "dbid = 43\n", "figures.toml")

    def test_it_refuses_a_value_outside_any_report_table(self) -> None:
        with self.assertRaisesRegex(FiguresError, "figures.toml \\[db_name\\]: a table is expected"):
            read_figures('db_name = "ORCL"\n' + HEADER, "figures.toml")
