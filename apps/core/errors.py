"""Error wording shared by the apps."""

from __future__ import annotations


def first_line(exc: BaseException) -> str:
    """The first line of an exception's message (drivers add context lines), or its type when it has none.

    >>> first_line(ValueError("connection refused\\nIs the server running?"))
    'connection refused'
    >>> first_line(TimeoutError())
    'TimeoutError'
    """
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
