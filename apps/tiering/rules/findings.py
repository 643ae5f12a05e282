"""The findings' vocabulary: the Reason codes, the order their Reasons are listed in, and one segment's row of
decisions as the wording reads it (its figures and its partitions' skew are ``figures``' own records).

The contract between ``batch`` (which takes the decisions: one findings bitmask per segment over
:data:`FINDING_CODES`, a waste cause from :data:`WASTE_CAUSES`) and ``wording`` (which words them);
``figures`` builds its Advice from :class:`Reason`. Split from ``wording`` by concern: no sentence is
written here.

Pure: standard library only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

#: The Reason codes of the findings, in the order their Reasons are listed.
#: Bit i of a findings mask is set when FINDING_CODES[i] fired.
FINDING_CODES: tuple[str, ...] = (
    "size_unknown",
    "below_awr_capture",
    "undo_redo",
    "temp_ok",
    "write_heavy",
    "full_scan",
    "already_resident",
    "flash_cache_keep",
    "flash_cache_none",
    "partition_skew",
    "unmeasured",
    "not_movable",
    "moves_with_lob",
    "name_truncated",
    "not_worth_moving",
    "held_back",
    "partition_lifecycle",
    "array_tiering",
)
SIZE_UNKNOWN = 1 << FINDING_CODES.index("size_unknown")
#: Findings that hold a segment where it is whatever its figures say: their Reasons come first.
HOLDS: tuple[str, ...] = ("name_truncated", "moves_with_lob", "not_movable", "unmeasured", "not_worth_moving",
                         "held_back")
#: The order Reasons are listed in: what holds a segment, then the rest in FINDING_CODES order.
DISPLAY_ORDER: tuple[str, ...] = HOLDS + tuple(code for code in FINDING_CODES if code not in HOLDS)

#: Why a segment's blocks in the flash cache are waste ("" = they are not).
WASTE_CAUSES: tuple[str, ...] = ("", "on_flash", "cold", "write_heavy", "scan_heavy")


@dataclass(frozen=True)
class Reason:
    """One finding: a stable ``code`` for filters and a sentence for the DBA."""

    code: str
    text: str


class Mix(NamedTuple):
    """One segment's ratios from ``rules.Decisions``; None where not measurable."""

    write_fraction: float | None
    blocks_per_read: float | None
    direct_fraction: float | None
    flash_fraction: float | None  # share of the segment's blocks in flash cache
    optimized_fraction: float | None  # share of read requests served by flash cache
    flash_bytes: int | None


class RowDecision(NamedTuple):
    """One segment's row of ``rules.Decisions``, as the wording needs it."""

    findings: int  # bitmask over FINDING_CODES
    cost_moves: bool  # the cost model's tier is not the current one
    keep_current_tier: bool  # ... but the segment stays on the current tier
    whole_skewed: bool  # a whole partitioned table/index: move its hot partitions
    scan_by_blocks: bool  # blocks per read reach scan_blocks_per_read
    scan_by_direct: bool  # direct-path share reaches direct_read_fraction
    waste_cause: str  # one of WASTE_CAUSES
    mix: Mix
    action: str  # rules.ACTIONS: what is done, which the words must agree with
