"""The target page's room per tablespace: now, and after the recommended moves in order of saving."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from apps.snapshots.models import Segment
from apps.snapshots.store import tablespace_space_store
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import TablespaceSpace
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.recommendations.selectors import tablespace_room_table

GB = 10**9


@pytest.fixture
def sized(seed_tiers) -> Target:
    """FLASH_TS with 20 GB of room, DISK_TS with plenty; moves of 15, 10 and 30 GB to flash saving $9, $5 and
    $1 a month, one of unknown size out of flash, and one to a tier no tablespace is mapped to."""
    target = Target.objects.create(name="sized", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
    tiers = {tier.name: tier for tier in Tier.objects.filter(tier_set="seed-2009")}
    TablespaceTier.objects.create(target=target, tablespace_name="FLASH_TS", tier=tiers["flash"])
    TablespaceTier.objects.create(target=target, tablespace_name="DISK_TS", tier=tiers["hi-cap disk"])
    now = timezone.now()
    tablespace_space_store(target_id=target.id, collected_at=now - dt.timedelta(hours=1), rows=[
        TablespaceSpace("FLASH_TS", size_bytes=100 * GB, used_bytes=80 * GB, max_size_bytes=100 * GB),
        TablespaceSpace("DISK_TS", size_bytes=500 * GB, used_bytes=100 * GB, max_size_bytes=1000 * GB),
    ])
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95")
    moves = [  # (name, tablespace, size, to tier, saving, action)
        ("BIG_SAVER", "DISK_TS", 15 * GB, "flash", "9.00", "move"),
        ("SMALL_SAVER", "DISK_TS", 30 * GB, "flash", "1.00", "move"),
        ("MIDDLE_SAVER", "DISK_TS", 10 * GB, "flash", "5.00", "move"),
        ("UNSIZED", "FLASH_TS", None, "hi-cap disk", "0.50", "move"),
        ("TO_FAST", "DISK_TS", GB, "fast disk", "0.40", "move"),
        ("STAYS", "DISK_TS", 50 * GB, "flash", "20.00", "keep"),
    ]
    for name, tablespace, size, tier, saving, action in moves:
        segment = Segment.objects.create(target=target, owner="APP", object_name=name, object_type="TABLE",
                                         tablespace_name=tablespace, size_bytes=size, first_seen_at=now,
                                         last_seen_at=now)
        Recommendation.objects.create(run=run, segment=segment, size_bytes=size, recommended_tier=tiers[tier],
                                      savings_usd=Decimal(saving), action=action)
    return target


@pytest.mark.django_db
class TablespaceRoomTableTests:
    def test_it_runs_the_moves_in_order_of_saving(self, sized):
        flash = {row.tablespace_name: row for row in tablespace_room_table(target_id=sized.id).rows}["FLASH_TS"]

        # 20 GB of room: $9's 15 GB fit, then $5's 10 GB lack 5, then $1's 30 GB lack 35 (the plan runs them all).
        assert (flash.moves_in, flash.short_moves, flash.shortfall_bytes) == (3, 2, 35 * GB)
        assert flash.moves_out == 1

    def test_it_keeps_unknown_sizes_unknown(self, sized):
        rows = {row.tablespace_name: row for row in tablespace_room_table(target_id=sized.id).rows}

        # A segment of unknown size goes to DISK_TS: its room after is unknown, not what the others leave.
        assert rows["DISK_TS"].room_after_bytes is None
        assert rows["DISK_TS"].shortfall_bytes is None
        # FLASH_TS lost 55 GB and freed an unknown size: a lower bound.
        assert (rows["FLASH_TS"].room_after_bytes, rows["FLASH_TS"].room_after_exact) == (-35 * GB, False)

    def test_it_counts_moves_to_an_unmapped_tier_apart(self, sized):
        table = tablespace_room_table(target_id=sized.id)

        assert (table.moves, table.unplaced_moves) == (5, 1)
        assert [row.tablespace_name for row in table.rows] == ["DISK_TS", "FLASH_TS"]
        assert {row.tablespace_name: row.tier for row in table.rows} == {"DISK_TS": "hi-cap disk", "FLASH_TS": "flash"}

    def test_it_reads_in_eight_queries(self, sized, django_assert_num_queries):
        # The latest room, the current run's id and its moves, and the tablespaces' effective tiers (the storage
        # map: the hand map with its tiers, the locations, the files, the disk groups), and the autoextensible
        # files' headroom.
        with django_assert_num_queries(8):
            tablespace_room_table(target_id=sized.id)

    def test_it_is_none_without_sizes(self, seed_tiers):
        target = Target.objects.create(name="unsized", mode=Target.Mode.REPORT, tier_set_id="seed-2009")

        assert tablespace_room_table(target_id=target.id) is None


@pytest.mark.django_db
class TargetPageRoomTests:
    def test_it_shows_room_now_and_after_the_moves(self, viewer_client, sized):
        html = viewer_client.get(f"/targets/{sized.name}/").content.decode()

        table = html.split('id="tablespace-room-table"', 1)[1].split("</table>", 1)[0]
        assert "FLASH_TS" in table and "DISK_TS" in table
        assert "2 moves lack room: 32.6 GB short" in table  # 35 GB in binary units
        assert "3 in, 1 out" in table
        assert "1 move goes to a tier no tablespace of this target is mapped to" in html

    def test_it_says_when_no_source_gave_sizes(self, viewer_client, seed_tiers):
        Target.objects.create(name="unsized", mode=Target.Mode.REPORT, tier_set_id="seed-2009")

        html = viewer_client.get("/targets/unsized/").content.decode()

        assert "No source gave this target&#x27;s tablespace sizes" in html or \
            "No source gave this target's tablespace sizes" in html
