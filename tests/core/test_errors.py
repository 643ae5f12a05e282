"""first_line: the one wording of an exception the pages and logs show."""

from __future__ import annotations

import doctest

from apps.core import errors


def test_its_examples_hold():
    assert doctest.testmod(errors).failed == 0


def test_it_keeps_the_first_line_of_a_driver_message():
    exc = ConnectionError('connection to server at "127.0.0.1", port 55432 failed: Connection refused\n'
                          "\tIs the server running on that host and accepting TCP/IP connections?")

    assert errors.first_line(exc).endswith("Connection refused")
