"""A database migrated through the migrations that the apps' initial migrations replace (as the existing development
and bench databases were) has nothing of the squash to apply: Django takes the initial migrations as applied and
leaves the database as it is, without a rebuild; only the migrations written since are applied."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.db.migrations.loader import MigrationLoader
from django.db.migrations.recorder import MigrationRecorder

#: What django_migrations of a database migrated before the squash holds for the squashed apps (core, alerts and
#: apitokens kept their one migration).
OLD_CHAIN = {
    "targets": [
        "0001_initial", "0002_initial", "0003_target_check", "0004_target_tier_set", "0005_storage_map",
        "0006_target_collect_queue",
    ],
    "snapshots": [
        "0001_initial", "0002_initial", "0003_segment_day_rollups", "0004_refresh_writes", "0005_window_base_ranks",
        "0006_snapshot_rolled_up", "0007_rollup_blobs", "0008_window_bases", "0009_rollup_database",
        "0010_unmeasured_bounds", "0011_snapshot_database_instances", "0012_tablespace_space",
        "0013_segment_partition_position", "0014_datafiles", "0015_segment_moves", "0016_segment_container",
        "0017_segment_sql", "0018_disk_groups", "0019_segment_composite_partitions",
        "0020_collection_run_queue_worker", "0021_segment_stat_daily_partitions", "0022_rollup_blob_autovacuum",
        "0023_segment_name_trigram_index", "0024_rollup_hours",
    ],
    "tiering": [
        "0001_initial", "0002_recommendation_figures", "0003_refresh_writes", "0004_recommendation_runs",
        "0005_refreshes", "0006_recommendation_unmeasured", "0007_tier_sets", "0008_moves_worth_making", "0009_plans",
        "0010_tier_calibration", "0011_plan_step_container", "0012_recommendation_lob_fold_and_move_group",
        "0013_budget_runs", "0014_recommendation_run_figures_and_sort_key_indexes",
        "0015_recommendation_folded_into_index", "0016_recommendation_run_figures_scatter_text",
        "0017_export_stored_lines", "0018_exportline_position_and_hash_digest",
    ],
}
APPS = ("core", "targets", "snapshots", "tiering", "alerts", "apitokens")


def test_every_migration_of_the_old_chain_is_replaced_once():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    replaced = [key for migration in loader.replacements.values() for key in migration.replaces]

    assert sorted(replaced) == sorted((app, name) for app, names in OLD_CHAIN.items() for name in names)


#: Migrations written since the squash, on top of the initial ones.
SINCE_THE_SQUASH = {("tiering", "0003_tier_throughput_source_and_export_line_help"),
                    ("tiering", "0004_verbose_names"), ("snapshots", "0002_verbose_names"),
                    ("targets", "0002_target_deleting_since")}


def test_each_app_has_one_migration_but_tiering_which_targets_needs_half_of():
    loader = MigrationLoader(None, ignore_no_migrations=True)
    squashed = set(loader.disk_migrations) - SINCE_THE_SQUASH
    counts = {app: sum(1 for key in squashed if key[0] == app) for app in APPS}

    assert counts == {"core": 1, "targets": 1, "snapshots": 1, "tiering": 2, "alerts": 1, "apitokens": 1}
    assert SINCE_THE_SQUASH <= set(loader.disk_migrations)
    assert all(not loader.disk_migrations[key].replaces for key in SINCE_THE_SQUASH)


@pytest.mark.django_db
def test_a_database_migrated_through_the_old_chain_has_nothing_to_apply():
    recorder = MigrationRecorder(connection)
    recorder.migration_qs.filter(app__in=OLD_CHAIN).delete()
    for app, names in OLD_CHAIN.items():
        for name in names:
            recorder.record_applied(app, name)

    executor = MigrationExecutor(connection)
    executor.loader.check_consistent_history(connection)

    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    assert {(migration.app_label, migration.name) for migration, _ in plan} == SINCE_THE_SQUASH
    assert set(executor.loader.replacements) <= set(executor.loader.applied_migrations)
