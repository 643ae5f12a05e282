"""Standalone connection per run: call timeout, run deadline, arraysize, close in finally."""

from __future__ import annotations

import unittest
from unittest import mock

from apps.targets.oracle import connection
from apps.targets.oracle.connection import Deadline, Limits, OracleTimeout
from tests.waiting import wait_for

from .fakes import FakeConnect, load_recording

INSTANCE_SQL = "SELECT 1 FROM DUAL"


class CursorTests(unittest.TestCase):
    def test_it_sets_limits_and_closes_the_connection(self) -> None:
        connect = FakeConnect(load_recording("single_nopack"))
        with connection.oracle_cursor(dsn="d", user="u", password="p", connect=connect) as cursor:
            self.assertEqual(cursor.arraysize, connection.ARRAYSIZE)
        [conn] = connect.connections
        self.assertEqual(conn.call_timeout, connection.CALL_TIMEOUT_MS)
        self.assertTrue(conn.closed and connect.cursor.closed)

    def test_it_closes_the_connection_when_work_fails(self) -> None:
        connect = FakeConnect(load_recording("single_nopack"))
        with self.assertRaises(RuntimeError):
            with connection.oracle_cursor(dsn="d", user="u", password="p", connect=connect):
                raise RuntimeError("boom")
        self.assertTrue(connect.connections[0].closed)

    def test_it_keeps_no_pool(self) -> None:
        # A pool's background thread is what outlived a run against a hung listener.
        self.assertFalse(hasattr(connection, "pool_for"))
        with mock.patch.object(connection.oracledb, "create_pool") as create_pool:
            connect = FakeConnect(load_recording("single_nopack"))
            with connection.oracle_cursor(dsn="d", user="u", password="p", connect=connect):
                pass
        create_pool.assert_not_called()


class DeadlineTests(unittest.TestCase):
    def cursor(self, *, run_s: float, call_ms: int) -> tuple[connection.DeadlineCursor, mock.Mock]:
        conn = mock.Mock(call_timeout=0)
        cursor = connection.DeadlineCursor(conn, mock.Mock(), deadline=Deadline(run_s), call_timeout_ms=call_ms)
        return cursor, conn

    def test_it_shortens_the_call_timeout_to_what_is_left_of_the_run(self) -> None:
        cursor, conn = self.cursor(run_s=3.0, call_ms=120_000)
        cursor.execute(INSTANCE_SQL)
        self.assertLessEqual(conn.call_timeout, 3000)
        self.assertGreater(conn.call_timeout, 2500)

    def test_it_keeps_the_call_timeout_when_the_run_has_time(self) -> None:
        cursor, conn = self.cursor(run_s=600.0, call_ms=2000)
        cursor.fetchall()
        self.assertEqual(conn.call_timeout, 2000)

    def test_it_refuses_a_call_after_the_deadline(self) -> None:
        cursor, _conn = self.cursor(run_s=0.01, call_ms=2000)
        wait_for(lambda: cursor._deadline.remaining_s() <= 0, timeout_s=5, every_s=0.005, what="the run's deadline")
        with self.assertRaises(OracleTimeout) as caught:
            cursor.execute(INSTANCE_SQL)
        self.assertEqual((caught.exception.phase, caught.exception.limit_s), ("run", 0.01))

    def test_it_names_a_call_cut_short_by_the_deadline_as_the_run_timeout(self) -> None:
        cursor, _conn = self.cursor(run_s=0.05, call_ms=120_000)

        def slow_then_driver_timeout(*_args: object) -> None:
            # A call that lasts past the run's deadline.
            wait_for(lambda: cursor._deadline.remaining_s() <= 0, timeout_s=5, every_s=0.005, what="the deadline")
            raise connection.oracledb.DatabaseError("DPY-4024: call timeout of 50 ms exceeded")

        cursor._cursor.execute.side_effect = slow_then_driver_timeout
        with self.assertRaises(OracleTimeout) as caught:
            cursor.execute(INSTANCE_SQL)
        self.assertEqual(caught.exception.phase, "run")

    def test_it_bounds_the_connect_by_what_is_left_of_the_run(self) -> None:
        with mock.patch.object(connection, "bounded_connect", side_effect=OracleTimeout("connect", 1)) as opened:
            with self.assertRaises(OracleTimeout):
                with connection.oracle_cursor(dsn="d", user="u", password="p",
                                              limits=Limits(connect_timeout_s=20, run_timeout_s=2)):
                    pass
        self.assertLessEqual(opened.call_args.kwargs["timeout_s"], 2)
