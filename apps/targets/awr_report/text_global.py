"""The header of a global RAC report (awrgrpt.sql) in text form.

Its title line is "WORKLOAD REPOSITORY REPORT (RAC)"; the header holds the "Database Instances Included In
Report" table (one row per instance: I#, Instance, Host, Startup, Begin Snap Time, End Snap Time, Release,
Elapsed Time(min), ...) and the "Database Summary" block, whose column titles (Id, Name, RAC, Block Size,
Begin, End, ..., DB time, Elapsed time) stand under a line of group titles (Database, Snapshot Ids, ...,
Report Total (minutes)), each over its own dash line. The sections that follow have the instance report's
title lines (``<title>  DB/Inst: DB/inst  Snaps: a-b``). Pure: standard library only.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.targets.awr_report.header import HeaderFields
from apps.targets.awr_report.numbers import parse_count, parse_number
from apps.targets.awr_report.sections import normalize
from apps.targets.awr_report.text import column_titles, dash_spans, is_dash_line, slice_fields


def header_fields(header_lines: Sequence[str]) -> HeaderFields:
    """The header cells of a global text report (is_global, the instances, the database summary)."""
    fields = HeaderFields(title=header_lines[0].strip() if header_lines else "", is_global=True)
    for index, line in enumerate(header_lines):
        if not index or not is_dash_line(line):
            continue
        top = index
        while top > 0 and header_lines[top - 1].strip() and not is_dash_line(header_lines[top - 1]):
            top -= 1  # a heading of two lines ("Avg Active" over "Sessions")
        spans = dash_spans(line)
        titles = [normalize(title) for title in column_titles(header_lines[top:index], spans)]
        rows = []
        for row in header_lines[index + 1 :]:
            if not row.strip() or is_dash_line(row):
                break
            rows.append(slice_fields(row, spans))
        if "i#" in titles:
            fields.put_instance_rows(titles, rows)
        elif {"id", "name", "begin", "end"} <= set(titles) and rows:
            _summary(titles, rows[0], fields)
    return fields


def _summary(titles: list[str], row: list[str], fields: HeaderFields) -> None:
    """The Database Summary's values: DB Id and name, the snapshot ids, the report's elapsed minutes."""
    fields.put_row(titles, row)
    named = dict(zip(titles, row, strict=False))
    fields.snaps["begin"] = parse_count(named.get("begin", ""))
    fields.snaps["end"] = parse_count(named.get("end", ""))
    fields.elapsed_minutes = parse_number(named.get("elapsed time", ""))
