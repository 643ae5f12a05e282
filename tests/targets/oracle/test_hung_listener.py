"""The real python-oracledb Thin driver against a listener that accepts and never answers.

No mock: a local socket accepts the TCP connection and stays silent. Before the fix a check
waited as long as the listener held the socket (for ever in production) and left the pool's
two threads behind; now it fails within the configured connect limit, says what happened, and
leaves no thread.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
import unittest

from apps.targets.base import CheckStep, CollectState, SourceError
from apps.targets.oracle.connection import Limits
from apps.targets.oracle.source import OracleSource

from .listeners import HungListener, closed_port

UTC = dt.timezone.utc
CONNECT_S = 1.0
HOLD_S = 20.0  # how long the listener holds an accepted socket: an unbounded connect would wait that long
# Bounded by the limit, not by the hold: well under HOLD_S, however busy the machine (no tighter clock: a
# loaded CI machine took 3.4 s for a request of milliseconds).
BOUNDED_S = HOLD_S / 2
LIMITS = Limits(connect_timeout_s=CONNECT_S, call_timeout_ms=2000, run_timeout_s=5.0)


def state() -> CollectState:
    now = dt.datetime(2026, 1, 5, 12, 0, tzinfo=UTC)
    return CollectState(now=now, history_start_at=now - dt.timedelta(days=8))


def source(dsn: str) -> OracleSource:
    return OracleSource(dsn=dsn, user="TIERSCOPE", password="p", mode="nopack", limits=LIMITS, name="hung")


class HungListenerTests(unittest.TestCase):
    def setUp(self) -> None:
        self.listener = HungListener(hold_s=HOLD_S)
        self.listener.__enter__()
        self.addCleanup(self.listener.__exit__, None, None, None)
        self.threads_before = set(threading.enumerate())

    def assertNoThreadLeft(self) -> None:
        left = [thread.name for thread in set(threading.enumerate()) - self.threads_before]
        self.assertEqual(left, [])

    def test_it_fails_a_collection_within_the_connect_limit(self) -> None:
        started = time.monotonic()
        with self.assertRaises(SourceError) as caught:
            source(self.listener.dsn).collect(state())
        elapsed = time.monotonic() - started

        # Bounded by the limit, not by how long the listener holds the socket.
        self.assertGreaterEqual(elapsed, CONNECT_S * 0.9)
        self.assertLess(elapsed, BOUNDED_S)
        # Transient (the collection policy retries it), and it says what happened.
        error = caught.exception
        self.assertFalse(error.permanent)
        self.assertIn(f"{self.listener.dsn} accepted the connection but did not answer within 1 s", str(error))
        self.assertIn("listener hung or a firewall dropping packets", str(error))
        # No thread outlives the attempt, and the socket was closed on our side.
        self.assertNoThreadLeft()
        self.assertEqual(self.listener.accepted(), 1)
        self.assertTrue(self.listener.peer_closed())

    def test_it_reports_the_failed_connect_step_of_a_check(self) -> None:
        steps: list[CheckStep] = []
        started = time.monotonic()
        findings = source(self.listener.dsn).check(report=steps.append)
        elapsed = time.monotonic() - started

        self.assertLess(elapsed, BOUNDED_S)
        self.assertEqual([(step.step, step.ok) for step in steps], [("connect", False)])
        self.assertIn("did not answer within 1 s", steps[0].detail)
        self.assertEqual(findings, [steps[0].detail])
        self.assertNoThreadLeft()

    def test_it_fails_fast_with_its_own_message_when_the_port_is_closed(self) -> None:
        dsn = f"127.0.0.1:{closed_port()}/GONE"
        started = time.monotonic()
        with self.assertRaises(SourceError) as caught:
            source(dsn).collect(state())
        elapsed = time.monotonic() - started

        self.assertLess(elapsed, 0.5)
        self.assertFalse(caught.exception.permanent)
        self.assertIn(f"{dsn} refused the connection", str(caught.exception))
        self.assertNotIn("did not answer", str(caught.exception))
        self.assertNoThreadLeft()


class HungListenerUnderARunningLoopTests(unittest.TestCase):
    """A caller whose thread already runs an event loop (an async framework; Playwright in the browser
    tests) gets the same bounded failure, and still no thread left behind."""

    def test_it_fails_within_the_connect_limit_while_another_loop_runs(self) -> None:
        import asyncio

        with HungListener(hold_s=HOLD_S) as listener:
            before = set(threading.enumerate())

            async def from_a_running_loop() -> SourceError:
                try:
                    source(listener.dsn).collect(state())
                except SourceError as error:
                    return error
                raise AssertionError("the collection did not fail")

            outcome: dict[str, object] = {}

            def thread_running_a_loop() -> None:  # its own thread: whatever loop this one may run
                outcome["error"] = asyncio.run(from_a_running_loop())

            started = time.monotonic()
            caller = threading.Thread(target=thread_running_a_loop)
            caller.start()
            caller.join(timeout=10)
            elapsed = time.monotonic() - started
            error = outcome["error"]

        self.assertLess(elapsed, BOUNDED_S)
        self.assertIn("did not answer within 1 s", str(error))
        self.assertEqual([t.name for t in set(threading.enumerate()) - before], [])
