"""The figures the rules read for one segment (a hot OLTP table that cost would move to flash, with any field
overridden), and the text of one reason of the advice they give. Pure: no Django."""

from __future__ import annotations

from apps.tiering.rules import Advice, SegmentFigures

GIB = 1024**3


def figures(**overrides: object) -> SegmentFigures:
    """A hot, read-mostly OLTP table on fast disk that cost would move to flash."""
    base: dict[str, object] = {
        "owner": "SOE",
        "object_name": "PRODUCTS",
        "subobject_name": "",
        "object_type": "TABLE",
        "tablespace_name": "SOE_DATA",
        "size_bytes": 2 * GIB,
        "read_requests": 990_000,
        "write_requests": 10_000,
        "physical_reads_blocks": 1_000_000,
        "physical_reads_direct_blocks": 0,
        "optimized_physical_reads": 0,
        "table_scans": 0,
        "db_block_changes": 20_000,
        "iops": 570.0,
        "intensity": 285.0,
        "current_tier": "FAST_DISK",
        "recommended_tier": "FLASH",
        "current_is_flash": False,
        "recommended_is_flash": True,
    }
    base.update(overrides)
    return SegmentFigures(**base)  # type: ignore[arg-type]


def reason_text(advice: Advice, code: str) -> str:
    texts = [reason.text for reason in advice.reasons if reason.code == code]
    if not texts:
        raise AssertionError(f"no {code!r} reason in {advice.codes}")
    return texts[0]
