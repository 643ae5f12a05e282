"""Mutated real reports never raise anything but AwrReportError.

Hypothesis truncates, flips bytes in and deletes lines from the real
samples. Inputs it found interesting are kept in ``corpus/`` and replayed.
"""

from __future__ import annotations

import unittest
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.targets.awr_report import AwrReport, AwrReportError, parse_report
from tests.targets.awr_report.samples import WITHOUT_SEGMENTS, sample_bytes, sample_paths

CORPUS_DIR = Path(__file__).resolve().parent / "corpus"

# Small samples of each layout keep each example fast.
FUZZ_SAMPLES = {
    "html-11.1": "structureddata__structureddata.github.io__assets__pq__range__1__awrrpt_1_910_911.html",
    "html-global": "edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html",
    "text-11.2": "1newstar__awr2csv__sample__awr_11204_1.txt",
    "text-12.2": "ora600pl__jas-min__awrrpt_1_2668_2669.txt",
}
_SOURCES = {label: sample_bytes(name) for label, name in FUZZ_SAMPLES.items()}


def parse_or_refuse(data: bytes) -> AwrReport | None:
    """Parse; an AwrReportError is an acceptable answer, anything else fails the test."""
    try:
        report = parse_report(data, filename="fuzz")
    except AwrReportError as error:
        assert "\n" not in str(error)
        return None
    report.to_json_dict()
    return report


@st.composite
def mutated_reports(draw: st.DrawFn) -> bytes:
    data = _SOURCES[draw(st.sampled_from(sorted(_SOURCES)))]
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(["truncate", "flip", "delete_line", "duplicate_line"]))
        if not data:
            break
        if kind == "truncate":
            data = data[: draw(st.integers(min_value=0, max_value=len(data)))]
        elif kind == "flip":
            at = draw(st.integers(min_value=0, max_value=len(data) - 1))
            data = data[:at] + bytes([draw(st.integers(0, 255))]) + data[at + 1 :]
        else:
            lines = data.split(b"\n")
            at = draw(st.integers(min_value=0, max_value=len(lines) - 1))
            copies = [] if kind == "delete_line" else [lines[at], lines[at]]
            data = b"\n".join(lines[:at] + copies + lines[at + 1 :])
    return data


class FuzzTests(unittest.TestCase):
    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(mutated_reports())
    def test_it_only_ever_raises_awr_report_error(self, data: bytes) -> None:
        parse_or_refuse(data)

    @settings(max_examples=200, deadline=None)
    @given(st.binary(max_size=2000))
    def test_it_refuses_random_bytes_cleanly(self, data: bytes) -> None:
        parse_or_refuse(data)

    @settings(max_examples=100, deadline=None)
    @given(st.text(max_size=2000))
    def test_it_refuses_random_text_cleanly(self, text: str) -> None:
        parse_or_refuse(("WORKLOAD REPOSITORY report for\n" + text).encode("utf-8"))


class CorpusTests(unittest.TestCase):
    def test_it_replays_the_corpus(self) -> None:
        files = sorted(CORPUS_DIR.glob("*.bin"))
        self.assertGreater(len(files), 0)
        for path in files:
            with self.subTest(path.name):
                parse_or_refuse(path.read_bytes())

    def test_it_refuses_reports_cut_in_the_header(self) -> None:
        # Found by fuzzing: a text report cut before its first section was once accepted.
        for path in sorted(CORPUS_DIR.glob("*header-only-regression.bin")):
            with self.subTest(path.name), self.assertRaises(AwrReportError):
                parse_report(path.read_bytes(), filename=path.name)

    def test_it_reads_the_minimal_corpus_report(self) -> None:
        report = parse_or_refuse((CORPUS_DIR / "text-12-2-minimal-ok.bin").read_bytes())
        assert report is not None
        self.assertEqual(report.segments[0].stats, {"physical_reads": 1670})

    def test_it_still_parses_every_unmutated_sample(self) -> None:
        # Three samples print no "Segments by ..." section: read with a warning (test_layouts.py).
        for path in sample_paths():
            with self.subTest(path.name):
                report = parse_report(path.read_bytes(), filename=path.name)
                if path.name in WITHOUT_SEGMENTS:
                    self.assertEqual(report.segments, ())
                    self.assertTrue(report.notes[0].startswith("Warning: no segment figures"))
                    continue
                self.assertGreater(len(report.segments), 0)
