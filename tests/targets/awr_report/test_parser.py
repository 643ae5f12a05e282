"""parse_report against every real report in ../shared/awr-samples, each figure checked against the one read
off the report by hand (sample_figures.toml)."""

from __future__ import annotations

import datetime as dt
import unittest

from apps.targets.awr_report import AwrReport, AwrSegment, parse_report
from tests.targets.awr_report.sample_figures import EXPECTED
from tests.targets.awr_report.samples import SAMPLES_DIR, sample_bytes, sample_paths


def _parse(name: str) -> AwrReport:
    return parse_report(sample_bytes(name), filename=name)


def _parse_even_without_segments(name: str) -> AwrReport:
    """The report (one without segment sections is read too, with its warning)."""
    return _parse(name)


def _find(report: AwrReport, owner: str, tablespace: str, obj: str, sub: str, kind: str) -> AwrSegment:
    matches = [
        segment
        for segment in report.segments
        if (segment.owner, segment.tablespace_name, segment.object_name, segment.subobject_name,
            segment.object_type) == (owner, tablespace, obj, sub, kind)
    ]
    assert len(matches) == 1, f"{owner}.{obj} {sub} {kind}: {len(matches)} matches"
    return matches[0]


class SampleReportTests(unittest.TestCase):
    """Each real report's header, segments, tablespaces and flash statistics."""

    @classmethod
    def setUpClass(cls) -> None:
        cls.reports = {name: _parse_even_without_segments(name) for name in EXPECTED}

    def test_it_has_expectations_for_every_sample(self) -> None:
        names = {path.name for path in sample_paths()}
        self.assertTrue(SAMPLES_DIR.is_dir(), SAMPLES_DIR)
        self.assertEqual(names, set(EXPECTED))

    def test_it_reads_the_header(self) -> None:
        for name, expected in EXPECTED.items():
            with self.subTest(name):
                data = self.reports[name].to_json_dict()
                self.assertEqual(data["db_name"], expected.db_name)
                self.assertEqual(data["dbid"], expected.dbid)
                self.assertEqual(data["instances"], expected.instances)
                self.assertEqual(data["release"], expected.release)
                self.assertIs(data["rac"], expected.rac)
                self.assertEqual((data["begin_snap"], data["end_snap"]), expected.snaps)
                self.assertEqual((data["begin_time"], data["end_time"]), expected.times)
                self.assertAlmostEqual(data["elapsed_minutes"], expected.elapsed_minutes, places=2)
                self.assertIs(self.reports[name].is_global, expected.is_global)

    def test_it_reads_startup_times(self) -> None:
        for name, expected in EXPECTED.items():
            report = self.reports[name]
            for number, startup in expected.startup.items():
                with self.subTest(name, instance=number):
                    self.assertEqual(report.startup_times[number], dt.datetime.fromisoformat(startup))

    def test_it_reads_segment_figures(self) -> None:
        for name, expected in EXPECTED.items():
            report = self.reports[name]
            for owner, tablespace, obj, sub, kind, stats in expected.segments:
                with self.subTest(name, segment=obj):
                    segment = _find(report, owner, tablespace, obj, sub, kind)
                    for statistic, value in stats.items():
                        self.assertEqual(segment.stats.get(statistic), value, statistic)

    def test_it_reports_no_segments_when_the_report_has_none(self) -> None:
        for name, expected in EXPECTED.items():
            with self.subTest(name):
                self.assertEqual(len(self.reports[name].segments) == 0, expected.no_segments)

    def test_it_reads_tablespace_io(self) -> None:
        for name, expected in EXPECTED.items():
            tablespaces = self.reports[name].to_json_dict()["tablespaces"]
            with self.subTest(name):
                self.assertEqual(tablespaces == {}, expected.no_tablespaces)
            for tablespace, (reads, av_read_ms, writes) in expected.tablespaces.items():
                with self.subTest(name, tablespace=tablespace):
                    self.assertEqual(
                        tablespaces[tablespace],
                        {"reads": reads, "av_read_ms": av_read_ms, "writes": writes},
                    )

    def test_it_reads_flash_and_request_statistics(self) -> None:
        for name, expected in EXPECTED.items():
            sysstat = self.reports[name].sysstat
            for statistic, value in expected.sysstat.items():
                with self.subTest(name, statistic=statistic):
                    self.assertEqual(sysstat[statistic], value)

    def test_it_keeps_only_flash_optimized_and_request_statistics(self) -> None:
        for name, report in self.reports.items():
            for statistic in report.sysstat:
                with self.subTest(name, statistic=statistic):
                    lowered = statistic.lower()
                    self.assertTrue(
                        "flash cache" in lowered or "optimized" in lowered
                        or "cell flash" in lowered or lowered.endswith("io requests"),
                    )

    def test_it_lists_a_segment_once(self) -> None:
        for name, report in self.reports.items():
            keys = [
                (s.owner, s.tablespace_name, s.object_name, s.subobject_name, s.object_type)
                for s in report.segments
            ]
            with self.subTest(name):
                self.assertEqual(len(keys), len(set(keys)))

    def test_it_omits_statistics_a_release_does_not_print(self) -> None:
        # 11.1 has no request-based segment sections.
        report = self.reports["structureddata__structureddata.github.io__assets__pq__range__1__awrrpt_1_910_911.html"]
        self.assertFalse(any("physical_read_requests" in s.stats for s in report.segments))

    def test_it_gives_the_same_segments_for_the_html_and_text_of_one_report(self) -> None:
        html = self.reports["1newstar__awr2csv__sample__awr_11204_1.html"]
        text = self.reports["1newstar__awr2csv__sample__awr_11204_1.txt"]
        html_reads = {s.object_name[:20]: s.stats.get("logical_reads") for s in html.segments}
        text_reads = {s.object_name: s.stats.get("logical_reads") for s in text.segments}
        self.assertEqual(
            {k: v for k, v in html_reads.items() if v is not None},
            {k: v for k, v in text_reads.items() if v is not None},
        )


