"""The room per tablespace card with disk groups: a move whose growth its destination's disk group lacks is
flagged like a move without room in its tablespace; a group whose free space was not read stays unknown."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.snapshots.models import Segment
from apps.snapshots.storage_map import datafiles_store
from apps.snapshots.store import tablespace_space_store
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import DataFile, DiskGroup, TablespaceSpace
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.recommendations.selectors import tablespace_room_table

GIB = 1024**3


def _target(*, usable_mb: int | None) -> Target:
    """DISK_TS: 100 GiB of files, 90 GiB used, autoextending to 1 TiB in +DATA (``usable_mb`` usable; None: the
    group not read); moves of 15 GiB ($9 saved) then 30 GiB ($1) into it."""
    target = Target.objects.create(name="asm", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
    disk = Tier.objects.get(tier_set="seed-2009", name="hi-cap disk")
    TablespaceTier.objects.create(target=target, tablespace_name="DISK_TS", tier=disk)
    now = timezone.now()
    tablespace_space_store(target_id=target.id, collected_at=now - dt.timedelta(hours=1), rows=[
        TablespaceSpace("DISK_TS", size_bytes=100 * GIB, used_bytes=90 * GIB, max_size_bytes=1024 * GIB)])
    groups = [] if usable_mb is None else [DiskGroup("DATA", redundancy="NORMAL", total_mb=2097152, free_mb=600000,
                                                     required_mirror_free_mb=131072, usable_file_mb=usable_mb)]
    datafiles_store(target_id=target.id, collected_at=now - dt.timedelta(hours=1), disk_groups=groups, rows=[
        DataFile("DISK_TS", 7, "+DATA/P/DATAFILE/disk_ts.7.1", 100 * GIB, 1024 * GIB, True)])
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95")
    for name, size, saving in (("FIRST", 15 * GIB, "9.00"), ("SECOND", 30 * GIB, "1.00")):
        segment = Segment.objects.create(target=target, owner="APP", object_name=name, object_type="TABLE",
                                         tablespace_name="ELSEWHERE", size_bytes=size, first_seen_at=now,
                                         last_seen_at=now)
        Recommendation.objects.create(run=run, segment=segment, size_bytes=size, recommended_tier=disk,
                                      savings_usd=Decimal(saving), action="move")
    return target


@pytest.mark.django_db
class DiskGroupRoomTests:
    def test_it_flags_a_move_whose_growth_the_disk_group_lacks(self, seed_tiers):
        target = _target(usable_mb=20 * 1024)

        [row] = tablespace_room_table(target_id=target.id).rows

        # 15 GiB: 10 in the files, 5 grown in +DATA; 30 GiB: 30 to grow, 15 left there.
        assert (row.short_moves, row.disk_short_moves, row.disk_shortfall_bytes) == (1, 1, 15 * GIB)
        assert row.shortfall_bytes == 15 * GIB
        assert row.room_after_bytes == 1024 * GIB - 135 * GIB  # the tablespace itself has room
        assert [(place, group.redundancy) for place, group in row.disk_groups] == [("+DATA", "NORMAL")]

    def test_it_leaves_the_disk_check_unknown_when_the_group_was_not_read(self, seed_tiers):
        target = _target(usable_mb=None)

        [row] = tablespace_room_table(target_id=target.id).rows

        assert (row.short_moves, row.disk_short_moves, row.disk_unknown_moves) == (0, 0, 2)
        assert row.disk_groups == (("+DATA", None),)

    def test_the_card_shows_the_group_and_the_short_move(self, viewer_client, seed_tiers):
        target = _target(usable_mb=20 * 1024)

        html = viewer_client.get(f"/targets/{target.name}/").content.decode()

        assert 'data-disk-group="+DATA"' in html
        assert "normal, 20.0 GB usable" in html
        assert "1 move needs more growth than the disk group has usable: 15.0 GB short" in html

    def test_the_card_says_unknown_for_a_group_not_read(self, viewer_client, seed_tiers):
        target = _target(usable_mb=None)

        html = viewer_client.get(f"/targets/{target.name}/").content.decode()

        assert "free space unknown" in html
        assert "2 moves grow its files where free space is not known" in html


@pytest.mark.django_db
class DemoRoomCardTests:
    def test_a_tablespace_grows_only_into_the_groups_where_its_files_may_still_grow(self, demo_target, collect):
        collect(demo_target)

        rows = {row.tablespace_name: row for row in tablespace_room_table(target_id=demo_target.id).rows}

        # SOE_INDEX's first file, on +DATA, is at its limit: its growth goes to its files on +FLASH.
        assert [place for place, _group in rows["SOE_INDEX"].disk_groups] == ["+FLASH"]
        assert [place for place, _group in rows["SOE_DATA"].disk_groups] == ["+DATA"]
        assert rows["HIST_DATA"].disk_groups == ()  # on a file system
        assert rows["FLASH_DATA"].disk_groups == ()  # fixed size: it grows nowhere
