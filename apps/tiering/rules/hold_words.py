"""The words of what holds a segment where it is whatever its cost says: a segment Oracle will not move by
itself (or moves with its LOB, or whose name was cut short), IO not all measured, a move back held
(hysteresis). Split from ``wording`` by concern; each function reads the figures only.

Pure: standard library only (the sentences of movability and hysteresis come from their modules).
"""

from __future__ import annotations

from apps.tiering.moves.hysteresis import why_held
from apps.tiering.moves.movability import why_not_movable
from apps.tiering.rules.figures import SegmentFigures
from apps.tiering.rules.in_words import rate


def not_movable(figures: SegmentFigures) -> str:
    """Why no move of its own relocates it (findings not_movable, moves_with_lob, name_truncated)."""
    return why_not_movable(figures.movability, owner=figures.owner, object_name=figures.object_name,
                           object_type=figures.object_type)


def unmeasured(figures: SegmentFigures) -> str:
    reads, writes = figures.reads_unmeasured, figures.writes_unmeasured
    if reads and writes:
        unknown = "read and write requests"
    elif reads:
        unknown = "read requests" + (" (its writes perhaps too)" if writes is None else "")
    elif writes:
        unknown = "write requests" + (" (its reads perhaps too)" if reads is None else "")
    else:
        unknown = "read or write requests"
    if figures.iops_bound is not None:
        bound = f"its IOPS at {figures.iops_statistic} are ≤ {rate(figures.iops_bound)} IO/s, by the bound the source gives"
    else:
        bound = "the source gives no bound on them"
    return (
        f"Its {unknown} over the window were not all measured (the source lists only its top segments), "
        f"so its IO figures are lower bounds and {bound}; it stays on {figures.current_tier} until they are "
        "measured. To measure it: collect the target in nopack mode, which samples V$SEGSTAT for every "
        "segment. AWR keeps only the top segments of each snapshot, by criteria of its own (DBA_HIST_SEG_STAT), "
        "and an AWR report lists only the top rows of each 'Segments by ...' section; no documented setting "
        "widens either for segments: DBMS_WORKLOAD_REPOSITORY.MODIFY_SNAPSHOT_SETTINGS(topnsql=>...) applies "
        "to SQL only."
    )


def held_back(figures: SegmentFigures) -> str:
    """A move back to a tier it left or was advised to leave, held (apps.tiering.moves.hysteresis)."""
    assert figures.held_back is not None
    return why_held(current_tier=figures.current_tier, recommended_tier=figures.recommended_tier,
                    held=figures.held_back)
