"""Moves worth making (issue 16, item 1) through the refresh: each move's one-off cost and payback, stored; a
move that does not pay back within its set's horizon, or saves less than its minimum, is "not_worth_moving".

The fixture (``refresh_target``, tests/tiering/stored_targets.py) has HOT, 2 GB on hi-cap disk that cost sends
to flash ($250 -> $60 of purchase: $3.17/month over 60 months), and COLD, 100 GB on flash that cost sends to
hi-cap disk ($3,000 -> $25: $49.58/month). Seed throughputs: disks 40 MB/s, flash 100 MB/s.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from apps.targets.models import Target
from apps.tiering import rules
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.moves.payback import DAYS_PER_MONTH
from apps.tiering.recommendations.explain import explain as _explain
from apps.tiering.recommendations.selectors import recommendation_list
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.recommendations.reason_checks import contradictions
from tests.tiering.stored_targets import COLD, HOT, recommendation_of

GB = 1024**3
_LIFECYCLE = 1 << rules.FINDING_CODES.index("partition_lifecycle")


def explain(recs, *, target):
    """apps.tiering.recommendations.explain on a fresh read of the target: its tier set's terms as the test set them."""
    return _explain(recs, target=Target.objects.select_related("tier_set").get(pk=target.pk))


def _set_terms(**terms) -> None:
    TierSet.objects.filter(name="seed-2009").update(**terms)


def _refreshed(target, key) -> Recommendation:
    recommendation_refresh(target_id=target.id, now=NOW)
    return recommendation_of(target, key)


@pytest.mark.django_db
class MoveCostTests:
    def test_it_stores_a_move_s_duration_redo_one_off_cost_and_payback(self, refresh_target):
        hot = _refreshed(refresh_target, HOT)

        assert hot.action == "move"
        # 2048 MB read off hi-cap disk at 40 MB/s, written to flash at 100 MB/s.
        assert hot.move_seconds == pytest.approx(2048 / 40 + 2048 / 100)
        assert hot.move_redo_bytes == 2 * GB
        # No DBA cost set and the copy's IO is not charged: nothing to pay back.
        assert (hot.move_cost_usd, hot.payback_days) == (Decimal("0.00"), 0.0)

    def test_a_tier_without_a_throughput_leaves_the_duration_unknown_not_zero(self, refresh_target):
        Tier.objects.filter(name="flash").update(throughput_mb_s=None)

        hot = _refreshed(refresh_target, HOT)

        assert hot.action == "move"
        assert hot.move_seconds is None
        assert hot.payback_days == 0.0  # the money does not rest on the duration
        words = " ".join(r.text for r in explain([hot], target=refresh_target)[0].reasons)
        assert "how long that takes is unknown: no throughput is known for flash" in words

    def test_the_dba_cost_is_paid_back_from_the_saving_per_month(self, refresh_target):
        _set_terms(move_cost_usd=Decimal("10"))

        cold = _refreshed(refresh_target, COLD)

        assert cold.action == "move"
        assert cold.move_cost_usd == Decimal("10.00")
        assert cold.payback_days == pytest.approx(10 / (2975 / 60) * DAYS_PER_MONTH)


