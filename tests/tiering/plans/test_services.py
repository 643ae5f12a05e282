"""Making plans from the demo's recommendations, and their states (PostgreSQL)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from apps.tiering.models import Recommendation, Tier
from apps.tiering.plans.models import Plan, PlanStep
from apps.tiering.plans.services import plan_create, plan_transition
from apps.tiering.plans.steps import PHASES, PlanError
from apps.tiering.rules import MOVING_ACTIONS

pytestmark = pytest.mark.django_db


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def make(target, author=None, **how) -> Plan:
    return plan_create(target=target, author=author, author_name=getattr(author, "username", "test"), **how)


class PlanCreateTests:
    def test_all_worth_moving_plans_every_current_move_and_nothing_else(self, collected, admin_user):
        current = Recommendation.objects.current(target_id=collected.id)
        moves = set(current.filter(action__in=MOVING_ACTIONS).values_list("segment_id", flat=True))
        assert moves, "the demo should recommend moves"
        plan = make(collected, admin_user, all_worth_moving=True)
        steps = list(plan.steps.order_by("position"))
        assert {s.segment_id for s in steps if s.kind == "move"} == moves
        assert all(s.action in MOVING_ACTIONS for s in steps)
        assert {"move", "place_ahead"} <= {s.action for s in steps}  # ORDERS' future partitions moved ahead too
        # In phase order, numbered 1..n; the DBID of the target's latest snapshot.
        assert [PHASES.index(s.phase) for s in steps] == sorted(PHASES.index(s.phase) for s in steps)
        assert [s.position for s in steps] == list(range(1, len(steps) + 1))
        assert plan.dbid == collected.snapshots.order_by("-end_at").first().dbid
        assert (plan.state, plan.created_by, plan.source) == ("draft", admin_user, "all worth moving")

    def test_it_refuses_a_selected_recommendation_that_is_no_move_or_hint(self, collected):
        kept = Recommendation.objects.current(target_id=collected.id).filter(action="keep").first()
        with pytest.raises(PlanError, match=r"its recommendation is 'keep', which a plan does not carry out"):
            make(collected, segment_ids=[kept.segment_id])
        assert not Plan.objects.exists()

    def test_a_budget_takes_only_moves_onto_its_tier_that_fit(self, collected):
        current = Recommendation.objects.current(target_id=collected.id).filter(action="move")
        tier = Tier.objects.get(pk=current.values_list("recommended_tier", flat=True).first())
        onto = current.filter(recommended_tier=tier, size_bytes__gt=0, savings_usd__gt=0).order_by("size_bytes")
        budget_gb = sum(r.size_bytes for r in onto[:2]) / 1024**3  # room for the two smallest at least
        plan = make(collected, budget_gb=budget_gb, budget_tier=tier)
        moved = plan.steps.filter(kind="move")
        assert moved.count() >= 2 and all(s.to_tier == tier.name for s in moved)
        assert sum(s.size_bytes for s in moved) <= budget_gb * 1024**3
        assert plan.source == f"budget: {budget_gb:g} GB on {tier.name}"

    def test_estimates_not_made_stay_unknown_and_known_ones_add_up(self, collected):
        current = Recommendation.objects.current(target_id=collected.id).filter(action__in=MOVING_ACTIONS)
        current.update(move_seconds=None, move_redo_bytes=None)  # not estimated (a tier's throughput unknown)
        unknown = make(collected, all_worth_moving=True)
        assert (unknown.seconds, unknown.redo_bytes) == (None, None)
        assert unknown.unknown_seconds == unknown.moves_count > 0
        current.update(move_seconds=10.0, move_redo_bytes=1000)
        known = make(collected, all_worth_moving=True)
        moves = known.steps.filter(kind="move", seconds__isnull=False).count()
        assert known.seconds == 10.0 * moves and known.redo_bytes == 1000 * moves

    def test_free_space_is_unknown_where_no_room_was_collected(self, collected):
        collected.tablespace_space.all().delete()
        plan = make(collected, all_worth_moving=True)
        assert not plan.free_space_checked
        assert not PlanStep.objects.filter(plan=plan, free_after_bytes__isnull=False).exists()

    @pytest.mark.parametrize("room_left", [0, None])
    def test_the_first_move_is_flagged_with_its_shortfall_or_the_room_it_leaves(self, collected, room_left):
        from django.utils import timezone

        from apps.snapshots.models import TablespaceSpace

        plan = make(collected, all_worth_moving=True)
        first = plan.steps.filter(kind="move", size_bytes__gt=0).exclude(to_tablespace="").order_by("position")[0]
        # Room for exactly that segment (room_left None) or none at all, in its destination only.
        collected.tablespace_space.all().delete()
        used = 10**12 - (first.size_bytes if room_left is None else 0)
        TablespaceSpace.objects.create(target=collected, collected_at=timezone.now(), size_bytes=10**12,
                                       tablespace_name=first.to_tablespace, used_bytes=used, max_size_bytes=10**12)
        plan = make(collected, all_worth_moving=True)
        step = plan.steps.get(position=first.position)
        assert plan.free_space_checked
        if room_left is None:
            assert (step.free_after_bytes, step.shortfall_bytes) == (0, None)
        else:
            assert (step.free_after_bytes, step.shortfall_bytes) == (None, step.size_bytes)
            assert plan.shortfalls >= 1


class PlanTransitionTests:
    def test_another_admin_approves_then_it_is_executed_and_verified_each_in_the_audit_log(
            self, collected, admin_user, django_user_model, collect):
        from apps.core.models import AuditLogEntry

        bob = django_user_model.objects.create_superuser(username="bob", email="", password="x")
        plan = make(collected, admin_user, all_worth_moving=True)
        with pytest.raises(PlanError, match=f"plan {plan.pk} was made by ada: another admin approves it"):
            plan_transition(plan_id=plan.pk, to="approved", user=admin_user)
        with pytest.raises(PlanError, match="is draft: it becomes executed only from approved"):
            plan_transition(plan_id=plan.pk, to="executed", user=bob)
        plan_transition(plan_id=plan.pk, to="approved", user=bob)
        plan_transition(plan_id=plan.pk, to="executed", user=admin_user)
        # Verified only once every move's after-window holds enough snapshots: none yet.
        with pytest.raises(PlanError, match=rf"plan {plan.pk} cannot be verified yet: the after-window of step 1 "
                                            r"\(SOE\.[^)]+\) holds 0 snapshots, a verdict needs \d+"):
            plan_transition(plan_id=plan.pk, to="verified", user=bob)
        # Two days on, the demo has applied the moves and a collection has seen them.
        with time_machine.travel(timezone.now() + dt.timedelta(days=2, hours=3)):
            collect(collected)
            plan_transition(plan_id=plan.pk, to="verified", user=bob)
        plan.refresh_from_db()
        assert (plan.state, plan.approved_by, plan.approved_by_name) == ("verified", bob, "bob")
        assert plan.approved_at <= plan.executed_at <= plan.verified_at
        assert (plan.executed_by_name, plan.verified_by_name) == ("ada", "bob")
        entries = AuditLogEntry.objects.get_for_object(plan).order_by("timestamp", "pk")
        assert entries[0].action == AuditLogEntry.Action.CREATE
        states = [e.changes_dict["state"] for e in entries.filter(action=AuditLogEntry.Action.UPDATE)]
        assert states == [["draft", "approved"], ["approved", "executed"], ["executed", "verified"]]
        assert all(e.target_name == "demo" for e in entries)

    def test_a_viewer_changes_no_state(self, collected, viewer):
        plan = make(collected, all_worth_moving=True)
        with pytest.raises(PlanError, match="only an admin"):
            plan_transition(plan_id=plan.pk, to="approved", user=viewer)


class PlanHintTests:
    def test_a_move_advised_with_a_flash_cache_hint_gets_its_hint_step_after_every_move(self, collected):
        from apps.tiering import rules

        none_bit = 1 << rules.FINDING_CODES.index("flash_cache_none")
        hinted = set(Recommendation.objects.current(target_id=collected.id).filter(action="move")
                     .extra(where=["findings & %s <> 0"], params=[none_bit]).values_list("segment_id", flat=True))
        assert hinted, "the demo should advise FLASH_CACHE NONE beside some moves"
        plan = make(collected, all_worth_moving=True)
        hints = plan.steps.filter(kind="hint")
        assert set(hints.values_list("segment_id", flat=True)) == hinted
        assert all("STORAGE (FLASH_CACHE NONE)" in step.ddl for step in hints)
        last_move = plan.steps.filter(kind="move").order_by("-position").first().position
        assert min(hints.values_list("position", flat=True)) > last_move


class PlanVerificationTests:
    """Issue 17 part 1: a plan marked executed records its moves (the demo applies them), and is verified only
    once each move's after-window holds enough snapshots."""

    def test_marking_a_demo_plan_executed_records_its_moves_and_the_next_collection_sees_them(
            self, collected, admin_user, other_admin, collect):
        from apps.snapshots.models import SegmentMove
        from apps.tiering.plans.verification import plan_verdict

        rec = Recommendation.objects.current(target_id=collected.id).filter(
            action="move", segment__object_name="ORDER_ITEMS_PK").get()
        plan = make(collected, admin_user, segment_ids=[rec.segment_id])
        plan_transition(plan_id=plan.pk, to="approved", user=other_admin)
        plan_transition(plan_id=plan.pk, to="executed", user=admin_user)
        step = plan.steps.get(kind="move")
        planned = SegmentMove.objects.get(plan_step_id=step.pk)
        assert (planned.source, planned.from_tablespace, planned.to_tablespace) == ("plan", "SOE_INDEX", "FLASH_DATA")
        collected.refresh_from_db()
        assert ["SOE", "ORDER_ITEMS_PK", "", "INDEX", "FLASH_DATA"] in [
            row[:5] for row in collected.capabilities["demo_moves"]]
        assert plan_verdict(plan=plan).verdict == "too early"

        with time_machine.travel(timezone.now() + dt.timedelta(days=3)):
            collect(collected)
            seen = SegmentMove.objects.get(plan_step_id=step.pk)
            # The collection took the plan's row over: the move is dated by the first snapshot on FLASH_DATA,
            # the first whole hour after the plan was marked executed.
            assert seen.source == "collected" and seen.pk == planned.pk
            assert seen.moved_at == planned.moved_at.replace(minute=0, second=0, microsecond=0) + dt.timedelta(hours=1)
            verdict = plan_verdict(plan=plan)
            assert [row.comparison.verdict for row in verdict.steps] == ["paid"]
            assert verdict.verdict == "paid" and verdict.sentence.startswith("Paid: 1 move: 1 paid; IO time ")
            plan_transition(plan_id=plan.pk, to="verified", user=other_admin)
        plan.refresh_from_db()
        assert plan.state == "verified"

    def test_a_large_plan_s_verdict_compares_its_first_moves_and_says_so(
            self, collected, admin_user, other_admin, monkeypatch):
        from apps.tiering.plans import verification

        recs = Recommendation.objects.current(target_id=collected.id).filter(
            action="move", segment__object_name__in=["ORDER_ITEMS_PK", "Cust Email Idx"])
        plan = make(collected, admin_user, segment_ids=[rec.segment_id for rec in recs])
        plan_transition(plan_id=plan.pk, to="approved", user=other_admin)
        plan_transition(plan_id=plan.pk, to="executed", user=admin_user)
        monkeypatch.setattr(verification, "VERDICT_STEPS", 1)
        verdict = verification.plan_verdict(plan=plan)
        assert len(verdict.steps) == 1
        assert verdict.sentence == ("Too early: 1 move: 1 too early; IO time saved not known yet. "
                                    "(The first 1 of its 2 moves compared.)")
