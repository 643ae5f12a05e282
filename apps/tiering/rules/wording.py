"""The words of the seed rules: one segment's Reasons, from decisions already taken.

``rules.decide`` works out, for many segments at once, which findings fire and
what to do. This module turns one segment's share of that into the sentences a
DBA reads in the UI, with the numbers. It decides nothing: every "whether"
comes in through :class:`RowDecision`; the figures only fill in names and
numbers, and choose between phrasings.

The findings it words and a segment's :class:`RowDecision` are in ``findings`` (re-exported here); what it
reads of a segment is ``figures``' :class:`SegmentFigures` and :class:`PartitionSkew`; the sentences of a move's
payback, of what holds a segment and of array tiering are in ``payback_words``, ``hold_words`` and
``storage_words``.

Pure: standard library only. It imports no rules module that decides (they import it).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from apps.tiering.moves.movability import LOB_TYPES
from apps.tiering.rules import hold_words, payback_words, storage_words
from apps.tiering.rules.figures import PartitionSkew, SegmentFigures
from apps.tiering.rules.findings import (
    DISPLAY_ORDER,
    FINDING_CODES,
    HOLDS,
    SIZE_UNKNOWN,
    WASTE_CAUSES,
    Mix,
    Reason,
    RowDecision,
)
from apps.tiering.rules.in_words import intensity as _intensity
from apps.tiering.rules.in_words import money as _money
from apps.tiering.rules.in_words import name_list as _name_list
from apps.tiering.rules.in_words import pct as _pct
from apps.tiering.rules.in_words import rate as _rate
from apps.tiering.rules.in_words import size as _size

__all__ = ["DISPLAY_ORDER", "FINDING_CODES", "SIZE_UNKNOWN", "WASTE_CAUSES", "Mix", "Reason", "RowDecision",
           "reasons"]

_PARTITION_LIFECYCLE = 1 << FINDING_CODES.index("partition_lifecycle")
_FLASH_CACHE_NONE = 1 << FINDING_CODES.index("flash_cache_none")
_HOLD_BITS = sum(1 << FINDING_CODES.index(code) for code in HOLDS)
#: The actions that move the segment to the cost model's tier now (a partition placed ahead is moved too).
_MOVING = frozenset({"move", "place_ahead"})


def reasons(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> tuple[Reason, ...]:
    """What holds the segment where it is, the cost model's verdict (unless the size is unknown) and a move's
    payback, then one Reason per other finding."""
    found = row.findings
    said = [word(figures, skew, row) for word in _wording_of(found)] if found else []
    if not found & SIZE_UNKNOWN:
        at = bin(found & _HOLD_BITS).count("1")
        paid_back = payback_words.payback(figures) if row.action == "move" else None
        said[at:at] = [_verdict(figures, row), *([Reason(*paid_back)] if paid_back else [])]
    return tuple(said)


def _verdict(figures: SegmentFigures, row: RowDecision) -> Reason:
    """The cost model's view: cheaper tier, or already on the cheapest; "by cost alone" when not moved."""
    assert figures.size_bytes is not None
    if row.findings & _PARTITION_LIFECYCLE and figures.iops == 0:
        return _ahead_verdict(figures, row)
    if figures.iops is None:
        rate = f"IO requests/s not measured at {figures.iops_statistic}"
    elif figures.unmeasured:
        rate = f"at least {_rate(figures.iops)} IO requests/s at {figures.iops_statistic}"
    else:
        rate = f"{_rate(figures.iops)} IO requests/s at {figures.iops_statistic}"
    load = f"{rate} over {_size(figures.size_bytes)}, an intensity of {_intensity(figures.intensity)}"
    if not row.cost_moves:
        return Reason("keep_current", f"{figures.current_tier} is already the cheapest tier for it ({load}).")
    costs = ""
    if figures.current_cost is not None and figures.recommended_cost is not None:
        costs = (
            f" It would cost ${_money(figures.recommended_cost)} there instead of "
            f"${_money(figures.current_cost)} on {figures.current_tier}{_cost_unit(figures)}."
        )
    lead = "By cost alone, " if row.keep_current_tier else ""
    with_index = ""
    if row.action in _MOVING and figures.kind in LOB_TYPES:
        with_index = " Its LOB index moves with it, in the same statement."
    return Reason(
        "cheaper_tier",
        f"{lead}{figures.recommended_tier} is the cheapest tier for it ({load}).{costs}{with_index}",
    )


