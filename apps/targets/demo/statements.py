"""The statements that drive the demo database's segments, as ASH would attribute them.

Each statement reads a share of one kind of segment's read requests (an order lookup by status that
full-scans the recent ORDERS partitions, the key lookups of the order-entry screens, the nightly history
report). Over the snapshots of one collection, a statement's reads on a segment are that share of the
segment's simulated read requests; its ASH samples the time those reads take on the segment's tier
(one AWR sample per ten seconds); its executions and elapsed time follow from reads per execution.
Deterministic, like the rest of the demo. Standard library only.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from apps.targets.demo.schema import TABLESPACE_BY_NAME
from apps.targets.rows import SegmentKey, SegmentSql, Snapshot

AWR_SAMPLE_S = 10.0


@dataclass(frozen=True)
class DemoStatement:
    sql_id: str
    plan_hash_value: int
    text: str
    object_name: str  # the segments it reads (every partition of a partitioned one)
    object_type: str
    read_share: float  # of the segment's read requests (0..1)
    reads_per_execution: float
    full_scan: bool
    elapsed_per_io_s: float = 1.4  # elapsed time per second of read time (CPU, other waits)


STATEMENTS: tuple[DemoStatement, ...] = (
    DemoStatement("8fz2kq1m4d7xa", 2470916634,
                  "SELECT o.order_id, o.order_date, o.order_total FROM soe.orders o "
                  "WHERE o.order_status = :status AND o.warehouse_id = :wh ORDER BY o.order_date DESC",
                  "ORDERS", "TABLE PARTITION", 0.72, 900.0, True, 1.2),
    DemoStatement("b7rjq3w0yk5cd", 1053411876,
                  "SELECT o.* FROM soe.orders o WHERE o.order_id = :order_id",
                  "ORDERS", "TABLE PARTITION", 0.2, 1.05, False),
    DemoStatement("b7rjq3w0yk5cd", 1053411876,
                  "SELECT o.* FROM soe.orders o WHERE o.order_id = :order_id",
                  "ORDERS_PK", "INDEX PARTITION", 0.85, 1.1, False),
    DemoStatement("3mcu9v6pnw2tg", 3977204512,
                  "SELECT oi.* FROM soe.order_items oi WHERE oi.order_id = :order_id",
                  "ORDER_ITEMS", "TABLE", 0.64, 3.2, False),
    DemoStatement("6hk0t8s2zqv1r", 891230457,
                  "SELECT c.customer_id, c.cust_first_name, c.cust_last_name FROM soe.customers c "
                  "WHERE c.cust_email = :email",
                  "CUSTOMERS", "TABLE", 0.55, 1.2, False),
    DemoStatement("0d4nx7yj1p9fs", 2214678090,
                  "SELECT TRUNC(h.order_date, 'MM'), SUM(h.order_total) FROM soe.order_history h "
                  "GROUP BY TRUNC(h.order_date, 'MM')",
                  "ORDER_HISTORY", "TABLE", 0.97, 150_000.0, True, 1.1),
)


def statement_rows(snapshots: Sequence[Snapshot]) -> tuple[SegmentSql, ...]:
    """The statements' rows over the window of ``snapshots`` (those one collection returns)."""
    if not snapshots:
        return ()
    begin_at, end_at = min(s.begin_at for s in snapshots), max(s.end_at for s in snapshots)
    reads: dict[tuple[SegmentKey, int | None, str], int] = defaultdict(int)
    for snapshot in snapshots:
        for stat in snapshot.segment_stats:
            if stat.physical_read_requests:
                reads[(stat.key, stat.obj_number, stat.tablespace_name)] += stat.physical_read_requests
    rows = []
    for (key, obj_number, tablespace), segment_reads in sorted(reads.items()):
        latency_s = TABLESPACE_BY_NAME[tablespace].read_latency_ms / 1000.0 if tablespace in TABLESPACE_BY_NAME \
            else 0.005
        for statement in STATEMENTS:
            if (key.object_name, key.object_type) != (statement.object_name, statement.object_type):
                continue
            attributed = round(segment_reads * statement.read_share)
            samples = round(attributed * latency_s / AWR_SAMPLE_S)
            if not attributed or obj_number is None:
                continue
            rows.append(SegmentSql(
                obj_number=obj_number, sql_id=statement.sql_id, source="ash", begin_at=begin_at, end_at=end_at,
                key=key, plan_hash_value=statement.plan_hash_value, samples=samples, sample_s=AWR_SAMPLE_S,
                read_requests=attributed, statement_read_requests=attributed,
                executions=max(1, round(attributed / statement.reads_per_execution)),
                elapsed_s=round(attributed * latency_s * statement.elapsed_per_io_s, 1),
                full_scan=statement.full_scan, plan_objects=1, text=statement.text,
            ))
    return tuple(rows)
