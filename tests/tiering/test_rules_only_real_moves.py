"""Only real moves count, and reasons agree with actions (issue 15, item 9): the rules' side.

A segment Oracle will not move (or not by itself), one whose name a report cut
short, and one whose IO was not all measured get no move, no hint and no
saving; every reason is worded from the action actually taken.
"""

from __future__ import annotations

import math
import unittest

import numpy as np

from apps.tiering.rules import ACTIONS, Columns, advise, decide
from tests.tiering.rule_figures import figures, reason_text


def served_by_the_flash_cache_moving_to_hicap(*, intensity: float):
    """Mostly in the flash cache, which serves most of its reads; cost moves it to hi-cap disk."""
    return figures(recommended_tier="HICAP", recommended_is_flash=False, intensity=intensity,
                   flash_cache_enabled=True, flash_blocks=200_000, optimized_physical_reads=700_000)


class NotMovableTests(unittest.TestCase):
    def test_it_never_moves_a_dictionary_object_and_says_why(self) -> None:
        advice = advise(figures(owner="SYS", object_name="IDL_UB2$"))

        self.assertEqual((advice.action, advice.recommended_tier), ("not_movable", "FAST_DISK"))
        self.assertIsNone(advice.flash_cache_hint)
        self.assertEqual(advice.codes[0], "not_movable")
        self.assertIn("data dictionary object", reason_text(advice, "not_movable"))
        self.assertTrue(reason_text(advice, "cheaper_tier").startswith("By cost alone, FLASH"))

    def test_it_says_not_movable_even_when_cost_would_keep_it(self) -> None:
        advice = advise(figures(owner="SYS", object_name="OBJ$", recommended_tier="FAST_DISK",
                                recommended_is_flash=False))
        self.assertEqual(advice.action, "not_movable")

    def test_it_keeps_aq_cluster_and_iot_segments_out_of_moves(self) -> None:
        for name, kind in (("AQ$_ORDERS_QT_I", "INDEX"), ("EMP_DEPT", "CLUSTER"), ("SYS_IOT_TOP_91234", "INDEX")):
            with self.subTest(name=name):
                advice = advise(figures(object_name=name, object_type=kind))
                self.assertEqual(advice.action, "not_movable")
                self.assertIn("not_movable", advice.codes)

    def test_it_moves_a_lob_index_only_with_its_lob(self) -> None:
        advice = advise(figures(object_name="SYS_IL0000087654C00003$$", object_type="LOBINDEX"))

        self.assertEqual((advice.action, advice.recommended_tier), ("not_movable", "FAST_DISK"))
        self.assertIn("moves it with its LOB segment", reason_text(advice, "moves_with_lob"))

    def test_it_holds_a_segment_whose_name_was_cut_short(self) -> None:
        advice = advise(figures(object_name="WRH$_ACTIVE_SESSION_HISTO", name_truncated=True))

        self.assertEqual(advice.action, "not_movable")
        self.assertIn("cut short", reason_text(advice, "name_truncated"))
        self.assertIn("resolve it", reason_text(advice, "name_truncated"))

    def test_it_offers_no_flash_cache_hint_on_a_segment_it_cannot_act_on(self) -> None:
        cold = figures(owner="SYS", object_name="WRH$_SQL_PLAN", recommended_tier="FAST_DISK",
                       recommended_is_flash=False, intensity=0.1, flash_blocks=100_000, flash_cache="KEEP")
        advice = advise(cold)
        self.assertEqual((advice.action, advice.flash_cache_hint), ("not_movable", None))
        self.assertNotIn("flash_cache_none", advice.codes)


