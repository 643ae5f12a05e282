"""unittest's assertLogs for the pytest-style test classes (they are not TestCase subclasses)."""

from __future__ import annotations

import unittest


def assert_logs(logger: str, level: str = "INFO"):
    """A context manager that fails unless ``logger`` (or a child) logs at ``level`` or above; ``.records``."""
    return unittest.TestCase().assertLogs(logger, level)
