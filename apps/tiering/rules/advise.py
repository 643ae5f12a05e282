"""Decisions put in words: one :class:`Advice` per segment.

Pure: standard library and numpy only.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from functools import lru_cache
from typing import TypeVar

import numpy as np

from apps.tiering.rules.batch import Columns, Decisions, decide
from apps.tiering.rules.figures import (
    _ACTION_MOVE_PARTITIONS,
    ACTIONS,
    HINTS,
    Advice,
    PartitionSkew,
    SegmentFigures,
    _partition_skews,
)
from apps.tiering.rules.limits import DEFAULT_THRESHOLDS, RulesError, merge_thresholds
from apps.tiering.rules.wording import DISPLAY_ORDER, FINDING_CODES, WASTE_CAUSES, Mix, RowDecision, reasons

# --------------------------------------------------------------------------- advise


def advise_many(
    figures: Sequence[SegmentFigures], *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS
) -> list[Advice]:
    """:func:`advise` for many segments: one :func:`decide` for all of them, then words per segment."""
    limits = merge_thresholds(thresholds)
    skews = _partition_skews(figures, limits)
    columns = Columns.from_figures(figures, skews)
    decisions = decide(columns, thresholds=limits)
    return _word(figures, skews, columns, decisions)


def advise(figures: SegmentFigures, *, thresholds: Mapping[str, float] = DEFAULT_THRESHOLDS) -> Advice:
    """Apply the seed rules to ``figures`` and say what to do, and why.

    :func:`decide` on a one-row batch, put in words; see there for the actions.
    A one-row batch pays numpy's per-call overhead (a few hundred microseconds):
    for many segments call :func:`advise_many` once.
    """
    return advise_many([figures], thresholds=thresholds)[0]


def finding_codes(mask: int) -> tuple[str, ...]:
    """The codes of a findings bitmask (Decisions.findings), in the order advice lists their Reasons (wording.DISPLAY_ORDER).

    >>> finding_codes(0b10001)
    ('size_unknown', 'write_heavy')
    """
    mask = int(mask)
    if not 0 <= mask < 1 << len(FINDING_CODES):
        raise RulesError(f"findings mask out of range: {mask}")
    return _codes_of(mask)


@lru_cache(maxsize=4096)
def _codes_of(mask: int) -> tuple[str, ...]:
    """finding_codes of a mask in range, per mask met (a table of every mask took 2^len(FINDING_CODES) entries
    at import)."""
    return tuple(code for code in DISPLAY_ORDER if mask >> FINDING_CODES.index(code) & 1)



def _word(
    figures: Sequence[SegmentFigures], skews: Sequence[PartitionSkew | None], columns: Columns, decisions: Decisions
) -> list[Advice]:
    """One Advice per segment from its row of ``decisions``; the arrays become Python lists once."""
    rows = map(
        RowDecision._make,
        zip(
            decisions.findings.tolist(),
            columns.cost_moves.tolist(),
            decisions.keep_current_tier.tolist(),
            (decisions.action == _ACTION_MOVE_PARTITIONS).tolist(),
            decisions.scan_by_blocks.tolist(),
            decisions.scan_by_direct.tolist(),
            _names(WASTE_CAUSES, decisions.waste_cause),
            _mixes(decisions),
            _names(ACTIONS, decisions.action),
        ),
    )
    return [
        Advice(
            action=action,
            recommended_tier=f.current_tier if row.keep_current_tier else f.recommended_tier,
            cost_recommended_tier=f.recommended_tier,
            reasons=reasons(f, skew, row),
            flash_cache_hint=hint,
            hot_partitions=skew.hot_partitions if skew is not None else (),
        )
        for f, skew, row, action, hint in zip(
            figures, skews, rows, _names(ACTIONS, decisions.action), _names(HINTS, decisions.hint)
        )
    ]


_Name = TypeVar("_Name", str, str | None)


def _names(names: tuple[_Name, ...], codes: np.ndarray) -> list[_Name]:
    named: list[_Name] = np.array(names, dtype=object)[codes].tolist()
    return named


def _mixes(decisions: Decisions) -> Iterator[Mix]:
    """Each row's Mix, NaN back to None and flash bytes back to int."""
    ratios = []
    for name in Mix._fields[:-1]:
        column = getattr(decisions, name)
        ratio = column.astype(object)
        ratio[np.isnan(column)] = None
        ratios.append(ratio.tolist())
    known = ~np.isnan(decisions.flash_bytes)
    flash_bytes = np.full(len(decisions), None, dtype=object)
    flash_bytes[known] = decisions.flash_bytes[known].astype(np.int64)
    return map(Mix._make, zip(*ratios, flash_bytes.tolist()))

