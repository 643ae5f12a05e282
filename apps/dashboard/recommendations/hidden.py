"""Segments folded away by default on the segment tables: Oracle's own (SYS, SYSTEM, AUDSYS, ... and AWR's
WRH$ tables, which SYS owns) and the ones AWR could not name ("** MISSING **", type UNDEFINED). Nothing a DBA
moves; they stay in the totals, the CSV download and behind ``?oracle=show``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Q, QuerySet

from apps.tiering.moves.movability import DICTIONARY_OWNERS, MISSING_OWNER, ORACLE_MAINTAINED_OWNERS, UNKNOWN_TYPES

SHOW_PARAM = "oracle"
SHOW_VALUE = "show"
HIDDEN_OWNERS: tuple[str, ...] = tuple(sorted(DICTIONARY_OWNERS | ORACLE_MAINTAINED_OWNERS | {MISSING_OWNER}))


def oracle_maintained() -> Q:
    """Recommendations of segments Oracle maintains or AWR could not name."""
    return Q(segment__owner__in=HIDDEN_OWNERS) | Q(segment__object_type__in=sorted(UNKNOWN_TYPES))


@dataclass(frozen=True)
class Folded:
    rows: Any  # the queryset the table pages through
    hidden: int  # rows left out of it (0 when shown, or when the owner filter asks for one of them)
    shown: bool  # ?oracle=show: nothing folded


def fold_oracle_maintained(qs: QuerySet, *, params: Any, owner: str = "", hidden: int | None = None) -> Folded:
    """``qs`` without Oracle-maintained and unnamed segments unless ``params`` (request.GET) asks to show them
    or the owner filter names one of those owners (then the DBA asked for them). ``hidden``: how many of
    ``qs``'s rows that leaves out when already known (the run's stored count, for the unfiltered rows);
    None: counted here."""
    if params.get(SHOW_PARAM) == SHOW_VALUE:
        return Folded(rows=qs, hidden=0, shown=True)
    if owner in HIDDEN_OWNERS:
        return Folded(rows=qs, hidden=0, shown=False)
    if hidden is None:
        hidden = qs.filter(oracle_maintained()).count()
    return Folded(rows=qs.exclude(oracle_maintained()), hidden=hidden, shown=False)
