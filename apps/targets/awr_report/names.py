"""Completing the names a text report cut to its column width.

Text reports print owners and objects cut to their column (20 characters for objects in every release, 10
or 20 for owners), subobjects to their last 10 characters and tablespaces to 10. A name that fills its
column is marked cut (``AwrSegment.truncated_fields``): stored as printed it would not match the sizes
listing and would get DDL for an object that does not exist. It is completed only when exactly one known
full name fits it (the cut fields as prefixes, subobjects as suffixes, the others equal); otherwise it stays
marked and gets no DDL. Pure: standard library only.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import NamedTuple

from apps.targets.awr_report.model import AwrReport, AwrSegment


class FullName(NamedTuple):
    """A segment's name as the database stores it (DBA_SEGMENTS, or a segment tierscope already holds)."""

    owner: str
    object_name: str
    subobject_name: str
    tablespace_name: str = ""


def resolve_truncated_names(report: AwrReport, known: Iterable[FullName]) -> tuple[AwrReport, int]:
    """``report`` with each cut name completed from ``known`` when exactly one full name fits it, and how
    many were completed. Names that fit none or several stay as printed, marked cut."""
    if report.periods:
        return _resolve_periods(report, known)
    cut = [segment for segment in report.segments if segment.truncated_fields]
    if not cut:
        return report, 0
    by_owner_start: dict[str, list[FullName]] = {}
    for name in set(known):
        by_owner_start.setdefault(name.owner[:1], []).append(name)
    resolved = 0
    segments: list[AwrSegment] = []
    for segment in report.segments:
        if segment.truncated_fields:
            fits = [name for name in by_owner_start.get(segment.owner[:1], []) if _fits(segment, name)]
            if len({name[:3] for name in fits}) == 1:
                segment = _completed(segment, fits[0])
                resolved += 1
        segments.append(segment)
    if resolved:
        note = (f"text report: {resolved} of {len(cut)} names cut to their column width completed from the "
                "segments known (exactly one full name fits each)")
        report = dataclasses.replace(report, segments=tuple(segments), notes=(*report.notes, note))
    return report, resolved


def _resolve_periods(report: AwrReport, known: Iterable[FullName]) -> tuple[AwrReport, int]:
    """A compare-period report: each period's names completed on their own."""
    known = list(known)
    periods = []
    resolved = 0
    notes: list[str] = []
    for period in report.periods:
        done, count = resolve_truncated_names(dataclasses.replace(report, segments=period.segments, periods=(),
                                                                  notes=()), known)
        periods.append(dataclasses.replace(period, segments=done.segments))
        resolved += count
        notes.extend(done.notes)
    return dataclasses.replace(report, periods=tuple(periods), notes=(*report.notes, *notes)), resolved


def _fits(segment: AwrSegment, name: FullName) -> bool:
    cut = segment.truncated_fields
    for field in ("owner", "object_name", "subobject_name"):
        printed, full = getattr(segment, field), getattr(name, field)
        if field not in cut:
            if printed != full:
                return False
        elif not (full.endswith(printed) if field == "subobject_name" else full.startswith(printed)):
            return False
    # The tablespace is not part of a segment's identity (a MOVE changes it): it only has to fit when cut.
    if "tablespace_name" in cut and name.tablespace_name:
        return name.tablespace_name.startswith(segment.tablespace_name)
    return True


def _completed(segment: AwrSegment, name: FullName) -> AwrSegment:
    tablespace = name.tablespace_name if "tablespace_name" in segment.truncated_fields and name.tablespace_name \
        else segment.tablespace_name
    return dataclasses.replace(segment, owner=name.owner, object_name=name.object_name,
                               subobject_name=name.subobject_name, tablespace_name=tablespace, truncated_fields=())
