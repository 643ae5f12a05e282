"""Files the calibration parsers refuse: one line each, naming the file and what is wrong, never a traceback."""

from __future__ import annotations

import json
import unittest
from pathlib import Path

from apps.tiering.calibration import MAX_FILE_BYTES, CalibrationError, calibration_parse

SAMPLES = Path(__file__).resolve().parents[1] / "fixtures" / "calibration"


class RefusalTests(unittest.TestCase):
    def refusal(self, data: bytes, name: str = "bad.txt") -> str:
        with self.assertRaises(CalibrationError) as raised:
            calibration_parse(data, file_name=name)
        message = str(raised.exception)
        self.assertNotIn("\n", message)
        self.assertTrue(message.startswith(f"{name}: "), message)
        return message

    def test_it_refuses_a_file_past_the_size_limit(self) -> None:
        self.assertIn("larger than the 20 MB", self.refusal(b" " * (MAX_FILE_BYTES + 1)))

    def test_it_refuses_bytes_that_are_not_utf8(self) -> None:
        self.assertIn("not UTF-8 text (byte 0xff at offset 3)", self.refusal(b"max\xff_iops = 3"))

    def test_it_refuses_binary_and_empty_files(self) -> None:
        self.assertIn("NUL", self.refusal(b"{\x00}"))
        self.assertIn("empty", self.refusal(b"  \n"))

    def test_it_refuses_text_it_does_not_know(self) -> None:
        self.assertIn("not fio JSON, ORION output or a CALIBRATE_IO result", self.refusal(b"hello\nworld\n"))

    def test_it_names_where_fio_json_breaks(self) -> None:
        text = (SAMPLES / "fio3_randread_fioplot.json").read_text()[:400]

        self.assertIn("not fio JSON: ", self.refusal(text.encode(), "cut.json"))

    def test_it_refuses_json_nested_beyond_reason(self) -> None:
        message = self.refusal(b'{"jobs": ' + b"[" * 200000 + b"]" * 200000 + b"}", "deep.json")

        self.assertIn("not fio JSON", message)

    def test_it_refuses_fio_json_without_jobs_or_with_odd_jobs(self) -> None:
        self.assertIn('no "jobs" list', self.refusal(b'{"fio version": "fio-3.1"}', "x.json"))
        self.assertIn("job 1 is not an object", self.refusal(b'{"jobs": [3]}', "x.json"))

    def test_it_refuses_jobs_that_did_no_io_and_unified_reporting(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        document["jobs"][0]["read"].update(iops=0, total_ios=0)
        self.assertIn("neither read nor wrote", self.refusal(json.dumps(document).encode(), "idle.json"))

        document["jobs"][0]["mixed"] = document["jobs"][0].pop("read")
        self.assertIn("unified_rw_reporting", self.refusal(json.dumps(document).encode(), "mixed.json"))

    def test_it_ignores_nan_and_strings_where_fio_puts_numbers(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        document["jobs"][0]["read"]["iops"] = "many"
        text = json.dumps(document).replace('"bw": 26456', '"bw": NaN')

        self.assertIn("neither read nor wrote", self.refusal(text.encode(), "odd.json"))

    def test_it_refuses_orion_with_several_runs_or_writes_of_unknown_share(self) -> None:
        one = (SAMPLES / "orion_10.2_simple_summary.txt").read_text()
        self.assertIn("more than one ORION run", self.refusal((one + one).encode()))

        mixed = (SAMPLES / "orion_12.2_oltp_write50.txt").read_text().replace("-write 50", "")
        self.assertIn("no write share", self.refusal(mixed.encode()))

        self.assertIn("more than 100 %", self.refusal(one.replace("Write: 0%", "Write: 150%").encode()))

    def test_it_refuses_an_orion_matrix_of_unknown_kind(self) -> None:
        matrix = (SAMPLES / "mytest_20190329_1057_iops.csv").read_bytes()

        self.assertIn("_iops.csv, _mbps.csv", self.refusal(matrix, "matrix.csv"))

    def test_it_refuses_a_calibration_that_did_not_finish(self) -> None:
        message = self.refusal(b"max_iops = 0\nlatency  = 0\nmax_mbps = 0\n")

        self.assertIn("did the calibration finish", message)

    def test_it_survives_numbers_beyond_floats_and_integers_beyond_python(self) -> None:
        document = json.loads((SAMPLES / "fio3_randread_fioplot.json").read_text())
        document["jobs"][0]["read"]["iops"] = 10**400
        self.assertIn("neither read nor wrote", self.refusal(json.dumps(document).encode(), "big.json"))

        digits = b'{"jobs": [{"read": {"iops": ' + b"9" * 5000 + b"}}]}"
        self.assertIn("not fio JSON", self.refusal(digits, "digits.json"))
