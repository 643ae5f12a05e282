"""The partitioning of a live target's tables and indexes, and what it says of each segment.

Four statements (sql/part_tables.sql, part_key_columns.sql, tab_partition_bounds.sql with
ind_partition_bounds.sql, subpartitions.sql) read how each table and index is partitioned, every
partition's bound and which partition every subpartition belongs to; :func:`annotate_segments` adds that
to the DBA_SEGMENTS rows (apps.targets.rows.SegmentInfo: parent_partition, partitioning, partition_bound,
partition_order, and a LOB subpartition's table subpartition). Ordering by bound is
apps.targets.partitioning's.

HIGH_VALUE is a LONG: python-oracledb returns it whole as str; one longer than
partitioning.BOUND_MAX_CHARS is not kept (its partition has no bound, so no order) and a note says so.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from apps.targets.oracle.queries import Cursor, Statement, _run
from apps.targets.partitioning import BOUND_MAX_CHARS, Partitioning, partition_orders, partitioning_of
from apps.targets.rows import SegmentInfo

SQL_PART_TABLES = Statement("part_tables")
SQL_PART_KEY_COLUMNS = Statement("part_key_columns")
SQL_TAB_PARTITION_BOUNDS = Statement("tab_partition_bounds")
SQL_IND_PARTITION_BOUNDS = Statement("ind_partition_bounds")
SQL_SUBPARTITIONS = Statement("subpartitions")

#: An object of the partition views: (owner, table or index name, "TABLE" | "INDEX").
ObjectKey = tuple[str, str, str]


@dataclass(frozen=True)
class PartitionCatalog:
    """What the partition views say: each partitioned object's partitioning, its partitions' bounds
    (None: too long to keep) and each subpartition's partition (and a LOB subpartition's table
    subpartition), keyed (owner, object, segment type, subpartition)."""

    partitionings: dict[ObjectKey, Partitioning] = field(default_factory=dict)
    bounds: dict[ObjectKey, dict[str, str | None]] = field(default_factory=dict)
    subpartitions: dict[tuple[str, str, str, str], tuple[str, str | None]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def fetch_partition_catalog(cursor: Cursor, *, mode: str) -> PartitionCatalog:
    """Run the four partition statements and gather their rows."""
    keys: dict[ObjectKey, dict[str, list[tuple[int, str]]]] = defaultdict(lambda: {"PARTITION": [], "SUBPARTITION": []})
    for row in _run(cursor, SQL_PART_KEY_COLUMNS, mode=mode):
        level = keys[_object_key(row)].get(str(row["KEY_LEVEL"]))
        if level is not None:
            level.append((int(row["COLUMN_POSITION"] or 0), str(row["COLUMN_NAME"])))
    partitionings = {}
    for row in _run(cursor, SQL_PART_TABLES, mode=mode):
        key = _object_key(row)
        columns = keys.get(key, {"PARTITION": [], "SUBPARTITION": []})
        found = partitioning_of(row["PARTITIONING_TYPE"], row["SUBPARTITIONING_TYPE"], row["PARTITION_INTERVAL"],
                                [name for _pos, name in sorted(columns["PARTITION"])],
                                [name for _pos, name in sorted(columns["SUBPARTITION"])])
        if found is not None:
            partitionings[key] = found
    bounds: dict[ObjectKey, dict[str, str | None]] = defaultdict(dict)
    too_long: list[str] = []
    for statement, kind in ((SQL_TAB_PARTITION_BOUNDS, "TABLE"), (SQL_IND_PARTITION_BOUNDS, "INDEX")):
        for row in _run(cursor, statement, mode=mode):
            owner, name, partition = str(row["OWNER"]), str(row["OBJECT_NAME"]), str(row["PARTITION_NAME"])
            bounds[(owner, name, kind)][partition] = _bound(row, f"{owner}.{name} partition {partition}", too_long)
    subpartitions = {
        (str(row["OWNER"]), str(row["OBJECT_NAME"]), str(row["SEGMENT_TYPE"]), str(row["SUBPARTITION_NAME"])):
            (str(row["PARTITION_NAME"]), None if row["TABLE_SUBPARTITION_NAME"] is None
             else str(row["TABLE_SUBPARTITION_NAME"]))
        for row in _run(cursor, SQL_SUBPARTITIONS, mode=mode)
    }
    return PartitionCatalog(partitionings, dict(bounds), subpartitions, _too_long_notes(too_long))


def _object_key(row: dict[str, Any]) -> ObjectKey:
    return str(row["OWNER"]), str(row["OBJECT_NAME"]), str(row["OBJECT_KIND"]).strip().upper()


def _bound(row: dict[str, Any], where: str, too_long: list[str]) -> str | None:
    text = row["HIGH_VALUE"]
    length = row.get("HIGH_VALUE_LENGTH")
    if text is None:
        return None
    text = str(text)
    if len(text) > BOUND_MAX_CHARS or (length is not None and int(length) > BOUND_MAX_CHARS):
        too_long.append(f"{where} ({max(len(text), int(length or 0))} characters)")
        return None
    return text


def _too_long_notes(too_long: list[str]) -> tuple[str, ...]:
    if not too_long:
        return ()
    more = f" and {len(too_long) - 1} more" if len(too_long) > 1 else ""
    return (f"Partition bounds (HIGH_VALUE) longer than {BOUND_MAX_CHARS} characters were not read: "
            f"{too_long[0]}{more}; those partitions are left out of the partition lifecycle",)


def annotate_segments(segments: Iterable[SegmentInfo], catalog: PartitionCatalog) -> tuple[SegmentInfo, ...]:
    """``segments`` with what ``catalog`` says of each partition and subpartition (others unchanged)."""
    orders = {key: partition_orders(bounds, catalog.partitionings.get(key)) for key, bounds in catalog.bounds.items()}
    return tuple(_annotated(info, catalog, orders) for info in segments)


def _annotated(info: SegmentInfo, catalog: PartitionCatalog, orders: dict[ObjectKey, dict[str, int]]) -> SegmentInfo:
    kind = info.key.object_type
    if "PARTITION" not in kind or not info.key.subobject_name:
        return info
    owner = info.key.owner
    changes: dict[str, Any] = {}
    if kind.startswith("LOB"):
        # A LOB (sub)partition is placed by its table's partitioning, at its table partition.
        if not info.partitioned_parent:
            return info
        parts = (owner, info.partitioned_parent, "TABLE")
        partition = info.table_partition_name
        if kind == "LOB SUBPARTITION":
            found = catalog.subpartitions.get((owner, info.key.object_name, kind, info.key.subobject_name))
            if found is None:
                return info
            changes["parent_partition"], changes["table_partition_name"] = found
            table_sub = catalog.subpartitions.get((owner, info.partitioned_parent, "TABLE SUBPARTITION", found[1] or ""))
            partition = None if table_sub is None else table_sub[0]
    else:
        parts = (owner, info.key.object_name, "INDEX" if kind.startswith("INDEX") else "TABLE")
        partition = info.key.subobject_name
        if kind.endswith("SUBPARTITION"):
            found = catalog.subpartitions.get((owner, info.key.object_name, kind, info.key.subobject_name))
            partition = None if found is None else found[0]
            changes["parent_partition"] = partition
    partitioning = catalog.partitionings.get(parts)
    if partitioning is not None:
        changes["partitioning"] = partitioning.label()
        if kind.endswith("SUBPARTITION") and partitioning.method == "INTERVAL":
            # DBA_SEGMENTS' join says it of partitions only: a subpartition of an interval-partitioned table
            # is in one too (its next partitions are placed by the table's defaults, apps.tiering.ddl.lifecycle).
            changes["partition_interval"] = True
    if partition is not None:
        changes["partition_bound"] = catalog.bounds.get(parts, {}).get(partition)
        changes["partition_order"] = orders.get(parts, {}).get(partition)
    return replace(info, **changes)
