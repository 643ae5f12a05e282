"""DDL of the partition lifecycle: where an interval-partitioned table creates its next partitions.

An interval-partitioned table creates each new partition when its first row arrives, in a tablespace of
its STORE IN list, else in the table's default tablespace; a local index's new partitions go to the
index's default tablespace. So the partitions of the coming months land where the hot one goes only when
these point there (Oracle SQL Language Reference, ALTER TABLE alter_interval_partitioning "SET STORE IN",
modify_table_default_attrs; ALTER INDEX modify_index_default_attrs "TABLESPACE"). Existing partitions
keep their tablespace: these statements act on the partitions created after them.
"""

from __future__ import annotations

from apps.tiering.ddl.base import DdlRequest, DdlScript, comment


def interval_default_ddl(request: DdlRequest) -> DdlScript:
    """The statements that send the future interval partitions of ``request``'s table or index (named by
    a partition of it) to ``target_tablespace``."""
    kind = request.segment_type()
    tablespace = request.quoted_tablespace()
    name = request.quoted_object()
    note = comment("new interval partitions are created here from now on (existing ones stay where they are)")
    if kind.startswith("TABLE"):
        return DdlScript((note, f"ALTER TABLE {name} SET STORE IN ({tablespace});",
                          f"ALTER TABLE {name} MODIFY DEFAULT ATTRIBUTES TABLESPACE {tablespace};"))
    if kind.startswith("INDEX"):
        return DdlScript((note, f"ALTER INDEX {name} MODIFY DEFAULT ATTRIBUTES TABLESPACE {tablespace};"))
    return DdlScript((comment(f"no interval default DDL for segment type {kind}"),))
