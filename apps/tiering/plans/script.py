"""A plan's exports: the SQL*Plus script a DBA runs, and the CSV of its steps.

The script stops at the first error (``WHENEVER SQLERROR EXIT FAILURE``), times every statement
(``SET TIMING ON``), spools to a log named after the plan, and runs nothing before a PL/SQL block
(sql/dbid_check.sql) has compared ``V$DATABASE.DBID`` with the plan's DBID and raised on any other
database. Substitution is switched off (``SET DEFINE OFF``) right after that check, so a name with
``&`` in it reaches Oracle as spelled. Each step is announced with ``PROMPT step N of M``; its
statements are the ones stored with the step (apps.tiering.ddl).

Pure: standard library and apps.tiering.csvsafe (through apps.tiering.recommendations.export_cells) only.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from itertools import islice
from pathlib import Path
from typing import Any, NamedTuple

from apps.tiering.plans.steps import PlanError, segment_label
from apps.tiering.recommendations.export_cells import csv_text

_SQL_DIR = Path(__file__).resolve().parent / "sql"


@cache
def read_sql(name: str) -> str:
    """The text of ``sql/<name>.sql`` beside this module (what the script runs on the target, as written)."""
    return (_SQL_DIR / f"{name}.sql").read_text(encoding="utf-8")


@dataclass(frozen=True)
class ScriptHeader:
    """What the script's head says: the plan, its target and database, its state and totals in words."""

    plan_id: int
    target: str
    dbid: int | None
    state: str
    lines: tuple[str, ...] = ()  # further facts, one comment line each (who created/approved it, totals)


class StepRow(NamedTuple):
    """One step as it is stored and as the exports read it (a tuple: 10k of them made and read at C speed)."""

    position: int
    phase: str
    kind: str
    owner: str
    object_name: str
    subobject_name: str
    object_type: str
    action: str
    from_tablespace: str
    to_tablespace: str
    to_tier: str
    runnable: bool
    ddl: str
    seconds: float | None
    redo_bytes: int | None
    size_bytes: int | None
    free_after_bytes: int | None
    shortfall_bytes: int | None
    saving_usd_per_month: Decimal | None
    move_cost_usd: Decimal | None
    payback_days: float | None
    container: str = ""

    @property
    def label(self) -> str:
        return segment_label(self.owner, self.object_name, self.subobject_name, self.object_type, self.container)


def spool_name(plan_id: int, target: str) -> str:
    """The log the script spools to (target names are letters, digits, '_', '.', '-' only)."""
    return f"tierscope_plan_{plan_id}_{target}.log"


def plan_script(header: ScriptHeader, steps: Iterable[StepRow]) -> str:
    """The SQL*Plus script of a plan (module doc). Refuses a plan whose DBID is unknown: its check
    could not tell the right database from another."""
    if header.dbid is None:
        raise PlanError(f"plan {header.plan_id}: the DBID of target {header.target} is not known "
                        "(no snapshot stored); a script without its database check is not written")
    steps = list(steps)
    out = [
        f"-- tierscope move plan {header.plan_id}: target {header.target}, DBID {header.dbid}",
        f"-- state: {header.state}",
        *(f"-- {_one_line(line)}" for line in header.lines),
        f"-- run it in SQL*Plus on that database as a user who may alter these segments; it logs to "
        f"{spool_name(header.plan_id, header.target)}",
        "WHENEVER OSERROR EXIT FAILURE",
        "WHENEVER SQLERROR EXIT FAILURE",
        "SET TIMING ON",
        "SET ECHO ON",
        "SET VERIFY OFF",
        "SET SERVEROUTPUT ON",
        f"SPOOL {spool_name(header.plan_id, header.target)}",
        f"DEFINE plan_id = {int(header.plan_id)}",
        f"DEFINE plan_dbid = {int(header.dbid)}",
        read_sql("dbid_check").rstrip("\n"),
        "SET DEFINE OFF",
    ]
    total = len(steps)
    for step in steps:
        out.append(f"PROMPT step {step.position} of {total} ({step.phase}): {_one_line(step.label)}"
                   f"{_destination(step)}")
        out.extend(line for line in step.ddl.splitlines() if line.strip())
    out += [f"PROMPT tierscope move plan {header.plan_id}: all {total} steps ran", "SPOOL OFF", "EXIT"]
    return "\n".join(out) + "\n"


def _destination(step: StepRow) -> str:
    if step.kind == "hint":
        return " flash cache hint"
    return f" to {_one_line(step.to_tablespace)} ({_one_line(step.to_tier)})" if step.to_tablespace else ""


def _one_line(text: str) -> str:
    # A PROMPT or comment line must stay one line, and a trailing '-' would continue it (SQL*Plus).
    flat = "".join(ch if ch.isprintable() else "?" for ch in text)
    return flat + "." if flat.endswith("-") else flat


CSV_HEADER = (
    "plan_id", "target", "dbid", "state", "step", "phase", "kind", "owner", "object_name", "subobject_name",
    "object_type", "action", "from_tablespace", "to_tablespace", "to_tier", "size_gb", "est_seconds",
    "redo_bytes", "free_after_bytes", "shortfall_bytes", "saving_usd_per_month", "move_cost_usd", "payback_days",
    "runnable", "ddl", "container",
)


#: Steps written at a time by plan_csv_parts.
CSV_PART_STEPS = 2000


def plan_csv(header: ScriptHeader, steps: Iterable[StepRow]) -> str:
    """The steps as CSV (csvsafe: no cell a spreadsheet evaluates); unknown figures are empty cells."""
    return "".join(plan_csv_parts(header, steps))


def plan_csv_parts(header: ScriptHeader, steps: Iterable[StepRow]) -> Iterator[str]:
    """plan_csv in parts of CSV_PART_STEPS steps, each made as its steps are read (a streamed download holds
    one part); the header first."""
    yield csv_text(CSV_HEADER, [], with_header=True)
    steps = iter(steps)
    while part := [plan_csv_row(header, step) for step in islice(steps, CSV_PART_STEPS)]:
        yield csv_text(CSV_HEADER, part, with_header=False)


def plan_csv_row(header: ScriptHeader, step: StepRow) -> tuple[Any, ...]:
    """One step's CSV_HEADER cells (before csvsafe quoting), sizes in GB."""
    size_gb = None if step.size_bytes is None else round(step.size_bytes / 1024**3, 3)
    return (
        header.plan_id, header.target, header.dbid, header.state, step.position, step.phase, step.kind, step.owner,
        step.object_name, step.subobject_name, step.object_type, step.action, step.from_tablespace,
        step.to_tablespace, step.to_tier, size_gb, step.seconds, step.redo_bytes, step.free_after_bytes,
        step.shortfall_bytes, step.saving_usd_per_month, step.move_cost_usd, step.payback_days, step.runnable,
        step.ddl, step.container,
    )
