"""Room per tablespace stored with each collection and import, and read back as the latest per target."""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from apps.snapshots.imports import extract_import
from apps.snapshots.models import TablespaceSpace
from apps.snapshots.selectors import tablespace_space_latest
from apps.snapshots.store import tablespace_space_store
from apps.targets.rows import TablespaceSpace as TablespaceSpaceRow

EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"
UTC = dt.timezone.utc
GIB = 1024**3


@pytest.mark.django_db
class TablespaceSpaceStoreTests:
    def test_it_stores_the_demo_room_with_each_collection(self, demo_target, collect):
        collect(demo_target)

        latest = tablespace_space_latest(target_id=demo_target.id)
        assert set(latest) == {"FLASH_DATA", "HIST_DATA", "SOE_DATA", "SOE_INDEX", "SYSAUX"}
        flash = latest["FLASH_DATA"]
        assert (flash.size_bytes, flash.max_size_bytes, flash.autoextensible) == (48 * GIB, 48 * GIB, False)
        assert 0 < (flash.free_bytes or 0) < 12 * GIB

    def test_it_adds_nothing_when_run_again(self, demo_target, collect):
        collect(demo_target)
        before = TablespaceSpace.objects.filter(target=demo_target).count()

        collect(demo_target)

        assert TablespaceSpace.objects.filter(target=demo_target).count() == before == 5

    def test_it_stores_an_extract_s_tablespaces(self, report_target):
        extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        latest = tablespace_space_latest(target_id=report_target.id)
        assert (latest["USERS"].used_bytes, latest["USERS"].max_size_bytes) == (1350565888, 34359721984)

    def test_it_has_no_room_for_an_older_extract(self, report_target, tmp_path):
        directory = tmp_path / "single"
        shutil.copytree(EXTRACTS / "single", directory)
        (directory / "tablespaces.csv").unlink()

        extract_import(target=report_target, path_or_zip=directory)

        assert tablespace_space_latest(target_id=report_target.id) == {}


@pytest.mark.django_db
class TablespaceSpaceLatestTests:
    def test_it_reads_the_newest_collection_only(self, report_target):
        first, second = dt.datetime(2026, 11, 1, tzinfo=UTC), dt.datetime(2026, 11, 2, tzinfo=UTC)
        tablespace_space_store(target_id=report_target.id, collected_at=first, rows=[
            TablespaceSpaceRow("USERS", 10, 5, 20), TablespaceSpaceRow("DROPPED_SINCE", 10, 1, 10)])
        tablespace_space_store(target_id=report_target.id, collected_at=second, rows=[
            TablespaceSpaceRow("USERS", 10, 8, 20)])

        latest = tablespace_space_latest(target_id=report_target.id)

        assert latest == {"USERS": TablespaceSpaceRow("USERS", 10, 8, 20, None, None)}

    def test_it_keeps_an_unknown_figure_unknown(self, report_target):
        at = dt.datetime(2026, 11, 1, tzinfo=UTC)
        tablespace_space_store(target_id=report_target.id, collected_at=at, rows=[
            TablespaceSpaceRow("USERS", 10, None, None)])

        users = tablespace_space_latest(target_id=report_target.id)["USERS"]

        assert (users.used_bytes, users.max_size_bytes, users.free_bytes) == (None, None, None)

    def test_it_is_empty_for_a_target_no_source_sized(self, report_target):
        assert tablespace_space_latest(target_id=report_target.id) == {}


@pytest.mark.django_db
class TablespaceSpacePruneTests:
    def test_it_keeps_the_retention_horizon_before_the_latest_collection(self, report_target):
        from apps.snapshots.services import tablespace_space_prune

        latest = dt.datetime(2026, 11, 20, tzinfo=UTC)
        for days_before in (0, 10, 40):
            tablespace_space_store(target_id=report_target.id, collected_at=latest - dt.timedelta(days=days_before),
                                   rows=[TablespaceSpaceRow("USERS", 10, 5, 20)])

        deleted = tablespace_space_prune(keep=dt.timedelta(days=35))

        assert deleted == 1
        kept = sorted(TablespaceSpace.objects.filter(target=report_target).values_list("collected_at", flat=True))
        assert kept == [latest - dt.timedelta(days=10), latest]
