"""The test settings' backend (tests/pgflush) ends a transactional test by deleting every model table's rows."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

from tests.base import demo_collected_id


def test_a_flush_deletes_rows_and_keeps_truncate_where_sequences_are_reset():
    assert connection.ops.sql_flush(no_style(), ["a", "b"]) == [
        "SET CONSTRAINTS ALL DEFERRED;", 'DELETE FROM "a";', 'DELETE FROM "b";']
    assert connection.ops.sql_flush(no_style(), ["a"], reset_sequences=True) == ['TRUNCATE "a" RESTART IDENTITY;']
    assert connection.ops.sql_flush(no_style(), ["a"], allow_cascade=True) == ['TRUNCATE "a" CASCADE;']


@pytest.mark.django_db(transaction=True)
def test_a_flush_after_a_collection_leaves_every_model_table_empty():
    demo_collected_id()  # targets, snapshots, segment statistics (partitioned), rollups, recommendations, users
    filled = {model._meta.db_table for model in apps.get_models() if model._base_manager.exists()}
    assert {"targets_target", "snapshots_snapshot", "snapshots_segmentstat", "tiering_recommendation"} <= filled

    # As pytest-django's teardown calls it, but for post_migrate, which fills the content types again.
    call_command("flush", verbosity=0, interactive=False, inhibit_post_migrate=True)

    assert [model._meta.db_table for model in apps.get_models() if model._base_manager.exists()] == []
