"""ORDER_LINES: the demo's composite-partitioned table, RANGE(ORDER_DATE) by month - HASH(ORDER_ID) x 4.

A composite table's segments are its subpartitions: each month's partition has four hash subpartitions
(``P2026_11_H1`` .. ``H4``, named from the subpartition template) and so has its local primary key
index, each a segment of its own (TABLE SUBPARTITION, INDEX SUBPARTITION). The window is shorter than
ORDERS': three months back, the current one, one ahead. As ORDERS does, the current month's
subpartitions are created in the table's default tablespace HIST_DATA (hi-cap disk) and moved to SOE_DATA
after month end, so the recommendations move a subpartition of the hot month; the month ahead is empty.

Standard library only.
"""

from __future__ import annotations

import calendar
import datetime as dt
from functools import lru_cache

from apps.targets.demo.orders import _month_index, _partition_heat, high_value
from apps.targets.demo.schema import _GB, _MB, ACCESS_RANDOM, HOUR, SegmentSpec, Workload, allocated_bytes
from apps.targets.rows import SegmentKey

_MONTHS_BACK = 3
_MONTHS_AHEAD = 1
HASH_SUBPARTITIONS = 4
TABLE_PARTITIONING = "RANGE(ORDER_DATE)-HASH(ORDER_ID)"
#: A local index is partitioned as its table; its key columns are its table's.
INDEX_PARTITIONING = "RANGE(ORDER_DATE)-HASH(ORDER_ID)"


def month_partition_name(month_index: int) -> str:
    """``P2026_11`` for month_index = 2026 * 12 + 10: the partition of that month."""
    year, month0 = divmod(month_index, 12)
    return f"P{year}_{month0 + 1:02d}"


def order_lines_months(current: int) -> range:
    """The month indexes ORDER_LINES has partitions for while ``current`` is the current month."""
    return range(current - _MONTHS_BACK, current + _MONTHS_AHEAD + 1)


@lru_cache(maxsize=1)
def hash_shares() -> tuple[float, ...]:
    """How a month's rows and IO spread over its hash subpartitions: near even, as ORA_HASH spreads keys."""
    raw = (1.04, 0.97, 1.01, 0.98)[:HASH_SUBPARTITIONS]
    total = sum(raw)
    return tuple(share / total for share in raw)


def subpartition_key(role_name: str, object_type: str, month_index: int, number: int) -> SegmentKey:
    """The key of subpartition ``number`` (1-based) of the month's partition of table or index ``role_name``."""
    return SegmentKey("SOE", role_name, f"{month_partition_name(month_index)}_H{number}", object_type)


def months_back(current: int, month_index: int) -> int:
    return current - month_index


def place(role: int, age_months: int) -> tuple[str, int]:
    """(tablespace, MOVEs so far): table subpartitions are created in HIST_DATA and moved to SOE_DATA after
    month end; index subpartitions live in SOE_INDEX."""
    if role == 0:
        return ("HIST_DATA", 0) if age_months <= 0 else ("SOE_DATA", 1)
    return "SOE_INDEX", 0


def object_number(month_index: int, role: int, number: int) -> int:
    """A stable object id (DBA_OBJECTS.OBJECT_ID) apart from ORDERS' partitions and the fixed segments."""
    return 200_000 + (month_index - 24_000) * 16 + role * 8 + number


def month_start_at(month_index: int) -> dt.datetime:
    year, month0 = divmod(month_index, 12)
    return dt.datetime(year, month0 + 1, 1, tzinfo=dt.timezone.utc)


# (segment name, segment type, full-month GB of the whole partition, workload of the whole partition at heat 1)
_ROLES: tuple[tuple[str, str, float, Workload], ...] = (
    ("ORDER_LINES", "TABLE SUBPARTITION", 2.4, Workload(ACCESS_RANDOM, "business", 420, 160, 0.0, 30, 6)),
    ("ORDER_LINES_PK", "INDEX SUBPARTITION", 0.6, Workload(ACCESS_RANDOM, "business", 200, 90, 0.0, 40, 3)),
)
_INITIAL_BYTES = 8 * _MB


def order_lines_specs(end_at: dt.datetime) -> list[SegmentSpec]:
    """ORDER_LINES' and its index's subpartitions as they stand at ``end_at``."""
    current = _month_index(end_at - HOUR)
    hours_into_month = (end_at - month_start_at(current)) / HOUR
    year, month0 = divmod(current, 12)
    filled = min(1.0, hours_into_month / (calendar.monthrange(year, month0 + 1)[1] * 24))
    return [_spec(role, month_index, number, current, hours_into_month, filled)
            for role in range(len(_ROLES)) for month_index in order_lines_months(current)
            for number in range(1, HASH_SUBPARTITIONS + 1)]


def _spec(role: int, month_index: int, number: int, current: int, hours_into_month: float,
          filled: float) -> SegmentSpec:
    name, object_type, gb, workload = _ROLES[role]
    age = months_back(current, month_index)
    heat, ws_share = _partition_heat(age, hours_into_month)
    share = hash_shares()[number - 1]
    full_bytes = gb * _GB * share
    used = full_bytes if age > 0 else _INITIAL_BYTES + (full_bytes * filled if age == 0 else 0)
    tablespace, moves = place(role, age)
    obj = object_number(month_index, role, number)
    return SegmentSpec(
        key=subpartition_key(name, object_type, month_index, number), tablespace_name=tablespace,
        size_bytes=allocated_bytes(used), workload=workload, heat=heat * share, working_set_share=ws_share,
        obj_number=obj, dataobj_number=obj + 500_000 * moves, partitioned_parent=name,
        parent_partition=month_partition_name(month_index),
        partitioning=TABLE_PARTITIONING if role == 0 else INDEX_PARTITIONING,
        partition_bound=high_value(month_index), partition_order=month_index - current + _MONTHS_BACK + 1,
    )
