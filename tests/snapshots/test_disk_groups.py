"""The ASM disk groups in the database: stored with the files of the newest collection, read by the storage map
and by the room checks (growth headroom per location)."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.storage_map import datafiles_store, disk_groups_read, growth_room_read, storage_map_read
from apps.snapshots.storage_models import DiskGroup
from apps.targets.rows import DataFile as DataFileRow
from apps.targets.rows import DiskGroup as DiskGroupRow

pytestmark = pytest.mark.usefixtures("seed_tiers")  # the report target's tier set, seed-2009, priced

UTC = dt.timezone.utc
AT = dt.datetime(2026, 11, 20, 12, tzinfo=UTC)
GIB = 1024**3
FILES = [
    DataFileRow("SOE", 1, "+DATA/P/DATAFILE/soe.1.1", 30 * GIB, 32 * GIB, True),
    DataFileRow("SOE", 2, "+FLASH/P/DATAFILE/soe.2.1", 10 * GIB, 32 * GIB, True),
    DataFileRow("FIXED", 3, "+DATA/P/DATAFILE/fixed.3.1", 5 * GIB, 5 * GIB, False),
    DataFileRow("HIST", 4, "/u03/oradata/P/hist01.dbf", 100 * GIB, None, None),
    DataFileRow("TEMP", 1, "+DATA/P/TEMPFILE/temp.4.1", 2 * GIB, 32 * GIB, True, file_type="TEMP"),
]
DATA = DiskGroupRow("DATA", redundancy="NORMAL", state="CONNECTED", total_mb=1048576, free_mb=307200,
                    required_mirror_free_mb=65536, usable_file_mb=120832, offline_disks=0)


@pytest.mark.django_db
class DiskGroupStoreTests:
    def test_it_keeps_the_groups_read_with_the_files(self, report_target):
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])

        assert disk_groups_read(target_id=report_target.id) == {"+DATA": DATA}

    def test_a_newer_collection_without_the_groups_drops_them(self, report_target):
        # Yesterday's free space must not pass for today's: a group not read is unknown.
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])
        datafiles_store(target_id=report_target.id, collected_at=AT + dt.timedelta(hours=1), rows=FILES)

        assert DiskGroup.objects.filter(target=report_target).count() == 0

    def test_an_older_extract_imported_late_changes_nothing(self, report_target):
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])
        datafiles_store(target_id=report_target.id, collected_at=AT - dt.timedelta(days=1), rows=FILES)

        assert list(disk_groups_read(target_id=report_target.id)) == ["+DATA"]


@pytest.mark.django_db
class DiskGroupReadTests:
    def test_the_map_shows_each_location_with_its_group_or_none(self, report_target):
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])

        locations = {row.name: row for row in storage_map_read(target_id=report_target.id).locations}

        assert locations["+DATA"].disk_group == DATA
        assert locations["+FLASH"].disk_group is None  # named by a file, not listed by the view: unknown
        assert locations["/u03/oradata"].disk_group is None

    def test_the_map_offers_a_group_no_file_of_this_database_is_in(self, report_target):
        reco = DiskGroupRow("RECO", redundancy="HIGH", total_mb=10, free_mb=5, usable_file_mb=1)
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA, reco])

        locations = {row.name: row for row in storage_map_read(target_id=report_target.id).locations}

        assert (locations["+RECO"].kind, locations["+RECO"].files, locations["+RECO"].disk_group) == ("asm", 0, reco)

    def test_growth_headroom_is_per_tablespace_and_location_of_autoextensible_data_files(self, report_target):
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])

        growth = growth_room_read(target_id=report_target.id)

        assert growth.headroom == {"SOE": {"+DATA": 2 * GIB, "+FLASH": 22 * GIB}, "HIST": {"/u03/oradata": None}}
        assert growth.location_room == {"+DATA": 120832 * 1024**2, "+FLASH": None, "/u03/oradata": None}


@pytest.mark.django_db
class DiskGroupAdminTests:
    def test_admins_read_the_groups_and_cannot_add_one(self, report_target, admin_client):
        datafiles_store(target_id=report_target.id, collected_at=AT, rows=FILES, disk_groups=[DATA])

        listing = admin_client.get("/admin/snapshots/diskgroup/")

        assert listing.status_code == 200 and "NORMAL" in listing.content.decode()
        assert admin_client.get("/admin/snapshots/diskgroup/add/").status_code == 403


@pytest.mark.django_db
class DiskGroupCollectionTests:
    def test_a_demo_collection_stores_its_disk_groups(self, demo_target, collect):
        collect(demo_target)

        groups = disk_groups_read(target_id=demo_target.id)

        assert {name: group.redundancy for name, group in groups.items()} == {"+DATA": "NORMAL", "+FLASH": "NORMAL"}
        assert all(group.usable_file_mb is not None and group.usable_file_mb > 0 for group in groups.values())