class UnmeasuredTests(unittest.TestCase):
    def test_it_never_moves_a_segment_whose_io_was_not_all_measured(self) -> None:
        # Listed only under "Segments by Logical Reads": 0 requests counted, cost says hi-cap disk.
        advice = advise(figures(read_requests=0, write_requests=0, iops=0.0, intensity=0.0,
                                recommended_tier="HICAP", recommended_is_flash=False,
                                unmeasured=True, reads_unmeasured=True, writes_unmeasured=True))

        self.assertEqual((advice.action, advice.recommended_tier), ("keep", "FAST_DISK"))
        for named in ("read and write requests", "nopack", "V$SEGSTAT", "topnsql", "SQL only"):
            self.assertIn(named, reason_text(advice, "unmeasured"))

    def test_it_shows_the_bound_the_source_gives(self) -> None:
        advice = advise(figures(iops=None, intensity=None, unmeasured=True, reads_unmeasured=True,
                                writes_unmeasured=False, iops_bound=42.5))
        text = reason_text(advice, "unmeasured")
        self.assertIn("≤ 42.5 IO/s", text)
        self.assertIn("read requests", text)
        self.assertNotIn("write requests", text)
        self.assertEqual(advice.action, "keep")

    def test_it_says_so_when_the_source_gives_no_bound(self) -> None:
        advice = advise(figures(iops=None, intensity=None, unmeasured=True))
        self.assertIn("no bound", reason_text(advice, "unmeasured"))
        self.assertIn("read or write requests", reason_text(advice, "unmeasured"))

    def test_columns_default_to_measured_and_movable_for_callers_that_do_not_say(self) -> None:
        one = np.ones(1)
        no = np.zeros(1, dtype=bool)
        columns = Columns(
            is_undo=no, is_temp=no, is_lob=no, is_partition=no, size_bytes=one * 2**30, read_requests=one * 1e6,
            write_requests=one, physical_reads_blocks=one * 1e6, physical_reads_direct_blocks=0 * one,
            optimized_physical_reads=0 * one, table_scans=0 * one, iops=one * 500, intensity=one * 500,
            current_is_flash=no, recommended_is_flash=~no, cost_moves=~no, flash_blocks=one * math.nan,
            block_size_bytes=one * 8192, flash_cache=np.zeros(1, dtype=np.int8), flash_cache_enabled=no,
            below_awr_capture=no, skewed=no,
        )
        self.assertEqual(columns.unmeasured.tolist(), [False])
        self.assertTrue(np.isnan(columns.iops_bound).all())
        self.assertEqual(columns.movability.tolist(), [0])
        self.assertEqual(ACTIONS[decide(columns).action[0]], "move")


class ReasonsAgreeWithActionTests(unittest.TestCase):
    def assert_reason(self, advice, code: str, *, says: str, never: str) -> None:
        """``advice``'s reason ``code`` says ``says`` and never ``never``."""
        text = reason_text(advice, code)
        self.assertIn(says, text)
        self.assertNotIn(never, text)

    def test_it_does_not_speak_of_flash_speeding_writes_on_a_move_to_disk(self) -> None:
        # ORDERS_P2025_12 in the demo: the flash cache serves its reads; cost moves it to hi-cap disk.
        advice = advise(served_by_the_flash_cache_moving_to_hicap(intensity=1.0))

        self.assertEqual((advice.action, advice.recommended_tier), ("move", "HICAP"))
        self.assert_reason(advice, "already_resident", says="its reads stay fast on HICAP once the flash cache holds",
                           never="moving it to flash")

    def test_it_says_reads_are_fast_already_when_the_segment_stays(self) -> None:
        advice = advise(figures(recommended_tier="FAST_DISK", recommended_is_flash=False, intensity=5.0,
                                flash_cache_enabled=True, flash_blocks=200_000, optimized_physical_reads=700_000))
        self.assertEqual(advice.action, "keep")
        self.assert_reason(advice, "already_resident", says="fast already", never="moving it to flash")

    def test_it_still_says_a_move_to_flash_mainly_speeds_writes_when_that_is_the_move(self) -> None:
        advice = advise(figures(flash_cache_enabled=True, flash_blocks=200_000, optimized_physical_reads=700_000))
        self.assertEqual(advice.action, "move")
        self.assertIn("moving it to flash would mainly speed up its writes", reason_text(advice, "already_resident"))

    def test_it_tells_a_write_heavy_segment_it_keeps_to_a_flash_tablespace_only_if_it_moves(self) -> None:
        vetoed = advise(figures(read_requests=100_000, write_requests=260_000, physical_reads_blocks=100_000 * 32))
        self.assertNotEqual(vetoed.action, "move")
        self.assertNotIn("move it to a flash tablespace on FLASH", reason_text(vetoed, "write_heavy"))

    def test_a_flash_cache_none_on_a_segment_moving_to_flash_says_where_it_goes(self) -> None:
        # INVENTORIES in the demo: write-heavy, in the flash cache, moved to flash by cost.
        advice = advise(figures(read_requests=100_000, write_requests=400_000, physical_reads_blocks=100_000,
                                flash_blocks=100_000))

        self.assertEqual((advice.action, advice.flash_cache_hint), ("move", "NONE"))
        self.assertIn("moving to flash (FLASH)", reason_text(advice, "flash_cache_none"))

    def test_it_does_not_promise_flash_cache_reads_after_a_move_that_sets_none(self) -> None:
        # ORDERS_P2025_12 in the demo: cold, served by the flash cache, moved to hi-cap disk with FLASH_CACHE NONE.
        advice = advise(served_by_the_flash_cache_moving_to_hicap(intensity=0.5))

        self.assertEqual((advice.action, advice.flash_cache_hint), ("move", "NONE"))
        self.assert_reason(advice, "already_resident", says="FLASH_CACHE NONE", never="stay fast")
