"""A RAC instance report's "Number of Instances" is read, so an interval missing instances is known."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

from apps.targets.awr_report import instances, parse_report
from apps.targets.awr_report.source import report_to_collection

SAMPLES = Path(__file__).resolve().parents[3] / ".." / "shared" / "awr-samples"


def test_the_examples_hold():
    assert doctest.testmod(instances).failed == 0


@pytest.mark.parametrize("name, expected", [
    ("1newstar__awr2csv__sample__awr_11204_1.txt", 2),  # text
    ("1newstar__awr2csv__sample__awr_11204_1.html", 2),  # HTML, 11.2
    ("edwinjiang__dataextraction_found__beautifulsoap__awr_db1tp.html", 2),  # 12.2
    ("structureddata__structureddata.github.io__assets__pq__range__1__awrrpt_1_910_911.html", 8),
    ("pcambell__awrrptanalyzor__awrrpt__19c_rac__awrrpt_1_18175_18176.html", 1),  # a one-instance RAC
    ("Lucky29011__reports__awr.html", None),  # not RAC
    ("edwinjiang__dataextraction_found__beautifulsoap__awr_rac.html", None),  # global: holds every instance
])
def test_an_instance_report_says_how_many_instances_its_database_has(name, expected):
    report = parse_report((SAMPLES / name).read_bytes(), filename=name)

    assert report.database_instances == expected
    (snapshot,) = report_to_collection(report).snapshots
    assert snapshot.database_instances == expected
