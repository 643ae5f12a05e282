"""Grouped payback through the refresh: fifteen small partitions of one table, each not worth moving alone,
moved together when their sum passes the set's bar, and left as they were when it does not.

Seed prices (purchase, 60 months): a 0.2 GB partition at 10 IOPS costs max(10 x $2.50, 0.2 x $0.25) = $25 on
hi-cap disk and max(10 x $0.08, 0.2 x $30) = $6 on flash: $19 saved, $0.32 a month, under the $1 minimum;
fifteen save $4.75 a month.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.snapshots.models import Segment
from apps.targets.models import TablespaceTier, Target
from apps.targets.rows import SegmentKey
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.export import HEADER, export_rows
from apps.tiering.recommendations.selectors import recommendation_list
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.recommendations.reason_checks import contradictions
from tests.tiering.stored_targets import LABEL, cold_partitions_store


@pytest.fixture
def target(grouped_target) -> Target:
    """tests/conftest.py's ``grouped_target``: fifteen small partitions of APP.ORDERS on hi-cap disk."""
    return grouped_target


def _recs(target: Target) -> list[Recommendation]:
    recommendation_refresh(target_id=target.id, now=NOW)
    return list(recommendation_list(target_id=target.id).filter(segment__object_name="ORDERS"))


def _set_terms(**terms) -> None:
    TierSet.objects.filter(name="seed-2009").update(**terms)


@pytest.mark.django_db
class GroupedPaybackTests:
    def test_partitions_each_under_the_minimum_move_together_when_their_sum_passes_it(self, target):
        recs = _recs(target)

        assert len(recs) == 15
        for rec in recs:
            assert rec.action == "move", rec.segment
            assert rec.recommended_tier.name == "flash"
            assert rec.savings_usd == Decimal("19.00")  # $0.32 a month alone: under the $1 minimum
            assert rec.move_group == LABEL
        explained = explain(recs, target=Target.objects.select_related("tier_set").get(pk=target.pk))
        first = explained[0].reasons[0]
        assert first.code == "moves_with_group"
        assert first.text.startswith(f"Worth moving with its group: {LABEL}. Alone its $0.32/month is under the "
                                     "minimum of $1.00/month")
        assert "ALTER TABLE" in explained[0].ddl and "MOVE PARTITION" in explained[0].ddl
        assert [p for rec, e in zip(recs, explained) for p in contradictions(rec, e)] == []

    def test_partitions_whose_sum_is_under_the_minimum_are_left_as_they_were(self, target):
        _set_terms(min_saving_usd_per_month=Decimal("5"))  # $4.75 a month together is under it

        recs = _recs(target)

        for rec in recs:
            assert rec.action == "not_worth_moving", rec.segment
            assert rec.recommended_tier_id == rec.current_tier_id and rec.savings_usd == Decimal("0.00")
            assert rec.move_group == "APP.ORDERS partitions → flash (15 moves, $4.75/month together; not worth it " \
                                     "together)"
        reasons = explain(recs[:1], target=Target.objects.select_related("tier_set").get(pk=target.pk))[0].reasons
        assert reasons[0].code == "not_worth_moving"
        assert reasons[-1].code == "move_group" and "not worth it together" in reasons[-1].text

    def test_a_dba_cost_per_move_is_paid_once_by_the_group(self, target):
        # $10 a move: alone never repaid by $0.32 a month within 3 months; once for $4.75 a month, in 64 days.
        _set_terms(move_cost_usd=Decimal("10"))
        assert {rec.action for rec in _recs(target)} == {"move"}

        _set_terms(move_cost_usd=Decimal("15"))  # 15 > 3 x 4.75
        assert {rec.action for rec in _recs(target)} == {"not_worth_moving"}

    def test_the_export_and_the_pages_read_the_stored_group(self, target):
        recs = _recs(target)
        rows = export_rows(recs, Target.objects.select_related("tier_set").get(pk=target.pk))

        assert HEADER[-2:] == ("move_group", "lob_index")
        assert {row[HEADER.index("move_group")] for row in rows} == {LABEL}
        assert Segment.objects.filter(target=target).count() == 15


TABLES = tuple(SegmentKey("APP", f"SALES_2024_{month:02d}", "", "TABLE") for month in range(1, 16))


@pytest.fixture
def cloud_target(db, seed_tiers) -> Target:
    """The aws-ebs set at its own terms ($1 a month at least): COLD on gp3."""
    target = Target.objects.create(name="c1", mode=Target.Mode.DEMO, tier_set_id="aws-ebs")
    TablespaceTier.objects.create(target=target, tablespace_name="COLD", tier=Tier.objects.get(name="EBS gp3"))
    return target


@pytest.mark.django_db
class CloudVolumeGroupTests:
    def test_a_volume_tablespace_s_tables_each_under_the_minimum_move_together(self, cloud_target):
        # Each table saves $0.35 a month on pooled st1 ($0.80 on gp3, $0.45 on st1), under the $1 minimum.
        cold_partitions_store(cloud_target, keys=TABLES)
        recommendation_refresh(target_id=cloud_target.id, now=NOW)

        recs = list(Recommendation.objects.current(target_id=cloud_target.id).select_related("recommended_tier"))
        assert len(recs) == 15
        assert {(rec.action, rec.recommended_tier.name) for rec in recs} == {("move", "EBS st1")}
        assert {rec.move_group for rec in recs} == {
            "tablespace COLD → EBS st1 (15 moves, $5.25/month together, volume charges included)"}

    def test_a_new_volume_s_minimum_counts_against_a_small_group(self, cloud_target):
        # Two tables alone: $0.70 a month of marginal saving, but their 20 GB on a new st1 volume pay its
        # 125 GB minimum ($4.73 a month more): not worth it together.
        cold_partitions_store(cloud_target, keys=TABLES[:2])
        recommendation_refresh(target_id=cloud_target.id, now=NOW)

        recs = list(Recommendation.objects.current(target_id=cloud_target.id))
        assert {rec.action for rec in recs} == {"not_worth_moving"}
        assert {rec.move_group for rec in recs} == {
            "tablespace COLD → EBS st1 (2 moves, $4.03/month more together, volume charges included; not worth it "
            "together)"}
