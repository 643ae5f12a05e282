"""A roll-up reads the raw statistics of its own days' partitions only."""

from __future__ import annotations

import datetime as dt

import psycopg
import pytest
from django.db import connection

from apps.snapshots import partitions
from apps.snapshots.rollups import segment_days_roll_up
from apps.snapshots.services import collection_store
from apps.targets.base import CollectState
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo
from tests.snapshots.stored_series import END, assert_as_the_raw_statistics, series, store


def _store_pending(target: Target, snapshots) -> None:
    """Store snapshots as a collection does, leaving them for the next roll-up."""
    collection = Collection(database=DatabaseInfo(dbid=7, db_name="W", release="19.0.0.0.0", is_rac=False,
                                                  instances=(1,)), snapshots=tuple(snapshots))
    collection_store(target=target, collection=collection, kind="demo",
                     state=CollectState(now=END, history_start_at=END - dt.timedelta(days=30)))


@pytest.mark.django_db(transaction=True)
def test_a_roll_up_does_not_wait_for_a_lock_on_another_days_partition():
    target = Target.objects.create(name="pruned-read", mode=Target.Mode.DEMO)
    snaps = series(60, 48, seed=51)  # two days, ending END
    store(target, snaps[:-1])
    _store_pending(target, snaps[-1:])
    settings = connection.settings_dict
    with psycopg.connect(host=settings["HOST"], port=settings["PORT"], dbname=settings["NAME"],
                         user=settings["USER"], password=settings["PASSWORD"], connect_timeout=10) as holder:
        # As a retention dropping the day before would: the lock of a DROP TABLE, held.
        holder.execute(f'LOCK TABLE "{partitions.partition_name(END.date() - dt.timedelta(days=1))}" '
                       "IN ACCESS EXCLUSIVE MODE")
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '10s'")  # a roll-up that waits fails instead of hanging
        try:
            changed = segment_days_roll_up(target_id=target.id)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
            holder.rollback()

    assert changed == [END.date()]
    assert_as_the_raw_statistics(target, days=2)
