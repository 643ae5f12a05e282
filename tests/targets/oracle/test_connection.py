"""Pool per process (forgotten after fork), call timeout, arraysize, release in finally."""

from __future__ import annotations

import os
import unittest
from unittest import mock

from apps.targets.oracle import connection

from .fakes import FakeConnect, load_recording


class PoolTests(unittest.TestCase):
    def setUp(self) -> None:
        connection._pools.clear()
        self.addCleanup(connection._pools.clear)

    def test_it_creates_one_pool_lazily_per_target(self) -> None:
        with mock.patch.object(connection.oracledb, "create_pool", side_effect=lambda **kw: object()) as create:
            self.assertEqual(connection.pool_count(), 0)
            first = connection.pool_for(dsn="db1/PROD", user="TS", password="p")
            again = connection.pool_for(dsn="db1/PROD", user="TS", password="p")
            other = connection.pool_for(dsn="db2/SALES", user="TS", password="p")
        self.assertIs(first, again)
        self.assertIsNot(first, other)
        self.assertEqual(create.call_count, 2)
        kwargs = create.call_args.kwargs
        self.assertEqual((kwargs["dsn"], kwargs["getmode"]), ("db2/SALES", connection.oracledb.POOL_GETMODE_TIMEDWAIT))

    def test_it_forgets_pools_in_a_forked_child(self) -> None:
        connection._pools[("db1/PROD", "TS", "p")] = object()  # type: ignore[assignment]
        pid = os.fork()
        if pid == 0:  # child: the registry must be empty, without touching the parent's pool
            os._exit(0 if connection.pool_count() == 0 else 1)
        _pid, status = os.waitpid(pid, 0)
        self.assertEqual(os.waitstatus_to_exitcode(status), 0)
        self.assertEqual(connection.pool_count(), 1)  # the parent keeps its own


class CursorTests(unittest.TestCase):
    def test_it_sets_limits_and_releases_the_connection(self) -> None:
        connect = FakeConnect(load_recording("single_nopack"))
        with connection.oracle_cursor(dsn="d", user="u", password="p", connect=connect) as cursor:
            self.assertEqual(cursor.arraysize, connection.ARRAYSIZE)
        [conn] = connect.connections
        self.assertEqual(conn.call_timeout, connection.CALL_TIMEOUT_MS)
        self.assertTrue(conn.closed and cursor.closed)

    def test_it_releases_the_connection_when_work_fails(self) -> None:
        connect = FakeConnect(load_recording("single_nopack"))
        with self.assertRaises(RuntimeError):
            with connection.oracle_cursor(dsn="d", user="u", password="p", connect=connect):
                raise RuntimeError("boom")
        self.assertTrue(connect.connections[0].closed)
