"""HTML reports spooled through SQL*Plus with every line hard-wrapped at a fixed width.

With ``SET LINESIZE 132`` (and WRAP ON) SQL*Plus cuts each line of an
awrrpt.sql HTML report every 132 characters, wherever the cut falls: inside a
tag (``</t`` / ``d>``), a number (``12.2.0`` / ``.1.0``) or a word. The cut adds
a line break that was not in the report, and in HTML a line break is
whitespace, so the pieces must be joined without one. Every piece but a line's
last is exactly the wrap width long; joining each line of that length to the
next undoes the wrap. A line of the original that happened to be exactly that
long loses its line break too, which costs at most a space between two tags.

A report is taken as wrapped only when no line is longer than the longest
one (the width) and at least one line of that width ends inside a tag: awrrpt
writes whole tags on every line, so an unwrapped report never does.
"""

from __future__ import annotations

import re

#: Narrower "wraps" are not SQL*Plus line sizes (its minimum is 1, but no one spools HTML at 40).
MIN_WRAP_WIDTH = 40
#: awrrpt's own lines reach thousands of characters; SQL*Plus's LINESIZE is at most 32767.
MAX_WRAP_WIDTH = 32767
_LONGER_THAN_MAX_RE = re.compile(r"[^\n]{" + str(MAX_WRAP_WIDTH + 2) + ",}")  # a width, and a \r


def wrap_width(document: str) -> int | None:
    """The width ``document`` was hard-wrapped at, or None when it was not.

    >>> wrap_width("<td>" + "x" * 35 + "</t\\nd>\\n")
    42
    >>> wrap_width("<td>" + "x" * 35 + "</td>\\n<td></td>\\n") is None
    True
    """
    if _LONGER_THAN_MAX_RE.search(document):
        return None
    lines = document.split("\n")
    lengths = [len(line) - line.endswith("\r") for line in lines]
    width = max(lengths, default=0)
    if width < MIN_WRAP_WIDTH:
        return None
    cut = any(length == width and _ends_inside_tag(line) for line, length in zip(lines, lengths, strict=True))
    return width if cut else None


def unwrap(document: str, width: int) -> str:
    """``document`` with every line of exactly ``width`` characters joined to the next, no space between.

    >>> unwrap("<html><bo\\ndy></body>\\n</html>", 9)
    '<html><body></body>\\n</html>'
    """
    pieces: list[str] = []
    for line in document.split("\n"):
        text = line[:-1] if line.endswith("\r") else line
        pieces.append(text)
        pieces.append("" if len(text) == width else "\n")
    if pieces:
        pieces.pop()  # no line break after the last line: split() gave one line more than breaks
    return "".join(pieces)


def _ends_inside_tag(line: str) -> bool:
    text = line.rstrip("\r")
    return text.rfind("<") > text.rfind(">")
