"""The partition lifecycle through the real demo pipeline (issue 16, item 3): collect the demo, refresh, read.

ORDERS is range partitioned by month: P2026_11 is this month's hot partition, P2026_12 and P2027_01 are
created ahead and empty. Their table partitions sit in HIST_DATA (hi-cap disk), their index partitions in
SOE_INDEX (fast disk); priced on their empty figures alone they would all go to (or stay on) hi-cap disk.
"""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.selectors import recommendation_list
from tests.tiering.recommendations.reason_checks import contradictions

NOW = dt.datetime(2026, 11, 25, 10, 0, tzinfo=dt.timezone.utc)
ROLES = ("ORDERS", "ORDERS_PK", "ORDERS_CUST_IX")
HOT, AHEAD = "ORDERS_P2026_11", ("ORDERS_P2026_12", "ORDERS_P2027_01")


def _orders(target) -> dict[tuple[str, str], tuple]:
    recs = [rec for rec in recommendation_list(target_id=target.id) if rec.segment.object_name in ROLES]
    return {(rec.segment.object_name, rec.segment.subobject_name): (rec, words)
            for rec, words in zip(recs, explain(recs, target=target))}


@pytest.mark.django_db
class DemoPartitionLifecycleTests:
    def test_the_future_partitions_of_orders_go_where_the_hot_month_belongs(self, demo_target, collect):
        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
        rows = _orders(demo_target)

        for role in ROLES:
            hot, _ = rows[(role, HOT)]
            assert hot.recommended_tier.is_flash, (role, hot.recommended_tier)
            for name in AHEAD:
                rec, words = rows[(role, name)]
                # Placed with the hot month, not on hi-cap disk the month before it becomes the hot one.
                assert rec.recommended_tier_id == hot.recommended_tier_id, (role, name, rec.recommended_tier)
                # Its own action: moved now, but saving nothing until its month (no payback, not a saving move).
                assert rec.action == "place_ahead", (role, name, rec.action)
                assert (rec.read_requests, rec.write_requests) == (0, 0)
                assert "FLASH_DATA" in words.ddl, words.ddl
                assert any(reason.code == "partition_lifecycle" for reason in words.reasons)
                assert contradictions(rec, words) == []

    def test_older_partitions_keep_the_tier_their_own_figures_give(self, demo_target, collect):
        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
        rows = _orders(demo_target)

        older = [(rec, words) for (role, name), (rec, words) in rows.items() if name < HOT]
        assert len(older) == 3 * 23
        for rec, words in older:
            assert not any(reason.code == "partition_lifecycle" for reason in words.reasons)
            if rec.action == "move":
                assert rec.recommended_tier_id == rec.cost_tier_id
        # The decay by age: a year-old partition is on a slower tier than last month's.
        assert not rows[("ORDERS", "ORDERS_P2025_11")][0].recommended_tier.is_flash

    def test_an_interval_partitioned_tables_hot_partition_sends_its_next_partitions_where_it_goes(
            self, demo_target, collect):
        from apps.snapshots.models import Segment
        from apps.tiering.recommendations.services import recommendation_refresh

        with time_machine.travel(NOW, tick=False):
            collect(demo_target)
            # As if ORDERS were interval partitioned: its partitions say so (DBA_TAB_PARTITIONS.INTERVAL).
            Segment.objects.filter(target=demo_target, object_name="ORDERS").update(partition_interval=True)
            recommendation_refresh(target_id=demo_target.id, now=NOW)
        hot, words = _orders(demo_target)[("ORDERS", HOT)]

        assert hot.action == "move"
        assert 'ALTER TABLE "SOE"."ORDERS" SET STORE IN ("FLASH_DATA");' in words.ddl
        assert 'ALTER TABLE "SOE"."ORDERS" MODIFY DEFAULT ATTRIBUTES TABLESPACE "FLASH_DATA";' in words.ddl
        # A local index whose partitions do not say so gets no such statement.
        assert "DEFAULT ATTRIBUTES" not in _orders(demo_target)[("ORDERS_PK", HOT)][1].ddl
