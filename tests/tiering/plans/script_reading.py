"""A plan's SQL*Plus script read back as SQL*Plus reads it: the lines before its first step, each step's
statements, and patterns that recognise a table or partition move, an index rebuild and a flash cache hint.
Pure: no database."""

from __future__ import annotations

import re


def parsed_steps(script: str) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """(the lines before the first step, [(step PROMPT, its statements)]) as SQL*Plus reads the script."""
    head, steps = [], []
    for line in script.splitlines():
        if line.startswith("PROMPT step "):
            steps.append((line, []))
        elif steps and not line.startswith(("--", "PROMPT", "SPOOL", "EXIT")):
            steps[-1][1].append(line)
        elif not steps:
            head.append(line)
    return head, steps


MOVE = re.compile(r'^ALTER TABLE "APP"\."(?P<table>[^"]+)" MOVE (?:PARTITION "(?P<part>[^"]+)" )?'
                  r'(?:ONLINE )?(?:LOB \("(?P<lob>[^"]+)"\) STORE AS )?')
REBUILD = re.compile(r'^ALTER INDEX "APP"\."(?P<index>[^"]+)" REBUILD')
HINT = re.compile(r"STORAGE \(FLASH_CACHE (KEEP|NONE)\)")
