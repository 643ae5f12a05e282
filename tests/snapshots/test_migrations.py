"""The snapshots app's initial migration makes what its models cannot say: segment stats partitioned by day with a
default partition, the rollup version sequence, and the storage of the rollup blobs (out of line and vacuumed
after a fixed number of dead tuples; the part of a day going on compressed with lz4 where the server has it)."""

from __future__ import annotations

import pytest
from django.db import connection

BLOB_AUTOVACUUM = ["autovacuum_vacuum_scale_factor=0", "autovacuum_vacuum_threshold=200"]


def _one(sql: str, params=()):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


@pytest.mark.django_db
def test_segment_stats_are_partitioned_by_range_of_end_at_with_a_default_partition():
    strategy, key = _one("SELECT p.partstrat, pg_get_partkeydef(p.partrelid) FROM pg_partitioned_table p "
                         "WHERE p.partrelid = 'snapshots_segmentstat'::regclass")
    default = _one("SELECT pg_get_expr(c.relpartbound, c.oid) FROM pg_class c "
                   "WHERE c.oid = 'snapshots_segmentstat_default'::regclass")[0]
    primary_key = _one("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'snapshots_segmentstat_pkey'")

    assert (strategy, key, default) == ("r", "RANGE (end_at)", "DEFAULT")
    assert primary_key == ("PRIMARY KEY (snapshot_id, segment_id, end_at)",)


@pytest.mark.django_db
def test_rollup_versions_come_from_one_sequence():
    first, second = (_one("SELECT nextval('snapshots_rollup_version')")[0] for _ in range(2))

    assert second > first


@pytest.mark.django_db
@pytest.mark.parametrize("table", ["snapshots_rollupday", "snapshots_windowbase", "snapshots_rolluphour"])
def test_rollup_blob_tables_and_their_toast_are_vacuumed_after_200_dead_tuples(table):
    options, toast_options = _one("SELECT c.reloptions, t.reloptions FROM pg_class c JOIN pg_class t "
                                  "ON t.oid = c.reltoastrelid WHERE c.oid = %s::regclass", [table])

    assert options == toast_options == BLOB_AUTOVACUUM


@pytest.mark.django_db
def test_rollup_blobs_are_stored_out_of_line_uncompressed_and_the_hours_with_lz4_where_the_server_has_it():
    storage = dict(
        (table, _one("SELECT attstorage FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'data'",
                     [table])[0]) for table in ("snapshots_rollupday", "snapshots_windowbase"))
    compression = _one("SELECT attcompression FROM pg_attribute "
                       "WHERE attrelid = 'snapshots_rolluphour'::regclass AND attname = 'data'")[0]
    has_lz4 = _one("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")[0]

    assert storage == {"snapshots_rollupday": "e", "snapshots_windowbase": "e"}
    assert compression == ("l" if has_lz4 else "")
