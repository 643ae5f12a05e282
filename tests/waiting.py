"""The one way a test waits: poll a state until it holds, with a deadline; never a fixed sleep."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def wait_for(predicate: Callable[[], Any], *, timeout_s: float, what: str, every_s: float = 0.25,
             ignoring: tuple[type[BaseException], ...] = ()) -> Any:
    """Poll until ``predicate()`` is truthy and return its value; AssertionError naming ``what`` after ``timeout_s``.

    ``ignoring``: exceptions that count as "not yet" (a service the test stopped on purpose is away).
    """
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            value = predicate()
        except ignoring:
            value = None
        if value:
            return value
        if time.monotonic() >= deadline:
            raise AssertionError(f"timed out after {timeout_s:g} s waiting for {what}")
        time.sleep(every_s)
