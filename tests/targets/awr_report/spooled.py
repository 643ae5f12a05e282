"""A report as SQL*Plus spools it: cut into lines of the session's LINESIZE, wherever the cut falls."""

from __future__ import annotations


def sqlplus_wrap(document: str, width: int = 132) -> str:
    """``document`` as SQL*Plus spools it with SET LINESIZE ``width`` and WRAP ON: each line cut every
    ``width`` characters, wherever that falls (inside a tag, a number or a word)."""
    wrapped: list[str] = []
    for line in document.split("\n"):
        wrapped.extend([line[at : at + width] for at in range(0, len(line), width)] or [""])
    return "\n".join(wrapped)
