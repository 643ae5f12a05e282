"""Tuning the SQL that drives a segment against moving it (apps.tiering.moves.sqldrive, pure)."""

from __future__ import annotations

import unittest

from apps.tiering.moves.sqldrive import StatementReads, tuning_note

DAY = 86400.0


def scan(reads: int = 800_000, executions: int = 100, full_scan: bool | None = True) -> StatementReads:
    return StatementReads("8fz2kq1m4d7xa", reads, executions, full_scan, DAY)


def note(statements, *, segment_reads=1_000_000.0, latency=12.0, saved=5_000.0):
    return tuning_note(statements=statements, segment_reads_per_day=segment_reads, read_latency_ms=latency,
                       move_saved_s_per_day=saved, segment="SOE.ORDERS.ORDERS_P2026_11")


class TuningNoteTests(unittest.TestCase):
    def test_it_says_tune_when_a_full_scan_costs_more_than_the_move_saves(self) -> None:
        result = note([scan()])
        # 800,000 reads a day at 12 ms: 9,600 s of IO time, against 5,000 s the move saves.
        self.assertIsNotNone(result)
        self.assertAlmostEqual(result.io_s_per_day, 9600.0)
        self.assertAlmostEqual(result.share, 0.8)
        self.assertIn("SQL_ID 8fz2kq1m4d7xa full-scans SOE.ORDERS.ORDERS_P2026_11", result.text)
        self.assertIn("80% of its reads", result.text)
        self.assertIn("Moving the segment saves about 1 h 23 min a day", result.text)

    def test_it_says_nothing_when_the_move_saves_more(self) -> None:
        self.assertIsNone(note([scan()], saved=10_000.0))

    def test_it_says_nothing_for_a_statement_with_a_minority_of_the_reads(self) -> None:
        self.assertIsNone(note([scan(reads=400_000)]))

    def test_it_says_nothing_for_key_lookups(self) -> None:
        self.assertIsNone(note([scan(executions=700_000, full_scan=False)]))

    def test_it_takes_many_reads_per_execution_as_a_scan(self) -> None:
        result = note([scan(executions=100, full_scan=None)])
        self.assertIsNotNone(result)
        self.assertIn("SQL_ID 8fz2kq1m4d7xa reads", result.text)
        self.assertIn("8,000 read requests per execution", result.text)

    def test_it_leaves_out_a_statement_costing_a_few_minutes_a_day(self) -> None:
        # 20,000 reads at 12 ms: 240 s a day, under MIN_IO_S_PER_DAY, even with a move that saves nothing.
        self.assertIsNone(note([scan(reads=20_000)], segment_reads=25_000.0, saved=0.0))
        self.assertIn("The time is in the statement.", note([scan()], saved=0.0).text)

    def test_it_weighs_an_unknown_move_saving_as_no_match(self) -> None:
        result = note([scan()], saved=None)
        self.assertIn("What moving the segment would save is not known", result.text)

    def test_it_needs_a_latency_and_the_segments_reads(self) -> None:
        self.assertIsNone(note([scan()], latency=None))
        # Without the segment's reads, the share is taken among listed statements only when all are known.
        self.assertIsNotNone(note([scan(), StatementReads("b7rjq3w0yk5cd", 100_000, 90_000, False, DAY)],
                                  segment_reads=None))
        self.assertIsNone(note([scan(), StatementReads("b7rjq3w0yk5cd", None, 90_000, False, DAY)],
                               segment_reads=None))

    def test_it_spreads_a_window_over_its_days(self) -> None:
        week = StatementReads("8fz2kq1m4d7xa", 7 * 800_000, 700, True, 7 * DAY)
        self.assertAlmostEqual(note([week]).reads_per_day, 800_000.0)
