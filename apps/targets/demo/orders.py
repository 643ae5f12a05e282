"""ORDERS: the demo's range-partitioned table, by month over a sliding window of 26 partitions.

23 months back, the current month, two months ahead; the current month's partition grows through the
month and a partition's heat decays as it ages (apps.targets.demo.schema describes the whole schema).

Standard library only.
"""

from __future__ import annotations

import calendar
import datetime as dt
import math
import random
from functools import lru_cache

from apps.targets.demo.schema import (
    _GB,
    _MB,
    _R,
    HOUR,
    SegmentSpec,
    Workload,
    _w,
    allocated_bytes,
)
from apps.targets.rows import SegmentKey

# --- ORDERS partitions ------------------------------------------------------------------

_ORDERS_MONTHS_BACK = 23
_ORDERS_MONTHS_AHEAD = 2
_PARTITION_INITIAL_BYTES = 8 * _MB
_REFERENCE_MONTH = 2026 * 12  # January 2026: full partitions grow 1 % a month around it

# (segment name, segment type, full-month GB, workload at heat 1)
_ORDERS_ROLES: tuple[tuple[str, str, float, Workload], ...] = (
    ("ORDERS", "TABLE PARTITION", 3.2, _w(_R, 350, 120, lpp=30, cpw=6)),
    ("ORDERS_PK", "INDEX PARTITION", 0.9, _w(_R, 250, 80, lpp=40, cpw=3)),
    ("ORDERS_CUST_IX", "INDEX PARTITION", 0.7, _w(_R, 180, 90, lpp=40, cpw=3)),
)


def partition_name(month_index: int) -> str:
    """``ORDERS_P2026_11`` for month_index = 2026 * 12 + 10."""
    year, month0 = divmod(month_index, 12)
    return f"ORDERS_P{year}_{month0 + 1:02d}"


def high_value(month_index: int) -> str:
    """A monthly partition's bound as DBA_TAB_PARTITIONS.HIGH_VALUE prints it (less than the next month)."""
    year, month0 = divmod(month_index + 1, 12)
    return f"TO_DATE(' {year}-{month0 + 1:02d}-01 00:00:00', 'SYYYY-MM-DD HH24:MI:SS', 'NLS_CALENDAR=GREGORIAN')"


def _month_index(moment: dt.datetime) -> int:
    return moment.year * 12 + moment.month - 1


def _month_start_at(month_index: int) -> dt.datetime:
    year, month0 = divmod(month_index, 12)
    return dt.datetime(year, month0 + 1, 1, tzinfo=dt.timezone.utc)


@lru_cache(maxsize=4096)
def _full_partition_bytes(month_index: int, role: int) -> float:
    # Business grows ~1 % a month; each month also varies a little on its own.
    variation = random.Random(month_index * 3 + role).uniform(0.92, 1.08)
    return _ORDERS_ROLES[role][2] * _GB * 1.01 ** (month_index - _REFERENCE_MONTH) * variation


def _partition_heat(age_months: int, hours_into_month: float) -> tuple[float, float]:
    """(heat, working-set share) of a partition ``age_months`` old."""
    if age_months < 0:
        return 0.0, 0.0
    if age_months == 0:
        return 1.0, 0.9
    if age_months == 1:
        # Last month's orders are still shipped and invoiced in the first days.
        return 0.08 + 0.5 * math.exp(-hours_into_month / 96.0), 0.5
    return 0.0003 + 0.06 * 0.5 ** (age_months - 2), 0.25


def _partition_place(role: int, age_months: int) -> tuple[str, int]:
    """(tablespace, number of MOVEs so far) of a partition by age.

    Table partitions are created in the table's default tablespace HIST_DATA
    (the misplacement), moved to SOE_DATA after month end and archived back to
    HIST_DATA at 12 months; index partitions live in SOE_INDEX until archived.
    """
    if role == 0:
        if age_months <= 0:
            return "HIST_DATA", 0
        return ("SOE_DATA", 1) if age_months < 12 else ("HIST_DATA", 2)
    return ("SOE_INDEX", 0) if age_months < 12 else ("HIST_DATA", 1)


def _partition_spec(role: int, month_index: int, age: int, hours_into_month: float,
                    month_hours: float) -> SegmentSpec:
    # Range partitions are numbered from the oldest: the sliding window drops the oldest monthly,
    # so every partition's position moves down by one at each month's turn.
    name, object_type, _gb, workload = _ORDERS_ROLES[role]
    heat, ws_share = _partition_heat(age, hours_into_month)
    if age > 0:
        used_bytes = _full_partition_bytes(month_index, role)
    elif age == 0:
        filled = min(1.0, hours_into_month / month_hours)
        used_bytes = _PARTITION_INITIAL_BYTES + _full_partition_bytes(month_index, role) * filled
    else:
        used_bytes = _PARTITION_INITIAL_BYTES
    tablespace, moves = _partition_place(role, age)
    obj = 100_000 + (month_index - 24_000) * 4 + role
    return SegmentSpec(
        key=SegmentKey("SOE", name, partition_name(month_index), object_type),
        tablespace_name=tablespace, size_bytes=allocated_bytes(used_bytes), workload=workload,
        heat=heat, working_set_share=ws_share, obj_number=obj,
        dataobj_number=obj + 500_000 * moves, partitioned_parent=name,
        partition_position=_ORDERS_MONTHS_BACK - age + 1, partitioning="RANGE(ORDER_DATE)",
        partition_bound=high_value(month_index), partition_order=_ORDERS_MONTHS_BACK - age + 1,
    )


@lru_cache(maxsize=64)
def _settled_partitions(current: int) -> dict[tuple[int, int], SegmentSpec]:
    """Partitions that do not change within month ``current`` (all but this and last month's)."""
    return {
        (role, month_index): _partition_spec(role, month_index, current - month_index, 0.0, 1.0)
        for role in range(len(_ORDERS_ROLES))
        for month_index in range(current - _ORDERS_MONTHS_BACK, current + _ORDERS_MONTHS_AHEAD + 1)
        if current - month_index not in (0, 1)
    }


def _partition_specs(end_at: dt.datetime) -> list[SegmentSpec]:
    # The hour belongs to the month it began in.
    current = _month_index(end_at - HOUR)
    hours_into_month = (end_at - _month_start_at(current)) / HOUR
    year, month0 = divmod(current, 12)
    month_hours = calendar.monthrange(year, month0 + 1)[1] * 24
    settled = _settled_partitions(current)
    specs: list[SegmentSpec] = []
    for role in range(len(_ORDERS_ROLES)):
        for month_index in range(current - _ORDERS_MONTHS_BACK, current + _ORDERS_MONTHS_AHEAD + 1):
            spec = settled.get((role, month_index))
            if spec is None:
                spec = _partition_spec(role, month_index, current - month_index, hours_into_month, month_hours)
            specs.append(spec)
    return specs


