"""The rules over a batch: decide() on Columns, advise_many(), finding_codes().

advise() is decide() on a one-row batch, so these tests check that a batch
gives each row what it would get alone, and that Columns a service builds
from arrays decide like Columns built from SegmentFigures.
"""

from __future__ import annotations

import unittest
from collections.abc import Callable, Mapping
from dataclasses import fields

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from apps.tiering.moves.movability import CODES as MOVABILITY_CODES
from apps.tiering.rules import (
    ACTIONS,
    DEFAULT_THRESHOLDS,
    FINDING_CODES,
    FLASH_CACHE_CODES,
    HINTS,
    LOB_TYPES,
    PARTITION_TYPES,
    TEMP_TYPES,
    UNDO_TYPES,
    Columns,
    Decisions,
    RulesError,
    SegmentFigures,
    advise,
    advise_many,
    decide,
    finding_codes,
    partition_skew,
)
from apps.tiering.rules.wording import DISPLAY_ORDER
from tests.tiering.rule_figures import GIB, figures


def movability(owner: str, name: str, kind: str, *, name_truncated: bool) -> int:
    from apps.tiering.moves.movability import movability as code

    return MOVABILITY_CODES.index(code(owner, name, kind, name_truncated=name_truncated))

VERDICT_CODES = ("cheaper_tier", "keep_current")


def _counts(largest: int) -> st.SearchStrategy[int]:
    # Small counts sit around min_requests (1000) and hit its edges.
    return st.one_of(st.integers(0, 3000), st.integers(0, largest))


_SEGMENT_FIGURES = st.builds(
    SegmentFigures,
    owner=st.sampled_from(["SOE", "SOE", "SYS"]),
    object_name=st.sampled_from(["ORDERS", "ORD_DATE_IX", "SYS_IL0000087654C00003$$", "AQ$_ORDERS_QT_I"]),
    subobject_name=st.sampled_from(["", "P1", "P2", "P3"]),
    object_type=st.sampled_from(
        ["TABLE", "TABLE PARTITION", "index  subpartition", "INDEX", "LOBSEGMENT", "LOB PARTITION",
         "TYPE2 UNDO", "ROLLBACK", "TEMPORARY", "CLUSTER", "LOBINDEX"]
    ),
    tablespace_name=st.just("SOE_DATA"),
    size_bytes=st.one_of(st.none(), st.just(0), st.integers(0, 10**13)),
    read_requests=_counts(10**7),
    write_requests=_counts(10**7),
    physical_reads_blocks=_counts(10**8),
    physical_reads_direct_blocks=_counts(10**8),
    optimized_physical_reads=_counts(10**7),
    table_scans=_counts(5000),
    db_block_changes=_counts(10**6),
    iops=st.one_of(st.floats(0, 1e5), st.none()),
    intensity=st.one_of(st.none(), st.floats(0, 1000), st.sampled_from([0.8, 15.0])),
    current_tier=st.sampled_from(["FLASH", "FAST_DISK", "HICAP"]),
    recommended_tier=st.sampled_from(["FLASH", "FAST_DISK", "HICAP"]),
    current_is_flash=st.booleans(),
    recommended_is_flash=st.booleans(),
    flash_blocks=st.one_of(st.none(), st.integers(0, 10**4), st.integers(0, 10**7)),
    block_size_bytes=st.sampled_from([2048, 8192, 32768]),
    flash_cache=st.sampled_from([None, "DEFAULT", "KEEP", "NONE"]),
    flash_cache_enabled=st.booleans(),
    below_awr_capture=st.booleans(),
    partition_intensities=st.lists(
        st.tuples(st.sampled_from(["P1", "P2", "P3", "P4", "P5", "P6"]), st.one_of(st.none(), st.floats(0, 500))),
        max_size=7,
    ).map(tuple),
    unmeasured=st.booleans(),
    reads_unmeasured=st.sampled_from([None, True, False]),
    writes_unmeasured=st.sampled_from([None, True, False]),
    iops_bound=st.one_of(st.none(), st.floats(0, 1e5)),
    name_truncated=st.sampled_from([False, False, True]),
)
_THRESHOLDS = st.one_of(
    st.just(DEFAULT_THRESHOLDS),
    st.fixed_dictionaries(
        {},
        optional={
            "min_requests": st.sampled_from([1, 1000, 5000]),
            "write_heavy_fraction": st.sampled_from([0.1, 0.9]),
            "resident_fraction": st.sampled_from([0.01, 1.0]),
            "cold_intensity": st.sampled_from([0.0, 100.0]),
            "flash_waste_min_bytes": st.sampled_from([0, 64 * 1024**2]),
            "partition_skew_ratio": st.sampled_from([0.0, 10.0]),
        },
    ),
)
_BATCH = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def over_batches(*, min_size: int = 0) -> Callable[[Callable[..., None]], Callable[..., None]]:
    """A property test given ``batch``, ``min_size`` to 12 segments' figures, and ``thresholds``."""
    return lambda test: _BATCH(given(batch=st.lists(_SEGMENT_FIGURES, min_size=min_size, max_size=12),
                                     thresholds=_THRESHOLDS)(test))


