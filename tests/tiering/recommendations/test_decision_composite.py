"""Composite partitioning through the real demo pipeline: collect the demo, refresh, read.

SOE.ORDER_LINES is RANGE(ORDER_DATE) by month - HASH(ORDER_ID) x 4; its segments are the subpartitions.
The hot month's (P2026_11) sit on hi-cap disk (HIST_DATA), next month's (P2026_12) are empty.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.selectors import recommendation_list

NOW = dt.datetime(2026, 11, 25, 10, 0, tzinfo=dt.timezone.utc)


def _rows(target, name: str) -> dict[str, tuple]:
    recs = [rec for rec in recommendation_list(target_id=target.id) if rec.segment.object_name == name]
    return {rec.segment.subobject_name: (rec, words) for rec, words in zip(recs, explain(recs, target=target))}


@pytest.mark.django_db
class CompositePartitionTests:
    def test_a_hot_subpartition_is_moved_with_its_own_move_subpartition_statement(self, demo_target, collect):
        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
        rows = _rows(demo_target, "ORDER_LINES")

        for number in range(1, 5):
            rec, words = rows[f"P2026_11_H{number}"]
            assert rec.segment.parent_partition == "P2026_11"
            assert rec.action == "move" and rec.recommended_tier.is_flash, (rec.action, rec.recommended_tier)
            assert (f'ALTER TABLE "SOE"."ORDER_LINES" MOVE SUBPARTITION "P2026_11_H{number}" '
                    f'TABLESPACE "FLASH_DATA" UPDATE INDEXES ONLINE;') in words.ddl
            # The skew between them is told as of subpartitions, the segments it compares.
            skew = [reason.text for reason in words.reasons if reason.code == "partition_skew"]
            assert skew and all("subpartitions of SOE.ORDER_LINES" in text and "hot partitions" not in text
                                for text in skew)

    def test_next_months_subpartitions_are_placed_with_the_hot_month(self, demo_target, collect):
        with time_machine.travel(NOW, tick=False):
            collect(demo_target)

        for name in ("ORDER_LINES", "ORDER_LINES_PK"):
            rows = _rows(demo_target, name)
            hot_tiers = {rows[f"P2026_11_H{n}"][0].recommended_tier_id for n in range(1, 5)}
            for number in range(1, 5):
                rec, words = rows[f"P2026_12_H{number}"]
                assert rec.action == "place_ahead", (name, number, rec.action)
                assert {rec.recommended_tier_id} <= hot_tiers
                assert any(reason.code == "partition_lifecycle" for reason in words.reasons)
            # The hot month's siblings are one time slice: none of them is "ahead" of another.
            assert all(rows[f"P2026_11_H{n}"][0].action != "place_ahead" for n in range(1, 5))

    def test_partitions_are_ordered_by_bound_not_by_position(self, demo_target, collect):
        from apps.snapshots.models import Segment
        from apps.tiering.recommendations.services import recommendation_refresh

        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
            # Positions that say nothing of time (as a list partition's creation order), bounds that do.
            for segment in Segment.objects.filter(target=demo_target, object_name="ORDERS"):
                segment.partition_position = 100 - segment.partition_order
                segment.save(update_fields=["partition_position"])
            recommendation_refresh(target_id=demo_target.id, now=NOW)

        rows = _rows(demo_target, "ORDERS")
        assert rows["ORDERS_P2026_12"][0].action == "place_ahead"
        assert rows["ORDERS_P2027_01"][0].action == "place_ahead"
        assert rows["ORDERS_P2026_10"][0].action != "place_ahead"

    def test_a_hash_partitioned_table_follows_no_lifecycle(self, demo_target, collect):
        from apps.snapshots.models import Segment
        from apps.tiering.recommendations.services import recommendation_refresh

        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
            # As if ORDERS were hash partitioned: PARTITION_POSITION still counts 1..26, but no bound orders them.
            Segment.objects.filter(target=demo_target, object_name="ORDERS").update(
                partitioning="HASH(ORDER_ID)", partition_bound="", partition_order=None)
            recommendation_refresh(target_id=demo_target.id, now=NOW)

        for rec, words in _rows(demo_target, "ORDERS").values():
            assert rec.action != "place_ahead"
            assert not any(reason.code == "partition_lifecycle" for reason in words.reasons)
