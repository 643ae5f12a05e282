"""apps.tiering.budget.services on the demo: a budget remembered when its plans are made keeps its choices in
the next run on slightly different figures, a clearly better challenger still takes a place, an eviction is
refused when the one-off moves cost more than the replacement earns, and plans say what each eviction costs."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import numpy as np
import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from apps.targets.models import Target
from apps.tiering.budget import GB, Outcome
from apps.tiering.budget.models import BudgetRun
from apps.tiering.budget.services import RUNS_KEPT, budget_run_remember, fleet_budget, fleet_budget_plans
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.plans.models import PlanStep
from tests.base import demo_collected_id, rows_for_module

HUGE = 100_000.0


demo_id = rows_for_module(demo_collected_id)


@pytest.fixture
def demo(demo_id, db):
    return Target.objects.get(pk=demo_id)


def _off_flash(target, count: int = 2) -> list[int]:
    """Segments of the target off flash whose IO was measured: the ones the tests heat up."""
    flash = Tier.objects.get(name="flash")
    rows = (Recommendation.objects.current(target_id=target.id).filter(iops__isnull=False, size_bytes__gt=0,
                                                                        current_tier__isnull=False)
            .exclude(current_tier=flash).order_by("segment_id").values_list("segment_id", flat=True))
    return list(rows[:count])


def _heat(target, segment_id: int, iops: float, *, move_cost: Decimal | None = Decimal(0)) -> None:
    """Make the segment's current recommendation a 1 GB move onto flash at ``iops`` (its saving large enough to
    repay any move), as a refresh on new figures would."""
    Recommendation.objects.current(target_id=target.id).filter(segment_id=segment_id).update(
        iops=iops, measured=True, size_bytes=GB, size_gb=1.0, action="move", findings=0,
        recommended_tier=Tier.objects.get(name="flash"), savings_usd=Decimal("10000000000"), move_cost_usd=move_cost)


def _on_after(budget) -> set[int]:
    on = np.isin(budget.split.outcome, (Outcome.STAYS, Outcome.MOVES_IN, Outcome.KEPT, Outcome.KEPT_NOT_REPAYING))
    return set(budget.rows["segment_id"][on].tolist())


def _outcome(budget, segment_id: int) -> int:
    return int(budget.split.outcome[np.flatnonzero(budget.rows["segment_id"] == segment_id)[0]])


def _room_for_one(demo) -> float:
    """A budget with room for one of the two hot segments: what must stay on flash, and 1.5 GB."""
    probe = fleet_budget(tier_name="flash", gb=HUGE)
    return probe.split.total("kept_gb") + probe.split.total("kept_not_repaying_gb") + 1.5


@pytest.mark.django_db
class RememberedRunTests:
    def test_a_rerun_a_day_later_on_slightly_different_figures_keeps_the_chosen_set(self, demo, admin_user):
        a, b = _off_flash(demo)
        _heat(demo, a, 1_000_000)
        _heat(demo, b, 950_000)
        gb = _room_for_one(demo)
        first = fleet_budget(tier_name="flash", gb=gb)
        assert (_outcome(first, a), _outcome(first, b)) == (Outcome.MOVES_IN, Outcome.OFF)
        fleet_budget_plans(budget=first, author=admin_user, author_name="ada")

        # A day later b is 5 % hotter than a, a 5 % cooler: within the 25 % margin.
        _heat(demo, a, 950_000)
        _heat(demo, b, 1_000_000)
        second = fleet_budget(tier_name="flash", gb=gb)

        assert second.previous is not None and second.previous.chosen_count == len(_on_after(first))
        assert _on_after(second) == _on_after(first)
        assert [k.reason for k in second.kept() if k.segment_id == a] == ["margin"]
        # Without the memory the budget would have swapped them: what it is there to prevent.
        BudgetRun.objects.all().delete()
        forgetful = fleet_budget(tier_name="flash", gb=gb)
        assert (_outcome(forgetful, a), _outcome(forgetful, b)) == (Outcome.OFF, Outcome.MOVES_IN)

    def test_a_challenger_clearly_better_takes_the_place_of_one_chosen_before(self, demo, admin_user):
        a, b = _off_flash(demo)
        _heat(demo, a, 1_000_000)
        _heat(demo, b, 950_000)
        gb = _room_for_one(demo)
        fleet_budget_plans(budget=fleet_budget(tier_name="flash", gb=gb), author=admin_user, author_name="ada")

        _heat(demo, b, 1_500_000)  # 50 % more: past the margin
        second = fleet_budget(tier_name="flash", gb=gb)

        assert (_outcome(second, a), _outcome(second, b)) == (Outcome.OFF, Outcome.MOVES_IN)
        assert second.lost() == (1, 0)

    def test_it_refuses_an_eviction_when_the_one_off_moves_cost_more_than_the_replacement_earns(self, demo):
        # Flash is full with what it holds; one segment's move onto it competes for the room (the demo's other
        # moves onto or off flash are kept as they are, and the margin is 0: the money alone decides).
        TierSet.objects.filter(name="seed-2009").update(hysteresis_band=0)
        (a,) = _off_flash(demo, 1)
        flash = Tier.objects.get(name="flash")
        current = Recommendation.objects.current(target_id=demo.id)
        current.filter(action="move", recommended_tier=flash).update(action="keep", recommended_tier=F("current_tier"))
        current.filter(current_tier=flash, action="move").update(action="not_movable", recommended_tier=flash)
        _heat(demo, a, 1_000_000, move_cost=None)  # its move costs what the set says
        probe = fleet_budget(tier_name="flash", gb=HUGE)
        room = probe.split.total("gb_after") - 1.0
        earns = float(probe.rows["value"][probe.rows["segment_id"] == a][0]) * 3  # over the 3-month horizon

        free = fleet_budget(tier_name="flash", gb=room)
        TierSet.objects.filter(name="seed-2009").update(move_cost_usd=Decimal(round(earns)))
        dear = fleet_budget(tier_name="flash", gb=room)

        # Free moves: the hot segment takes the room of what is worth least on flash now.
        assert _outcome(free, a) == Outcome.MOVES_IN and free.split.total("evicted") > 0
        for eviction in free.evictions():
            assert eviction.replacements == 1  # the hot segment, which earns more on its room than it loses
            assert eviction.replacement_earns_usd > eviction.loses_usd * eviction.replaced_gb / eviction.size_gb
        # Moves costing as much as it earns over the horizon: its eviction of anything would cost that once
        # more, plus what the evicted segment loses; nothing is evicted, though its own move in would repay.
        assert _outcome(dear, a) == Outcome.OFF and dear.split.total("evicted") == 0
        assert dear.rows["move_cost"][dear.rows["segment_id"] == a].tolist() == [float(round(earns))]
        reasons = {k.reason for k in dear.kept(reasons=("one_off", "margin"))}
        assert reasons == {"one_off"}  # and the page says why they stay

    def test_it_remembers_the_segments_on_the_tier_under_the_budget_and_keeps_the_latest_runs(self, demo, admin_user):
        budget = fleet_budget(tier_name="flash", gb=2)
        start = timezone.now()

        runs = [budget_run_remember(budget=budget, author=admin_user, author_name="ada", how="on purpose",
                                    now=start + dt.timedelta(minutes=i)) for i in range(RUNS_KEPT + 2)]

        kept = list(BudgetRun.objects.order_by("made_at"))
        assert [run.pk for run in kept] == [run.pk for run in runs[2:]]
        assert set(kept[-1].chosen.tolist()) == _on_after(budget) and kept[-1].budget_gb == 2
        assert fleet_budget(tier_name="flash", gb=2).previous.pk == runs[-1].pk


@pytest.mark.django_db
class BudgetPlanWordsTests:
    def test_each_eviction_step_says_what_it_costs_and_what_takes_its_room(self, demo, admin_user):
        TierSet.objects.filter(name="seed-2009").update(move_cost_usd=Decimal(40))
        budget = fleet_budget(tier_name="flash", gb=0.5)
        evicted = budget.evictions()

        made = fleet_budget_plans(budget=budget, author=admin_user, author_name="ada")

        plan = made.plans[0]
        steps = {step.segment_id: step for step in PlanStep.objects.filter(plan=plan, kind="move")}
        assert evicted
        for eviction in evicted:
            step = steps[eviction.segment_id]
            first = step.ddl.splitlines()[0]
            assert first.startswith("-- evicted from flash by the fleet budget: it loses $")
            assert "its move costs $40.00 once" in first and "over the 3-month payback horizon" in first
            assert step.move_cost_usd == Decimal("40.00") and step.runnable
        assert plan.note.startswith(f"{len(evicted)} eviction")
        # 0.5 GB is below what flash holds: nothing worth more takes the room, and the words say so.
        assert "the budget is below what flash holds" in evicted[0].words
        assert made.run is not None and made.run.how == f"its plans: plan {plan.pk}"


@pytest.mark.django_db
class BudgetRunAdminTests:
    def test_an_admin_sees_the_runs_remembered_read_only(self, demo, admin_user, admin_client):
        run = budget_run_remember(budget=fleet_budget(tier_name="flash", gb=2), author=admin_user, author_name="ada",
                                  how="remembered on purpose")

        listed = admin_client.get(reverse("admin:tiering_budgetrun_changelist"))
        shown = admin_client.get(reverse("admin:tiering_budgetrun_change", args=[run.pk]))

        assert listed.status_code == shown.status_code == 200
        assert b"remembered on purpose" in listed.content and b"chosen_segment_ids" not in shown.content
        assert admin_client.get(reverse("admin:tiering_budgetrun_add")).status_code == 403
