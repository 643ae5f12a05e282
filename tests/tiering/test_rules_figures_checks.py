"""SegmentFigures' checks, through the one-expression pass for plain figures and the field-by-field checks it
falls back to: every value the checks refuse is still refused, naming its field."""

from __future__ import annotations

import pytest

from apps.tiering.rules import RulesError
from tests.tiering.rule_figures import figures


@pytest.mark.parametrize(("field", "value"), [
    ("read_requests", True), ("write_requests", 1.0), ("table_scans", -1), ("size_bytes", -5),
    ("flash_blocks", 2.5), ("cache_blocks", False), ("iops", float("inf")), ("intensity", -0.1),
    ("iops_bound", float("nan")), ("iops", True), ("block_size_bytes", 0),
])
def test_a_bad_figure_is_refused_naming_its_field(field, value):
    with pytest.raises(RulesError, match=rf"SegmentFigures\.{field} "):
        figures(**{field: value})


def test_plain_and_int_subclass_figures_pass():
    class Count(int):
        pass

    assert figures(read_requests=Count(3), iops=2, intensity=0.0, size_bytes=None).read_requests == 3
    assert figures(partition_intensities=(("P1", None), ("P2", 1))).partition_intensities[1] == ("P2", 1)
