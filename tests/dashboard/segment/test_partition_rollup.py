"""A composite table's subpartition page: named with its partition, its partition's subpartitions listed with
their IO summed, and the table's heat by partition with each partition's subpartitions summed into it."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine

from apps.dashboard.segment.partitions import partition_heat, partition_rollup
from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from tests.base import demo_collected_id, rows_for_module

NOW = dt.datetime(2026, 11, 25, 10, 0, tzinfo=dt.timezone.utc)

pytestmark = pytest.mark.django_db


def _composite_id() -> int:
    with time_machine.travel(NOW, tick=False):
        return demo_collected_id()


composite_id = rows_for_module(_composite_id)


@pytest.fixture
def composite(composite_id, db):
    return Target.objects.get(pk=composite_id)


def _subpartition(target, name: str = "P2026_11_H2") -> Segment:
    return Segment.objects.get(target=target, object_name="ORDER_LINES", subobject_name=name)


class PartitionRollupTests:
    def test_it_sums_the_partitions_subpartitions_and_lists_each(self, composite):
        segment = _subpartition(composite)
        recs = {rec.segment.subobject_name: rec for rec in Recommendation.objects.current(target_id=composite.id)
                .filter(segment__object_name="ORDER_LINES", segment__parent_partition="P2026_11")
                .select_related("segment")}
        run_id = next(iter(recs.values())).run_id

        rollup = partition_rollup(segment=segment, run_id=run_id)

        assert [row.name for row in rollup.rows] == [f"P2026_11_H{n}" for n in range(1, 5)]
        assert [row.is_this for row in rollup.rows] == [False, True, False, False]
        assert rollup.complete
        assert rollup.read_requests == sum(rec.read_requests for rec in recs.values())
        assert rollup.iops == pytest.approx(sum(rec.iops for rec in recs.values()))
        assert rollup.size_bytes == sum(rec.size_bytes for rec in recs.values())
        assert rollup.intensity == pytest.approx(rollup.iops / (rollup.size_bytes / 1024**3))
        assert rollup.partitioning == "RANGE(ORDER_DATE)-HASH(ORDER_ID)"

    def test_an_unmeasured_subpartition_leaves_the_sum_unknown_not_short(self, composite):
        segment = _subpartition(composite)
        current = Recommendation.objects.current(target_id=composite.id)
        current.filter(segment__subobject_name="P2026_11_H3", segment__object_name="ORDER_LINES").update(
            measured=False, iops=None, intensity=None)

        rollup = partition_rollup(segment=segment, run_id=current.first().run_id)

        assert not rollup.complete
        assert (rollup.iops, rollup.intensity) == (None, None)

    def test_the_tables_heat_has_one_row_per_partition_by_bound(self, composite):
        segment = _subpartition(composite)
        run_id = Recommendation.objects.current(target_id=composite.id).first().run_id

        heat = partition_heat(segment=segment, run_id=run_id)

        assert [row.partition for row in heat] == ["P2026_08", "P2026_09", "P2026_10", "P2026_11", "P2026_12"]
        assert all(row.subpartitions == 4 for row in heat)
        assert [row.is_this for row in heat] == [False, False, False, True, False]
        assert max(heat, key=lambda row: row.intensity or 0).partition == "P2026_11"

    def test_the_page_names_it_with_its_partition_and_shows_the_partition(self, admin_client, composite):
        segment = _subpartition(composite)

        html = admin_client.get(f"/targets/demo/segments/{segment.id}/").content.decode()

        assert "SOE.ORDER_LINES.P2026_11.P2026_11_H2" in html
        assert 'id="partition-rollup"' in html and 'id="subpartition-table"' in html
        assert "RANGE(ORDER_DATE)-HASH(ORDER_ID)" in html
        assert 'ALTER TABLE &quot;SOE&quot;.&quot;ORDER_LINES&quot; MOVE SUBPARTITION &quot;P2026_11_H2&quot;' in html


def test_a_partitions_page_shows_its_bound(admin_client, composite):
    segment = Segment.objects.get(target=composite, object_name="ORDERS", subobject_name="ORDERS_P2026_11")

    html = admin_client.get(f"/targets/demo/segments/{segment.id}/").content.decode()

    assert 'id="seg-bound"' in html and "2026-12-01 00:00:00" in html
    assert 'id="partition-rollup"' not in html  # a partition of its own: no subpartitions to sum