def _ahead_verdict(figures: SegmentFigures, row: RowDecision) -> Reason:
    """An empty partition placed on its table's hot partition's tier (apps.tiering.recommendations.lifecycle): what that costs."""
    assert figures.size_bytes is not None  # as in _verdict, its only caller
    load = f"no IO requests over {_size(figures.size_bytes)}"
    if not row.cost_moves:
        return Reason("lifecycle_tier", f"{figures.current_tier} is where the table's hot partition goes ({load} "
                                        "here yet).")
    costs = ""
    if figures.current_cost is not None and figures.recommended_cost is not None:
        costs = (f" It costs ${_money(figures.recommended_cost)} there instead of ${_money(figures.current_cost)} on "
                 f"{figures.current_tier}{_cost_unit(figures)}: the price of having it in place before its month.")
    return Reason("lifecycle_tier", f"{figures.recommended_tier} is where the table's hot partition goes ({load} here "
                                    f"yet: on its own figures the cheapest tier per GB would do).{costs}")


# --------------------------------------------------------------------------- one sentence per finding


def _size_unknown(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    return _size_unknown_on(figures.current_tier)


@lru_cache(maxsize=64)  # one Reason per tier name, shared: a refresh may have many unsized segments
def _size_unknown_on(current_tier: str) -> Reason:
    return Reason(
        "size_unknown",
        "Its size is unknown (it was not in DBA_SEGMENTS at the last collection), so "
        f"neither its intensity nor its cost can be worked out; it stays on {current_tier}.",
    )


_BELOW_AWR_CAPTURE = Reason(
    "below_awr_capture",
    "AWR kept this segment's statistics for only some snapshots of the window (it "
    "captures the top segments only), so its IO figures are a lower bound; check "
    "V$SEGMENT_STATISTICS before acting on them.",
)


def _undo(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    return Reason(
        "undo_redo",
        "Undo is written sequentially and read back mostly for recent changes that are "
        "still in the buffer cache; Oracle's own flash study lists undo, redo and large "
        f"table scans as poor value on flash.{_veto_suffix(figures)}",
    )


_TEMP_OK = Reason(
    "temp_ok",
    "TEMP (sorts, hash joins, intermediate results) does 1 MB reads and writes, too "
    "small to amortise disk seeks, so it can gain from flash: Oracle measured a sort "
    "2.5x faster with TEMP on flash. The flash cache does not serve TEMP; only a "
    "temporary tablespace on flash does.",
)


def _write_heavy(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    assert row.mix.write_fraction is not None
    write_fraction = row.mix.write_fraction
    rate = ""
    if figures.iops is not None:
        rate = f" (about {_rate(figures.iops * write_fraction)}/s at {figures.iops_statistic})"
    if figures.current_is_flash:
        advice = "a flash tablespace is the right place for it, not FLASH_CACHE KEEP."
    elif figures.recommended_is_flash and row.action in _MOVING:
        advice = (
            f"move it to a flash tablespace on {figures.recommended_tier} "
            "rather than rely on FLASH_CACHE KEEP."
        )
    else:
        advice = "if it needs flash, give it a flash tablespace, not FLASH_CACHE KEEP."
    return Reason(
        "write_heavy",
        f"{_pct(write_fraction)} of its IO requests are writes{rate}; the flash cache only "
        "serves reads, and a buffer cache that fills with dirty blocks waiting for slow writes "
        f"gives free buffer waits, so {advice}",
    )


def _full_scan(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    measured = []
    if row.scan_by_blocks:
        measured.append(f"{row.mix.blocks_per_read:.0f} blocks per read request on average")
    if row.scan_by_direct:
        assert row.mix.direct_fraction is not None
        measured.append(
            f"{_pct(row.mix.direct_fraction)} of blocks read by direct path, which bypasses the flash cache"
        )
    if figures.table_scans:
        measured.append(f"{figures.table_scans:,} scans in the window")
    return Reason(
        "full_scan",
        f"Its reads are mostly large scans ({'; '.join(measured)}). Scans gain little from "
        "flash per dollar: Oracle measured 5x the bandwidth of one disk, which five disks "
        f"also give.{_veto_suffix(figures)}",
    )


def _already_resident(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    served = f"The flash cache already serves it ({_residency(row.mix)})"
    if row.action in _MOVING and figures.recommended_is_flash:
        then = "so most of its reads are fast already; moving it to flash would mainly speed up its writes."
    elif row.findings & _FLASH_CACHE_NONE and row.action in _MOVING:
        then = (
            f"but that space is better spent on others (FLASH_CACHE NONE): after the move its reads come "
            f"from {figures.recommended_tier}, whose cost already carries its IO load."
        )
    elif row.findings & _FLASH_CACHE_NONE:
        then = "but that space is better spent on others (FLASH_CACHE NONE)."
    elif row.action in _MOVING:
        then = (
            f"so its reads stay fast on {figures.recommended_tier} once the flash cache holds the moved "
            "segment's blocks again (a move gives the segment new blocks)."
        )
    else:
        then = "so most of its reads are fast already."
    return Reason("already_resident", f"{served}, {then}")


def _flash_cache_keep(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    assert row.mix.write_fraction is not None
    if figures.recommended_is_flash:
        # Only when the move goes to flash: an alternative (its DDL is a comment), not a second step.
        why = f"a cheap alternative to moving it to {figures.recommended_tier} (one or the other, not both)"
    else:
        why = "a cheap way to serve its reads from flash"
    residency = _residency(row.mix) or "little of it is there"
    return Reason(
        "flash_cache_keep",
        f"It is read-mostly ({_pct(1 - row.mix.write_fraction)} of IO requests are reads) and hot "
        f"({_intensity(figures.intensity)}) but the flash cache holds little of it "
        f"({residency}): a FLASH_CACHE KEEP hint is {why}, using flash cache already paid for.",
    )


def _flash_cache_none(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    assert row.mix.flash_bytes is not None
    return Reason(
        "flash_cache_none",
        f"It holds {_size(row.mix.flash_bytes)} of the flash cache, but {_waste_cause(figures, row)}; "
        "a FLASH_CACHE NONE hint gives that space to segments the flash cache can help.",
    )


def _waste_cause(figures: SegmentFigures, row: RowDecision) -> str:
    cause = row.waste_cause
    if cause == "on_flash" and row.action in _MOVING:
        return f"it is moving to flash ({figures.recommended_tier}), where the flash cache adds nothing"
    if cause == "on_flash":
        return f"it is stored on flash ({figures.current_tier}) already"
    if cause == "cold":
        kept = " despite its FLASH_CACHE KEEP hint" if figures.flash_cache == "KEEP" else ""
        return f"it is cold ({_intensity(figures.intensity)}){kept}"
    if cause == "write_heavy":
        return "it is write-heavy and the flash cache only helps its reads"
    assert cause == "scan_heavy", cause
    return "its reads are large scans that gain little from flash"


def _partition_skew(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    assert skew is not None
    parts = "subpartitions" if figures.kind.endswith("SUBPARTITION") else "partitions"
    spread = (
        f"The {skew.partition_count} {parts} of {figures.owner}.{figures.object_name} differ widely "
        f"in intensity (hottest {_intensity(skew.max_intensity)}, median "
        f"{_intensity(skew.median_intensity)})"
    )
    hot = _name_list(skew.hot_partitions)
    whole = "index" if figures.kind.startswith("INDEX") else "table"
    if row.whole_skewed:
        text = f"{spread}: move the hot partitions ({hot}), not the whole {whole}."
    elif figures.subobject_name in skew.hot_partitions:
        text = (
            f"{spread}; this one is among the hot ones ({hot}): move the hot {parts}, "
            f"not the whole {whole}."
        )
    else:
        text = (
            f"{spread}; this one is cold: only the hot {parts} ({hot}) are worth moving "
            "to a faster tier."
        )
    return Reason("partition_skew", text)


def _not_worth_moving(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    return Reason(*payback_words.not_worth_moving(figures))


def _partition_lifecycle(figures: SegmentFigures, skew: PartitionSkew | None, row: RowDecision) -> Reason:
    """apps.tiering.recommendations.lifecycle: the hot partition of a table filled one partition at a time, or an empty
    partition newer than it (measured: no requests over the window)."""
    whole = "index" if figures.kind.startswith("INDEX") else "table"
    filled = (f"The {whole} {figures.owner}.{figures.object_name} is filled one partition at a time: its newest "
              "partition holding data is its hottest and the older ones cool with age")
    if figures.iops:
        return Reason("partition_lifecycle", f"{filled}. This is that hot partition: the empty partitions newer "
                                             "than it are placed where it goes, so that each starts its month there.")
    where = ("it moves there now" if row.action in _MOVING
             else f"it stays on {figures.current_tier}, where that one is")
    return Reason("partition_lifecycle", f"{filled}. This partition is empty and newer than the hot one, so it is "
                                         f"placed where the hot one goes, not on the tier its empty figures price "
                                         f"it on: {where}, before its month makes it the hot one.")


_Wording = Callable[[SegmentFigures, PartitionSkew | None, RowDecision], Reason]


def _said(code: str, words: Callable[[SegmentFigures], str]) -> _Wording:
    """The wording of a finding whose sentence reads the figures only (rules.hold_words)."""
    return lambda figures, skew, row: Reason(code, words(figures))


def _always(reason: Reason) -> _Wording:
    """The wording of a finding whose sentence is the same for every segment."""
    return lambda figures, skew, row: reason


_WORDING_BY_CODE: dict[str, _Wording] = {
    "size_unknown": _size_unknown,
    "below_awr_capture": _always(_BELOW_AWR_CAPTURE),
    "undo_redo": _undo,
    "temp_ok": _always(_TEMP_OK),
    "write_heavy": _write_heavy,
    "full_scan": _full_scan,
    "already_resident": _already_resident,
    "flash_cache_keep": _flash_cache_keep,
    "flash_cache_none": _flash_cache_none,
    "partition_skew": _partition_skew,
    "unmeasured": _said("unmeasured", hold_words.unmeasured),
    "not_movable": _said("not_movable", hold_words.not_movable),
    "moves_with_lob": _said("moves_with_lob", hold_words.not_movable),
    "name_truncated": _said("name_truncated", hold_words.not_movable),
    "held_back": _said("held_back", hold_words.held_back),
    "not_worth_moving": _not_worth_moving,
    "partition_lifecycle": _partition_lifecycle,
    "array_tiering": _said("array_tiering", storage_words.array_tiering),
}
_DISPLAY_BITS: tuple[tuple[str, int], ...] = tuple((code, 1 << FINDING_CODES.index(code)) for code in DISPLAY_ORDER)


@lru_cache(maxsize=4096)
def _wording_of(mask: int) -> tuple[_Wording, ...]:
    """The wording of each finding of a findings mask, in DISPLAY_ORDER (the order of the Reasons), per mask
    met: a table of every mask held 2^len(FINDING_CODES) entries, built at import (0.7 s at 17 codes)."""
    return tuple(_WORDING_BY_CODE[code] for code, bit in _DISPLAY_BITS if mask & bit)


# --------------------------------------------------------------------------- figures in words


def _veto_suffix(figures: SegmentFigures) -> str:
    if figures.recommended_is_flash and not figures.current_is_flash:
        return (
            f" It stays on {figures.current_tier} rather than moving to "
            f"{figures.recommended_tier} for cost alone."
        )
    return ""


def _residency(mix: Mix) -> str:
    parts = []
    if mix.flash_fraction is not None and mix.flash_bytes is not None:
        parts.append(f"{_pct(mix.flash_fraction)} of its blocks, {_size(mix.flash_bytes)}, are in it")
    if mix.optimized_fraction is not None:
        parts.append(f"it served {_pct(mix.optimized_fraction)} of its reads")
    return "; ".join(parts)


def _cost_unit(figures: SegmentFigures) -> str:
    """ " (USD purchase: $1.00/month instead of $4.17/month over 60 months)", " (USD/month)" or nothing."""
    if figures.cost_unit is None or figures.current_cost is None or figures.recommended_cost is None:
        return ""
    if figures.cost_months <= 1:
        return f" ({figures.cost_unit})"
    there, here = (cost / figures.cost_months for cost in (figures.recommended_cost, figures.current_cost))
    return (f" ({figures.cost_unit}: ${_money(there)}/month instead of ${_money(here)}/month "
            f"over {figures.cost_months} months)")
