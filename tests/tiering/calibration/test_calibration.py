"""The calibration parsers against real fio, ORION and CALIBRATE_IO outputs (tests/tiering/fixtures/calibration,
sources in its README.md). Pure: no database."""

from __future__ import annotations

import copy
import datetime as dt
import json
import subprocess
import sys
import unittest
from pathlib import Path

from apps.tiering.calibration import FIGURE_KEYS, CalibrationReading, calibration_parse

ROOT = Path(__file__).resolve().parents[3]
SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "calibration"


def parse(name: str) -> CalibrationReading:
    return calibration_parse((SAMPLES / name).read_bytes(), file_name=name)


def parse_json(document: dict, name: str = "made.json") -> CalibrationReading:
    return calibration_parse(json.dumps(document).encode(), file_name=name)


class FioThreeTests(unittest.TestCase):
    def test_it_reads_a_fio_3_randread_job_in_nanoseconds(self) -> None:
        reading = parse("fio3_randread_fioplot.json")

        self.assertEqual(reading.figures.as_dict(), {
            "source": "fio", "read_iops": 6614.073, "write_iops": None,
            "read_mbps": round(26456 / 1024, 3), "write_mbps": None,
            "read_latency_ms": round(135557.025488 / 1e6, 6), "write_latency_ms": None,
            "block_size_bytes": 4096, "jobs": 1,
        })
        # The epoch timestamp is UTC; "time" is the host's clock (10:39 in its zone).
        self.assertEqual(reading.measured_at, dt.datetime(2019, 8, 4, 8, 39, 30, tzinfo=dt.UTC))

    def test_it_reads_randrw_after_text_lines_and_leaves_unmeasured_latency_null(self) -> None:
        reading = parse("fio3_randrw_gtod_reduce.txt")
        figures = reading.figures

        # Both directions from bw_bytes (bytes/s) in MiB/s; gtod_reduce measured no latency: null, not 0.
        self.assertEqual((figures.read_iops, figures.write_iops), (170075.741, 56839.645))
        self.assertEqual((figures.read_mbps, figures.write_mbps),
                         (round(696630235 / 2**20, 3), round(232815186 / 2**20, 3)))
        self.assertIsNone(figures.read_latency_ms)
        self.assertIsNone(figures.write_latency_ms)
        self.assertEqual((figures.block_size_bytes, figures.jobs), (4096, 1))
        self.assertEqual(reading.measured_at, dt.datetime(2023, 8, 9, 4, 21, 28, tzinfo=dt.UTC))

    def test_it_adds_up_jobs_of_one_group_and_weights_latency_by_their_ios(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        second = copy.deepcopy(document["jobs"][0])
        second["read"].update(iops=3000.0, bw=12000, total_ios=100000, clat_ns={"mean": 500000.0})
        second["job options"]["group_reporting"] = "0"
        document["jobs"][0]["job options"]["group_reporting"] = "0"
        document["jobs"].append(second)

        figures = parse_json(document).figures

        # Same group: they ran together, so IOPS and MB/s add up; latency is per IO.
        self.assertEqual(figures.read_iops, round(6614.073099 + 3000.0, 3))
        self.assertEqual(figures.read_mbps, round((26456 + 12000) / 1024, 3))
        expected = (135557.025488 * 396851 + 500000.0 * 100000) / (396851 + 100000) / 1e6
        self.assertAlmostEqual(figures.read_latency_ms, expected, places=6)
        self.assertEqual(figures.jobs, 2)

    def test_it_counts_numjobs_only_when_group_reporting_merged_them(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        document["jobs"][0]["job options"]["numjobs"] = "8"

        self.assertEqual(parse_json(document).figures.jobs, 8)

    def test_a_zero_io_direction_is_null_never_zero(self) -> None:
        figures = parse("fio3_randread_fioplot.json").figures

        self.assertIsNone(figures.write_iops)
        self.assertIsNone(figures.write_mbps)
        self.assertIsNone(figures.write_latency_ms)

    def test_it_takes_the_block_size_from_the_global_options_and_refuses_to_guess_a_range(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        del document["jobs"][0]["job options"]["bs"]
        document["global options"] = {"bs": "8k"}
        self.assertEqual(parse_json(document).figures.block_size_bytes, 8192)

        document["global options"] = {"bsrange": "4k-16k", "bs": "4k-16k"}
        self.assertIsNone(parse_json(document).figures.block_size_bytes)

        del document["global options"]
        self.assertIsNone(parse_json(document).figures.block_size_bytes)


class FioTwoTests(unittest.TestCase):
    def test_it_reads_fio_2_microseconds_with_a_read_group_and_a_write_group(self) -> None:
        reading = parse("fio2_pkb_read_write_groups.json")

        self.assertEqual(reading.figures.as_dict(), {
            "source": "fio", "read_iops": 8086.674, "write_iops": 2457.017,
            "read_mbps": round(129386 / 1024, 3), "write_mbps": round(39312 / 1024, 3),
            "read_latency_ms": round(238.357679 / 1000, 6), "write_latency_ms": round(800.193694 / 1000, 6),
            "block_size_bytes": 16384, "jobs": 4,  # two groups of numjobs 2, merged by group_reporting
        })
        self.assertEqual(reading.measured_at, dt.datetime(2017, 9, 28, 0, 45, 52, tzinfo=dt.UTC))

    def test_it_takes_each_directions_best_group_among_groups_that_ran_one_after_another(self) -> None:
        figures = parse("fio2_pkb_five_groups.json").figures

        # Reads: groups 1 (253), 3 (317) and 4 (323 IOPS); MB/s from the sequential group 1 (129,836 KiB/s).
        self.assertEqual(figures.read_iops, 323.0)
        self.assertEqual(figures.read_mbps, round(129836 / 1024, 3))
        self.assertEqual(figures.write_iops, 1610.0)
        self.assertEqual(figures.write_mbps, round(68118 / 1024, 3))
        # No total_ios in fio 2.1: a job's IOs are iops x runtime; its io_bytes (KiB) are never used.
        reads = [(253 * 2.788, 250667.06), (317 * 28.540, 3117.62), (323 * 28.045, 198030.44)]
        expected = sum(ios * usec for ios, usec in reads) / sum(ios for ios, _ in reads) / 1000
        self.assertAlmostEqual(figures.read_latency_ms, expected, places=5)
        self.assertIsNone(figures.block_size_bytes)  # no job options in fio 2.1
        self.assertEqual(figures.jobs, 5)
        self.assertIsNone(parse("fio2_pkb_five_groups.json").measured_at)


class OrionTests(unittest.TestCase):
    def test_it_reads_a_10_2_summary_whose_latency_has_no_unit(self) -> None:
        figures = parse("orion_10.2_simple_summary.txt").figures

        self.assertEqual(figures.as_dict(), {
            "source": "orion", "read_iops": 185.0, "write_iops": None, "read_mbps": 34.47, "write_mbps": None,
            "read_latency_ms": 7.45, "write_latency_ms": None, "block_size_bytes": 8192, "jobs": None,
        })

    def test_it_dates_an_11_1_summary_by_its_file_name_and_19c_console_output_by_its_stamp(self) -> None:
        cases = (  # the file, its read IOPS, MB/s and latency (ms), when it was measured
            ("mytest_20081111_1431_summary.txt", (442.0, 56.97, 14.62), dt.datetime(2008, 11, 11, 14, 31, tzinfo=dt.UTC)),
            ("orion_19c_simple.txt", (58778.0, 1571.33, 0.097677), dt.datetime(2021, 11, 13, 18, 9, tzinfo=dt.UTC)),
        )
        for name, reads, measured_at in cases:
            with self.subTest(name=name):
                reading = parse(name)

                self.assertEqual(
                    (reading.figures.read_iops, reading.figures.read_mbps, reading.figures.read_latency_ms), reads)
                self.assertEqual(reading.measured_at, measured_at)

    def test_it_reads_usecs_of_12c_and_keeps_the_minimums_own_figure(self) -> None:
        figures = parse("orion_12c_oltp_summary.txt").figures

        self.assertEqual((figures.read_iops, figures.read_latency_ms), (9899.0, 0.12358))
        self.assertIsNone(figures.write_iops)
        self.assertIsNone(figures.read_mbps)  # an oltp run measures no large IOs

    def test_it_splits_a_mixed_run_by_its_write_share(self) -> None:
        figures = parse("orion_12.2_oltp_write50.txt").figures

        # -write 50: half of the 918 IOPS were writes; each direction's latency at the minimum's point.
        self.assertEqual((figures.read_iops, figures.write_iops), (459.0, 459.0))
        self.assertEqual((figures.read_latency_ms, figures.write_latency_ms), (4.455933, 4.363848))

    def test_it_reads_the_three_matrices(self) -> None:
        self.assertEqual(parse("mytest_20190329_1057_iops.csv").figures.read_iops, 6210.0)
        self.assertEqual(parse("mytest_20190329_1057_lat.csv").figures.read_latency_ms, 0.43)
        self.assertEqual(parse("mytest_20190329_1057_mbps.csv").figures.read_mbps, 374.26)

    def test_a_write_only_run_has_no_read_figures(self) -> None:
        text = (SAMPLES / "orion_10.2_simple_summary.txt").read_text().replace("Write: 0%", "Write: 100%")

        figures = calibration_parse(text.encode(), file_name="w.txt").figures

        self.assertEqual((figures.read_iops, figures.write_iops, figures.write_latency_ms), (None, 185.0, 7.45))
        self.assertIsNone(figures.read_latency_ms)


class CalibrateIoTests(unittest.TestCase):
    def test_it_reads_dbms_output_as_read_figures(self) -> None:
        figures = parse("calibrate_io_dbms_output.txt").figures

        self.assertEqual(figures.as_dict(), {
            "source": "calibrate_io", "read_iops": 24002.0, "write_iops": None, "read_mbps": 175.0,
            "write_mbps": None, "read_latency_ms": 10.868, "write_latency_ms": None,
            "block_size_bytes": None, "jobs": None,
        })

    def test_it_reads_a_dba_rsrc_io_calibrate_row(self) -> None:
        figures = parse("dba_rsrc_io_calibrate.txt").figures

        self.assertEqual((figures.read_iops, figures.read_mbps, figures.read_latency_ms), (24002.0, 175.0, 10.868))

    def test_it_dates_a_row_with_end_time(self) -> None:
        text = ("START_TIME                     END_TIME                        MAX_IOPS   MAX_MBPS    LATENCY\n"
                "------------------------------ ------------------------------ ---------- ---------- ----------\n"
                "13-NOV-21 05.42.07.000000 PM   13-NOV-21 05.51.40.000000 PM        24002        175         11\n")

        reading = calibration_parse(text.encode(), file_name="row.txt")

        self.assertEqual(reading.figures.read_latency_ms, 11.0)
        self.assertEqual(reading.measured_at, dt.datetime(2021, 11, 13, 17, 51, 40, tzinfo=dt.UTC))


class ShapeTests(unittest.TestCase):
    def test_every_sample_gives_exactly_the_figure_keys(self) -> None:
        for sample in sorted(p.name for p in SAMPLES.iterdir() if p.name != "README.md"):
            with self.subTest(sample=sample):
                self.assertEqual(tuple(parse(sample).figures.as_dict()), FIGURE_KEYS)

    def test_it_imports_no_django(self) -> None:
        probe = ("import sys; import apps.tiering.calibration; "
                 "print([m for m in sys.modules if m == 'django' or m.startswith('django.')])")
        result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.strip(), "[]")


def test_both_directions_adds_only_what_was_measured():
    import doctest

    from apps.tiering.calibration import base

    assert doctest.testmod(base).failed == 0
    assert base.both_directions(None, 0.0) == 0.0  # a direction measured at 0 is 0; an unmeasured one is not