@pytest.mark.django_db
class NotWorthMovingTests:
    def test_a_move_that_pays_back_after_the_horizon_is_not_made(self, refresh_target):
        # HOT saves $3.17/month: a $10 move takes 96 days, past the 3 months (91.3 days).
        _set_terms(move_cost_usd=Decimal("10"))

        hot = _refreshed(refresh_target, HOT)

        assert hot.action == "not_worth_moving"
        assert hot.recommended_tier_id == hot.current_tier_id
        assert (hot.cost_after_usd, hot.savings_usd) == (hot.cost_now_usd, Decimal("0.00"))
        assert hot.payback_days == pytest.approx(10 / (190 / 60) * DAYS_PER_MONTH)
        explanation = explain([hot], target=refresh_target)[0]
        assert explanation.ddl == ""
        assert explanation.reasons[0].text.startswith(
            "Not worth moving: the move to flash would save $3.17/month, its $10.00 move would take 96 days to pay "
            "back, beyond the 3-month horizon; it stays on hi-cap disk.")
        assert contradictions(hot, explanation) == []

    def test_a_move_saving_less_than_the_minimum_is_not_made(self, refresh_target):
        _set_terms(min_saving_usd_per_month=Decimal("5"))

        hot, cold = _refreshed(refresh_target, HOT), recommendation_of(refresh_target, COLD)

        assert (hot.action, cold.action) == ("not_worth_moving", "move")
        assert "would save $3.17/month, under the minimum of $5.00/month" in explain([hot], target=refresh_target)[0].reasons[
            0].text

    def test_a_longer_horizon_lets_the_move_pay_back(self, refresh_target):
        _set_terms(move_cost_usd=Decimal("10"), payback_horizon_months=Decimal("4"))

        hot = _refreshed(refresh_target, HOT)

        assert hot.action == "move"
        assert hot.savings_usd == Decimal("190.00")
        reasons = explain([hot], target=refresh_target)[0].reasons
        assert [r.code for r in reasons] == ["cheaper_tier", "payback"]
        assert reasons[1].text.startswith(
            "The move saves $3.17/month and pays back its $10.00 move in 96 days, within the 4-month horizon")


@pytest.mark.django_db
class DemoPaybackTests:
    """The real demo pipeline: collect (the refresh follows), then every move against its set's terms."""

    @pytest.mark.parametrize("dba_cost", [Decimal("0"), Decimal("50")])
    def test_no_move_on_the_demo_saves_less_than_its_minimum_or_pays_back_late(self, demo_target, collect, dba_cost):
        _set_terms(move_cost_usd=dba_cost)
        collect(demo_target)
        terms = TierSet.objects.get(name="seed-2009")
        recs = list(recommendation_list(target_id=demo_target.id))
        basis = terms.basis

        # Every move, the lifecycle's hot partitions included: the empty ones moved ahead of their month are
        # their own action, place_ahead, and never among the moves that save.
        moves = [rec for rec in recs if rec.action == "move"]
        assert moves
        # A move worth making only with its group (apps.tiering.recommendations.grouping) is judged on the group's saving, which
        # repays one DBA cost (one script, one window).
        groups: dict[str, list] = {}
        for rec in moves:
            assert rec.move_cost_usd == dba_cost
            if rec.move_group:
                assert "not worth it together" not in rec.move_group, rec.segment
                groups.setdefault(rec.move_group, []).append(rec)
                continue
            assert basis.per_month(rec.savings_usd) >= terms.min_saving_usd_per_month, rec.segment
            assert rec.payback_days is not None
            assert rec.payback_days <= float(terms.payback_horizon_months) * DAYS_PER_MONTH + 1e-9, rec.segment
        for label, members in groups.items():
            together = sum(basis.per_month(rec.savings_usd) for rec in members)
            assert together >= terms.min_saving_usd_per_month, label
            assert dba_cost <= together * terms.payback_horizon_months, label
            assert f"({len(members)} moves, ${together:,.2f}/month together)" in label
        ahead = [rec for rec in recs if rec.action == "place_ahead"]
        assert ahead  # ORDERS' future partitions, table and indexes (test_decision_lifecycle)
        for rec in ahead:
            assert rec.findings & _LIFECYCLE and rec.iops == 0, rec.segment
            assert rec.savings_usd <= 0 and rec.payback_days is None, rec.segment
            assert rec.move_cost_usd == dba_cost and rec.move_seconds is not None, rec.segment
        not_worth = [rec for rec in recs if rec.action == "not_worth_moving"]
        assert not_worth  # the demo has moves too small to be worth their DDL
        for rec in not_worth:
            assert (rec.savings_usd, rec.recommended_tier_id) == (Decimal("0.00"), rec.current_tier_id)
        problems = [p for rec, e in zip(recs, explain(recs, target=demo_target)) for p in contradictions(rec, e)]
        assert problems == []