# The SegmentFigures fields a service reads as whole stored columns, by the dtype it stores them in.
_FLOAT_COLUMNS = ("size_bytes", "physical_reads_blocks", "physical_reads_direct_blocks", "optimized_physical_reads",
                  "table_scans", "iops", "intensity", "flash_blocks", "iops_bound")  # None -> NaN
_INT_COLUMNS = ("read_requests", "write_requests", "block_size_bytes")  # the request counts converted to float64
_BOOL_COLUMNS = ("current_is_flash", "recommended_is_flash", "flash_cache_enabled", "below_awr_capture", "unmeasured")


def columns_from_arrays(batch: list[SegmentFigures], thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS) -> Columns:
    """Columns the way a service builds them: whole columns of stored values, no SegmentFigures."""
    kinds = np.array([" ".join(f.object_type.upper().split()) for f in batch], dtype=object)
    current = np.array([f.current_tier for f in batch], dtype=object)
    recommended = np.array([f.recommended_tier for f in batch], dtype=object)
    hints = np.array([f.flash_cache or "" for f in batch], dtype=object)
    stored = {name: np.array([getattr(f, name) for f in batch], dtype=dtype)
              for names, dtype in ((_FLOAT_COLUMNS, float), (_INT_COLUMNS, np.int64), (_BOOL_COLUMNS, bool))
              for name in names}

    codes = np.zeros(len(batch), dtype=np.int64)
    for code, hint in enumerate(FLASH_CACHE_CODES):
        codes[hints == hint] = code
    return Columns(
        is_undo=np.isin(kinds, list(UNDO_TYPES)),
        is_temp=np.isin(kinds, list(TEMP_TYPES)),
        is_lob=np.isin(kinds, list(LOB_TYPES)),
        is_partition=np.isin(kinds, list(PARTITION_TYPES)),
        cost_moves=current != recommended,
        flash_cache=codes,
        skewed=[partition_skew(f.partition_intensities, thresholds=thresholds) is not None for f in batch],
        movability=[movability(f.owner, f.object_name, f.object_type, name_truncated=f.name_truncated)
                    for f in batch],
        **stored,
    )


class BatchTestCase(unittest.TestCase):
    def assertDecisionsEqual(self, first: Decisions, second: Decisions) -> None:
        for field in fields(Decisions):
            mine, theirs = getattr(first, field.name), getattr(second, field.name)
            np.testing.assert_array_equal(mine, theirs, err_msg=f"Decisions.{field.name}")
            self.assertEqual(mine.dtype, theirs.dtype, f"Decisions.{field.name}")


class AdviseManyTests(BatchTestCase):
    @over_batches()
    def test_it_advises_each_segment_of_a_batch_as_if_it_were_alone(
        self, batch: list[SegmentFigures], thresholds: Mapping[str, float]
    ) -> None:
        self.assertEqual(
            advise_many(batch, thresholds=thresholds), [advise(f, thresholds=thresholds) for f in batch]
        )

    @over_batches(min_size=1)
    def test_it_decides_what_the_advice_reports(
        self, batch: list[SegmentFigures], thresholds: Mapping[str, float]
    ) -> None:
        decisions = decide(Columns.from_figures(batch, thresholds=thresholds), thresholds=thresholds)
        for row, advice in enumerate(advise_many(batch, thresholds=thresholds)):
            self.assertEqual(ACTIONS[decisions.action[row]], advice.action)
            self.assertEqual(HINTS[decisions.hint[row]], advice.flash_cache_hint)
            self.assertEqual(bool(decisions.keep_current_tier[row]), advice.tier_adjusted)
            self.assertEqual(
                finding_codes(decisions.findings[row]),
                tuple(code for code in advice.codes if code not in VERDICT_CODES),
            )

    def test_it_keeps_each_rows_findings_to_itself(self) -> None:
        heavy = figures(read_requests=100_000, write_requests=260_000, physical_reads_blocks=100_000)
        undo = figures(object_type="TYPE2 UNDO", owner="SYS", object_name="_SYSSMU1$")
        plain = figures()
        advice = advise_many([heavy, undo, plain])
        self.assertEqual([a.codes for a in advice],
                         [("cheaper_tier", "write_heavy"), ("cheaper_tier", "undo_redo"), ("cheaper_tier",)])
        self.assertEqual([a.action for a in advice], ["move", "keep", "move"])

    def test_it_advises_an_empty_batch(self) -> None:
        self.assertEqual(advise_many([]), [])
        decisions = decide(Columns.from_figures([]))
        self.assertEqual(len(decisions), 0)
        self.assertEqual(decisions.findings.dtype, np.uint32)  # more than 16 findings: 32 bits

    def test_it_still_rejects_unknown_thresholds(self) -> None:
        with self.assertRaisesRegex(RulesError, "unknown threshold 'write_heavy'"):
            advise_many([figures()], thresholds={"write_heavy": 0.5})


