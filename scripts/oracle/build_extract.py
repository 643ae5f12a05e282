"""Build scripts/oracle/tierscope_extract.sql from apps/targets/oracle/sql/*.sql.

The offline extract runs the very statements the live source runs, so it is generated, never
edited: ``python scripts/oracle/build_extract.py`` rewrites it, ``--check`` fails if the
committed script differs (a test does the same).

CSV approach: every statement is wrapped as ``SELECT '"' || REPLACE(TO_CHAR(col), '"', '""')
|| '","' || ... FROM (<statement>)`` and spooled with HEADING OFF, so the script works with any
SQL*Plus (SET MARKUP CSV ON needs a 12.2 client, and 11.2 databases, the main users of the
extract, usually come with older ones). Dates and timestamps are formatted by the session's
NLS formats, set to ISO 8601 by the script. A row line must stay under 4000 bytes (VARCHAR2
limit of the concatenation); tierscope's rows are far shorter.

A statement that selects a LONG column (HIGH_VALUE; its header says ``-- Long columns: HIGH_VALUE``)
cannot be wrapped so: no SQL function takes a LONG. It is spooled by a PL/SQL loop over the same
statement instead, which reads the LONG into a VARCHAR2 (PL/SQL allows 32760 bytes) and prints each
line with DBMS_OUTPUT (SERVEROUTPUT on, lines up to 32767 bytes).

Statements are switched on or off by a substitution-variable prefix on each of their lines
(``&gate.``): "" runs the line, "--" turns it into a comment. pack_*.sql statements carry
``&gate_pack.``, which is "--" in nopack mode, so nopack never sends them to the database.
Release and RAC variants carry their own gate and spool to the noun's file name.

Statements a monitoring user may be refused (``room.REFUSABLE_STATEMENTS``: the room views, which fall
back to others) run under WHENEVER SQLERROR CONTINUE: their file then holds the ORA- error instead of
rows, the import notes it and falls back, and the rest of the extract still runs.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import sqlglot

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from apps.targets.oracle import queries  # noqa: E402
from apps.targets.oracle.features import RELEASE_VARIANTS  # noqa: E402
from apps.targets.oracle.room import REFUSABLE_STATEMENTS  # noqa: E402

OUTPUT = REPO / "scripts" / "oracle" / "tierscope_extract.sql"

#: Variant stem -> (gate variable, CSV name). Everything else: ungated (or gate_pack), "<stem>.csv".
RAC_VARIANTS = {"residency": "gate_residency", "residency_rac": "gate_residency_rac"}
CSV_NOUN = {"residency_rac": "residency"}

#: Bind -> (VARIABLE type, EXEC assignment). Every :bind of every statement must be here.
BINDS: dict[str, tuple[str, str]] = {
    "dbid": ("NUMBER", "EXEC SELECT dbid INTO :dbid FROM v$database"),
    "last_snap_id": ("NUMBER", "EXEC :last_snap_id := 0"),
    "begin_at": (
        "VARCHAR2(30)",
        "EXEC :begin_at := TO_CHAR(CAST(SYSDATE - &days AS TIMESTAMP), 'YYYY-MM-DD\"T\"HH24:MI:SS.FF3')",
    ),
    # ASH over the snapshots of the history read (pack_ash_segment_sql.sql); the limits are those of
    # apps.targets.oracle.segment_sql (TOP_SQL_PER_SEGMENT, TOP_SEGMENTS, TOP_STATEMENTS).
    "after_snap_id": (
        "NUMBER",
        "EXEC SELECT NVL(MIN(snap_id), 1) - 1 INTO :after_snap_id FROM dba_hist_snapshot "
        "WHERE dbid = :dbid AND end_interval_time >= CAST(SYSDATE - &days AS TIMESTAMP)",
    ),
    "through_snap_id": (
        "NUMBER",
        "EXEC SELECT NVL(MAX(snap_id), 0) INTO :through_snap_id FROM dba_hist_snapshot WHERE dbid = :dbid",
    ),
    "top_sql": ("NUMBER", "EXEC :top_sql := 5"),
    "top_segments": ("NUMBER", "EXEC :top_segments := 300"),
    "top_statements": ("NUMBER", "EXEC :top_statements := 200"),
}
_BIND = re.compile(r"(?<![:\w]):([a-z_][a-z0-9_]*)", re.IGNORECASE)
_LONG_COLUMNS = re.compile(r"^--\s*Long columns:\s*(.+)$", re.IGNORECASE | re.MULTILINE)


@dataclass(frozen=True)
class ExtractStatement:
    """One statement as the extract runs it."""

    stem: str
    csv_name: str
    gate: str  # substitution variable that comments it out, "" when always run
    columns: tuple[str, ...]
    body: str  # statement without its header comment
    long_columns: tuple[str, ...] = ()  # LONG columns: spooled by a PL/SQL loop (see module doc)


def release_gates() -> dict[str, tuple[str, int, int | None]]:
    """Variant stem -> (gate variable, lowest release as major*100+minor, next variant's or None)."""
    gates: dict[str, tuple[str, int, int | None]] = {}
    for variants in RELEASE_VARIANTS.values():
        upper: int | None = None
        for lowest, stem in variants:  # newest first
            low = lowest[0] * 100 + lowest[1]
            gates[stem] = (f"gate_{stem}", low, upper)
            upper = low
    return gates


def csv_name(stem: str) -> str:
    """The CSV file a statement spools to: release/RAC variants share their noun's file."""
    for noun, variants in RELEASE_VARIANTS.items():
        if stem in {variant for _lowest, variant in variants}:
            return f"{noun}.csv"
    return f"{CSV_NOUN.get(stem, stem)}.csv"


def output_columns(sql: str, stem: str) -> tuple[str, ...]:
    """Column names the statement returns (upper case, as Oracle reports unquoted aliases)."""
    names = sqlglot.parse_one(sql, read="oracle").named_selects
    if not names or any(not name for name in names):
        raise ValueError(f"{stem}.sql: every selected expression needs a name (alias)")
    return tuple(name.upper() for name in names)


def statement_body(sql: str) -> str:
    """The statement without its leading header comment lines."""
    lines = sql.splitlines()
    while lines and lines[0].lstrip().startswith("--"):
        lines.pop(0)
    return "\n".join(lines)


def extract_statements() -> tuple[ExtractStatement, ...]:
    """Every sql/ statement with its gate, CSV name and columns, checked for unknown binds."""
    gates = release_gates()
    result = []
    for stem in queries.statement_stems():
        sql = queries._read_sql(stem)
        for bind in _BIND.findall(statement_body(sql)):
            if bind.lower() not in BINDS:
                raise ValueError(f"{stem}.sql: bind :{bind} has no VARIABLE/EXEC in build_extract.BINDS")
        if any(line.startswith("#") for line in sql.splitlines()):
            raise ValueError(f"{stem}.sql: a line starting with '#' would run as a SQL*Plus command")
        if "&" in sql:
            raise ValueError(f"{stem}.sql: '&' would be taken as a SQL*Plus substitution variable")
        if queries.is_pack_statement(stem):
            gate = "gate_pack"
        elif stem in gates:
            gate = gates[stem][0]
        else:
            gate = RAC_VARIANTS.get(stem, "")
        columns = output_columns(sql, stem)
        longs = tuple(name.strip().upper() for match in _LONG_COLUMNS.findall(sql) for name in match.split(","))
        if set(longs) - set(columns):
            raise ValueError(f"{stem}.sql: long columns {sorted(set(longs) - set(columns))} are not selected")
        result.append(ExtractStatement(stem, csv_name(stem), gate, columns, statement_body(sql), longs))
    return tuple(result)


def _csv_select(statement: ExtractStatement) -> list[str]:
    if statement.long_columns:
        return _csv_loop(statement)
    cells = [f"REPLACE(TO_CHAR(q.{column}), '\"', '\"\"')" for column in statement.columns]
    joined = "\n       || '\",\"' || ".join(cells)
    return [f"SELECT '\"' || {joined}\n       || '\"' AS csv_line", "FROM ("] + statement.body.splitlines() + [") q", "/"]


def _csv_loop(statement: ExtractStatement) -> list[str]:
    """The PL/SQL spool of a statement with LONG columns: a LONG is read as VARCHAR2 in PL/SQL."""
    cells = [f"REPLACE(q.{column}, '\"', '\"\"')" if column in statement.long_columns
             else f"REPLACE(TO_CHAR(q.{column}), '\"', '\"\"')" for column in statement.columns]
    joined = "\n      || '\",\"' || ".join(cells)
    return (["BEGIN", "  FOR q IN ("] + statement.body.splitlines()
            + ["  ) LOOP", f"    DBMS_OUTPUT.PUT_LINE('\"' || {joined}\n      || '\"');", "  END LOOP;", "END;", "/"])


def _gated(lines: list[str], gate: str) -> list[str]:
    prefix = f"&{gate}." if gate else ""
    # Every physical line: one left ungated would run (or break the statement) when switched off.
    return [prefix + line for chunk in lines for line in chunk.splitlines()]


def _header(statements: tuple[ExtractStatement, ...]) -> list[str]:
    files: dict[str, ExtractStatement] = {}
    for statement in statements:
        files.setdefault(statement.csv_name, statement)
    lines = [
        "-- tierscope offline extract. GENERATED by scripts/oracle/build_extract.py from",
        "-- apps/targets/oracle/sql/*.sql: do not edit, rebuild.",
        "--",
        "-- Usage (the output directory must exist; any SQL*Plus from 10g on):",
        "--   sqlplus -S -L monitor_user/password@db @tierscope_extract.sql <awr|nopack> <days> <output_dir>",
        "--   e.g. sqlplus -S -L tierscope@PROD @tierscope_extract.sql nopack 8 /tmp/tierscope_PROD",
        "-- awr reads Diagnostics Pack views (pack_* statements); nopack never runs them. <days>",
        "-- bounds the AWR history read (END_INTERVAL_TIME >= now - days). Then copy the directory to",
        "-- tierscope and run `manage.py import_extract <dir>`.",
        "--",
        "-- Output: one CSV per statement in <output_dir>. First line: the header (column names,",
        "-- unquoted); then one line per row, every value double-quoted (\"\" escapes a quote), NULL as",
        "-- \"\". Dates/timestamps are ISO 8601 in the SERVER's local time (YYYY-MM-DDTHH24:MI:SS[.FF3]);",
        "-- instance.csv SERVER_UTC_OFFSET_MIN and the SNAP_TZ_OFFSET_MIN columns turn them into UTC",
        "-- (SAMPLED_AT_UTC is already UTC). Numbers use '.' as decimal point. A file that stops with",
        "-- an ORA- line means that statement failed (the script exits non-zero). Files of statements",
        "-- switched off (pack_* in nopack mode) are not written. The statements marked (may be",
        "-- refused) keep going on ORA-00942/ORA-01031: their file then holds the error and tierscope",
        "-- falls back to other views for those figures.",
        "--",
    ]
    for name, statement in sorted(files.items()):
        sources = sorted(s.stem + ".sql" for s in statements if s.csv_name == name)
        refusable = " (may be refused)" if statement.stem in REFUSABLE_STATEMENTS else ""
        lines.append(f"--   {name}  (from {', '.join(sources)}){refusable}")
        lines.append(f"--     {','.join(statement.columns)}")
    return lines


def _gate_query(statements: tuple[ExtractStatement, ...]) -> list[str]:
    version = "i.version"
    first_dot = f"INSTR({version}, '.')"
    second_dot = f"INSTR({version}, '.', 1, 2)"
    release = (f"(TO_NUMBER(SUBSTR({version}, 1, {first_dot} - 1)) * 100"
               f" + TO_NUMBER(SUBSTR({version}, {first_dot} + 1, {second_dot} - {first_dot} - 1)))")
    columns = ["CASE WHEN '&mode' = 'awr' THEN '' ELSE '--' END AS gate_pack"]
    for gate, low, upper in sorted(release_gates().values()):
        condition = f"{release} >= {low}" + (f" AND {release} < {upper}" if upper is not None else "")
        columns.append(f"CASE WHEN {condition} THEN '' ELSE '--' END AS {gate}")
    columns.append("CASE WHEN UPPER(p.value) = 'TRUE' THEN '--' ELSE '' END AS gate_residency")
    columns.append("CASE WHEN UPPER(p.value) = 'TRUE' THEN '' ELSE '--' END AS gate_residency_rac")
    gates = ["gate_pack"] + sorted(gate for gate, _low, _upper in release_gates().values()) + list(RAC_VARIANTS.values())
    lines = [f"COLUMN {gate} NEW_VALUE {gate} NOPRINT" for gate in gates]
    lines.append("SELECT " + ",\n       ".join(columns))
    lines.append("FROM v$instance i, v$parameter p")
    lines.append("WHERE p.name = 'cluster_database';")
    return lines


def build() -> str:
    """The whole extract script."""
    statements = extract_statements()
    lines = _header(statements) + [
        "",
        "WHENEVER SQLERROR EXIT FAILURE",
        "WHENEVER OSERROR EXIT FAILURE",
        "SET DEFINE ON VERIFY OFF FEEDBACK OFF HEADING OFF PAGESIZE 0 NEWPAGE NONE",
        "SET LINESIZE 32767 TRIMSPOOL ON TRIMOUT ON TAB OFF ECHO OFF TERMOUT OFF SQLBLANKLINES ON",
        "SET SERVEROUTPUT ON SIZE UNLIMITED FORMAT WRAPPED",
        "DEFINE mode = '&1'",
        "DEFINE days = '&2'",
        "DEFINE outdir = '&3'",
        "BEGIN",
        "  IF '&mode' NOT IN ('awr', 'nopack') THEN",
        "    RAISE_APPLICATION_ERROR(-20001, 'tierscope_extract: mode must be awr or nopack, not &mode');",
        "  END IF;",
        "  IF NOT REGEXP_LIKE('&days', '^[0-9]+$') THEN",
        "    RAISE_APPLICATION_ERROR(-20002, 'tierscope_extract: days must be a whole number, not &days');",
        "  END IF;",
        "END;",
        "/",
        "ALTER SESSION SET NLS_DATE_FORMAT = 'YYYY-MM-DD\"T\"HH24:MI:SS';",
        "ALTER SESSION SET NLS_TIMESTAMP_FORMAT = 'YYYY-MM-DD\"T\"HH24:MI:SS.FF3';",
        "ALTER SESSION SET NLS_NUMERIC_CHARACTERS = '.,';",
        "",
        "-- Statement switches: '' runs a gated line, '--' comments it out.",
    ] + _gate_query(statements) + ["", "-- Bind variables of the statements."]
    lines += [f"VARIABLE {name} {kind}" for name, (kind, _exec) in BINDS.items()]
    lines += [exec_line for _kind, exec_line in BINDS.values()]
    for statement in statements:
        block = [f"SPOOL &outdir./{statement.csv_name}", f"PROMPT {','.join(statement.columns)}"]
        block += _csv_select(statement) + ["SPOOL OFF"]
        if statement.stem in REFUSABLE_STATEMENTS:
            block = ["WHENEVER SQLERROR CONTINUE", *block, "WHENEVER SQLERROR EXIT FAILURE"]
        lines += ["", f"-- {statement.stem}.sql -> {statement.csv_name}"] + _gated(block, statement.gate)
    lines += ["", "EXIT SUCCESS"]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the committed script is out of date")
    args = parser.parse_args(argv)
    script = build()
    if args.check:
        if not OUTPUT.is_file() or OUTPUT.read_text(encoding="utf-8") != script:
            print(f"{OUTPUT} is out of date: run python scripts/oracle/build_extract.py", file=sys.stderr)
            return 1
        return 0
    OUTPUT.write_text(script, encoding="utf-8")
    print(f"wrote {OUTPUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