class JsonShapeTests(unittest.TestCase):
    def test_it_gives_exactly_the_documented_keys(self) -> None:
        data = _parse("sarthi2020__AWR-reports__awr_rpt_1.html").to_json_dict()
        self.assertEqual(
            set(data),
            {"db_name", "dbid", "instances", "release", "rac", "begin_snap", "end_snap",
             "begin_time", "end_time", "elapsed_minutes", "segments", "sysstat", "tablespaces", "notes",
             "unlisted_bounds", "periods", "container_tablespaces"},
        )
        identity = {"owner", "tablespace_name", "object_name", "subobject_name", "object_type", "container"}
        for segment in data["segments"]:
            self.assertLessEqual(identity, set(segment))
            self.assertTrue(all(isinstance(segment[k], int) for k in set(segment) - identity))

    def test_it_accepts_str_as_well_as_bytes(self) -> None:
        name = "ora600pl__jas-min__awrrpt_1_2668_2669.txt"
        from_text = parse_report(sample_bytes(name).decode("utf-8"), filename=name)
        self.assertEqual(from_text.to_json_dict(), _parse(name).to_json_dict())


class LargeReportTests(unittest.TestCase):
    def test_it_parses_a_five_megabyte_report(self) -> None:
        # The biggest sample padded to > 5 MB with copies of its segment sections.
        data = sample_bytes("eyko139__awr_reports__awr_PRDG_1_237812_237837.htm").decode("utf-8")
        start, end = data.index('<h3 class="awr">Segments by Logical Reads'), data.index("End of Report")
        padded = data[:end] + data[start:end] * 4 + data[end:]
        self.assertGreater(len(padded.encode()), 5_000_000)
        report = parse_report(padded, filename="padded.htm")  # its time: bench/bench_pure.py
        # Five copies of each section: every figure is now five times the printed one.
        segment = _find(report, "ALIP", "ALIP_DAT", "BF_PERSON", "", "TABLE")
        self.assertEqual(segment.stats["logical_reads"], 5 * 17558416)