class ColumnsTests(BatchTestCase):
    @over_batches()
    def test_it_decides_columns_built_from_arrays_like_columns_from_figures(
        self, batch: list[SegmentFigures], thresholds: Mapping[str, float]
    ) -> None:
        self.assertDecisionsEqual(
            decide(columns_from_arrays(batch, thresholds), thresholds=thresholds),
            decide(Columns.from_figures(batch, thresholds=thresholds), thresholds=thresholds),
        )

    def test_it_converts_plain_lists_to_typed_arrays(self) -> None:
        batch = [figures(), figures(size_bytes=None, intensity=None, flash_blocks=100, flash_cache="KEEP")]
        by_hand = columns_from_arrays(batch)
        self.assertEqual(by_hand.read_requests.dtype, np.float64)
        self.assertEqual(by_hand.flash_cache.dtype, np.int8)
        self.assertEqual(by_hand.skewed.dtype, np.bool_)
        self.assertEqual(by_hand.flash_cache.tolist(), [0, FLASH_CACHE_CODES.index("KEEP")])
        self.assertTrue(np.isnan(by_hand.size_bytes[1]))
        self.assertDecisionsEqual(decide(by_hand), decide(Columns.from_figures(batch)))

    def test_it_takes_the_partition_skew_of_the_group_from_the_caller(self) -> None:
        # A whole table whose partitions the service found skewed: move partitions, not the table.
        table = figures(object_name="ORDERS")
        decisions = decide(Columns.from_figures([table], skews=[partition_skew({"P1": 0.1, "P2": 0.2, "P3": 90.0})]))
        self.assertEqual(ACTIONS[decisions.action[0]], "move_partitions")
        self.assertTrue(decisions.keep_current_tier[0])
        self.assertEqual(finding_codes(decisions.findings[0]), ("partition_skew",))

    def test_it_rejects_columns_of_different_lengths(self) -> None:
        columns = Columns.from_figures([figures(), figures()])
        arrays = {field.name: getattr(columns, field.name) for field in fields(Columns)}
        with self.assertRaisesRegex(RulesError, r"Columns.iops has 1 rows, Columns.is_undo has 2"):
            Columns(**{**arrays, "iops": np.array([1.0])})
        with self.assertRaisesRegex(RulesError, "Columns.iops must be one-dimensional"):
            Columns(**{**arrays, "iops": np.ones((2, 1))})
        with self.assertRaisesRegex(RulesError, "flash_cache must index FLASH_CACHE_CODES"):
            Columns(**{**arrays, "flash_cache": np.array([0, 4])})
        with self.assertRaisesRegex(RulesError, "1 partition skews for 2 segments"):
            Columns.from_figures([figures(), figures()], skews=[None])

    def test_it_leaves_the_mix_unmeasured_below_min_requests(self) -> None:
        batch = [figures(read_requests=100, write_requests=800, flash_blocks=None), figures(flash_blocks=1000)]
        decisions = decide(Columns.from_figures(batch))
        self.assertTrue(np.isnan(decisions.write_fraction[0]))
        self.assertTrue(np.isnan(decisions.flash_fraction[0]))
        self.assertAlmostEqual(decisions.write_fraction[1], 0.01)
        self.assertEqual(decisions.flash_bytes[1], 1000 * 8192)
        self.assertAlmostEqual(decisions.flash_fraction[1], 1000 * 8192 / (2 * GIB))


class FindingCodesTests(unittest.TestCase):
    def test_it_names_the_bits_of_a_findings_mask_in_the_order_advice_gives_them(self) -> None:
        write_heavy = 1 << FINDING_CODES.index("write_heavy")
        size_unknown = 1 << FINDING_CODES.index("size_unknown")
        not_movable = 1 << FINDING_CODES.index("not_movable")
        self.assertEqual(finding_codes(0), ())
        self.assertEqual(finding_codes(write_heavy | size_unknown), ("size_unknown", "write_heavy"))
        self.assertEqual(finding_codes(np.uint16(write_heavy)), ("write_heavy",))
        self.assertEqual(finding_codes(write_heavy | not_movable), ("not_movable", "write_heavy"))
        self.assertEqual(finding_codes((1 << len(FINDING_CODES)) - 1), DISPLAY_ORDER)

    def test_its_bits_are_only_ever_appended_as_stored_findings_keep_them(self) -> None:
        self.assertEqual(
            FINDING_CODES[:16],
            ("size_unknown", "below_awr_capture", "undo_redo", "temp_ok", "write_heavy", "full_scan",
             "already_resident", "flash_cache_keep", "flash_cache_none", "partition_skew", "unmeasured",
             "not_movable", "moves_with_lob", "name_truncated", "not_worth_moving", "held_back"),
        )
        self.assertEqual(DISPLAY_ORDER[:4], ("name_truncated", "moves_with_lob", "not_movable", "unmeasured"))

    def test_it_rejects_a_mask_with_unknown_bits(self) -> None:
        for mask in (-1, 1 << len(FINDING_CODES)):
            with self.subTest(mask=mask), self.assertRaisesRegex(RulesError, "out of range"):
                finding_codes(mask)
