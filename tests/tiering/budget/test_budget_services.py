"""apps.tiering.budget.services: a flash budget split across the demo and a target imported from the offline
extract, from their current recommendations, and the plans it implies."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from apps.snapshots.imports import extract_import
from apps.targets.models import TablespaceTier, Target
from apps.tiering.budget import GB, Outcome
from apps.tiering.budget.services import BudgetError, fleet_budget, fleet_budget_plans
from apps.tiering.models import Recommendation, Tier, TierSet
from apps.tiering.plans.models import PlanStep
from apps.tiering.tiers import tier_presets_install
from tests.base import demo_collected_id, on_commit_run, rows_for_module

EXTRACTS = Path(__file__).resolve().parents[2] / "targets" / "extract" / "fixtures"


def _fleet_ids() -> tuple[int, int]:
    tier_presets_install()
    Tier.objects.filter(name="flash").update(device_gb=800)
    TierSet.objects.filter(name="seed-2009").update(min_saving_usd_per_month=0)
    demo_id = demo_collected_id()
    extract = Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
    tiers = {tier.name: tier for tier in Tier.objects.filter(tier_set="seed-2009")}
    TablespaceTier.objects.create(target=extract, tablespace_name="USERS", tier=tiers["fast disk"])
    TablespaceTier.objects.create(target=extract, tablespace_name="LOBS", tier=tiers["hi-cap disk"])
    with on_commit_run():
        extract_import(target=extract, path_or_zip=EXTRACTS / "single")
    return demo_id, extract.pk


fleet_ids = rows_for_module(_fleet_ids)


@pytest.fixture
def fleet(fleet_ids, db):
    """The demo and an extract target on the seed's set, with flash ten times cheaper per GB (800 GB devices) and
    no minimum saving, so that the extract's lukewarm segments are worth flash too and compete with the demo's."""
    return tuple(Target.objects.get(pk=pk) for pk in fleet_ids)


def _onto(target: Target, tier_name: str) -> dict[int, Recommendation]:
    current = Recommendation.objects.current(target_id=target.id).select_related("current_tier", "recommended_tier")
    return {rec.segment_id: rec for rec in current if rec.action == "move"
            and tier_name in (rec.recommended_tier.name, rec.current_tier.name)}


@pytest.mark.django_db
class FleetBudgetTests:
    def test_it_makes_the_recommendations_moves_when_the_budget_holds_them_all(self, fleet):
        demo, extract = fleet

        budget = fleet_budget(tier_name="flash", gb=100_000)

        # Every move to or from flash the recommendations make, and no other; the same saving.
        moved = budget.rows["segment_id"][budget.split.indexes(Outcome.MOVES_IN, Outcome.MOVES_OUT)].tolist()
        expected = {**_onto(demo, "flash"), **_onto(extract, "flash")}
        assert sorted(moved) == sorted(expected) and len(moved) > 2
        for result in budget.split.targets:
            assert result.saving_usd_per_month == pytest.approx(result.recommended_saving_usd_per_month)
            assert result.moves_in > 0
        assert budget.split.marginal_usd_per_gb_month == 0.0

    def test_it_splits_a_small_budget_across_both_targets_by_value_per_gb(self, fleet):
        full = fleet_budget(tier_name="flash", gb=100_000)
        wanted_gb = full.split.total("gb_after")

        budget = fleet_budget(tier_name="flash", gb=wanted_gb / 2)

        # Under the budget on both targets, each short of what it would take unlimited.
        assert budget.split.used_weight <= (wanted_gb / 2) * GB
        assert budget.split.total("gb_after") <= wanted_gb / 2 + 1e-9
        for result, unlimited in zip(budget.split.targets, full.split.targets):
            assert result.gb_after <= unlimited.gb_after
            assert result.vs_recommendations_usd_per_month <= 1e-9
        assert [r.name for r in budget.split.targets] == ["demo", "xydb"]
        assert budget.split.total("moves_in") < full.split.total("moves_in")
        # What one more GB earns: the first segment left out, at least what the last one taken earns
        # when that one came before it in the order.
        assert budget.split.marginal_usd_per_gb_month > 0
        # The segments are listed by name with their outcome.
        listed = budget.segments()
        assert listed and all(seg.label and seg.outcome in ("moves_in", "moves_out", "evicted", "kept_not_repaying")
                              for seg in listed)

    def test_it_leaves_out_the_least_valuable_per_gb_of_the_fleet_whichever_target_it_is_on(self, fleet):
        full = fleet_budget(tier_name="flash", gb=100_000)
        moved_in = full.split.indexes(Outcome.MOVES_IN)
        per_gb = full.rows["value"][moved_in] / full.rows["size_bytes"][moved_in]
        least = moved_in[per_gb.argmin()]
        short_by_gb = full.rows["size_bytes"][least] / GB

        budget = fleet_budget(tier_name="flash", gb=full.split.total("gb_after") - short_by_gb)

        # Only that segment is left out; both targets keep the rest of their moves in.
        kept_in = budget.split.indexes(Outcome.MOVES_IN)
        left_out = set(full.rows["segment_id"][moved_in]) - set(budget.rows["segment_id"][kept_in])
        assert left_out == {full.rows["segment_id"][least]}
        assert budget.split.targets[1].moves_in == full.split.targets[1].moves_in > 0
        assert budget.split.marginal_usd_per_gb_month == pytest.approx(per_gb.min() * GB)

    def test_it_counts_the_extracts_unmeasured_segment_and_never_prices_it(self, fleet):
        demo, extract = fleet
        unmeasured = Recommendation.objects.current(target_id=extract.id).filter(iops__isnull=True).count()

        budget = fleet_budget(tier_name="flash", gb=100_000)

        result = {r.name: r for r in budget.split.targets}["xydb"]
        assert unmeasured >= 1 and result.unknown == unmeasured
        assert (budget.rows["value"][budget.rows["target"] == 1] == budget.rows["value"][budget.rows["target"] == 1]
                ).sum() == (budget.rows["target"] == 1).sum() - unmeasured  # NaN exactly where unknown

    def test_it_evicts_from_flash_what_a_budget_below_todays_has_no_room_for(self, fleet):
        budget = fleet_budget(tier_name="flash", gb=0.5)

        demo = budget.split.targets[0]
        assert demo.gb_now > 0.5 and demo.gb_after <= 0.5
        assert demo.evicted > 0 and demo.saving_usd_per_month < demo.recommended_saving_usd_per_month

    def test_it_leaves_out_and_names_the_targets_without_the_tier(self, fleet):
        Target.objects.create(name="cloud", mode=Target.Mode.REPORT, tier_set_id="aws-ebs")

        budget = fleet_budget(tier_name="flash", usd_per_month=50)

        assert budget.left_out == ("cloud",)
        assert [r.name for r in budget.split.targets] == ["demo", "xydb"]
        # $50 a month at the flash's $3/GB purchase over 60 months: $0.05/GB-month, 1,000 GB.
        assert budget.usd_per_gb_month == pytest.approx(2400 / 800 / 60)
        assert budget.split.capacity_weight == 50 * 1_000_000

    def test_it_refuses_an_unknown_tier_nothing_a_tier_nobody_has_and_a_set_without_prices(self, fleet):
        with pytest.raises(BudgetError, match="unknown tier 'nvme'.*flash"):
            fleet_budget(tier_name="nvme", gb=10)
        with pytest.raises(BudgetError, match="above 0"):
            fleet_budget(tier_name="flash", gb=0)
        with pytest.raises(BudgetError, match="no enabled target has tier 'EBS gp3'"):
            fleet_budget(tier_name="EBS gp3", gb=10)
        Tier.objects.filter(name="fast disk").update(device_gb=0)
        with pytest.raises(BudgetError, match="set 'seed-2009' cannot be priced: tier 'fast disk': device_gb"):
            fleet_budget(tier_name="flash", gb=10)


@pytest.mark.django_db
class FleetBudgetPlanTests:
    def test_it_makes_a_draft_plan_per_target_of_the_budgets_moves(self, fleet, admin_user):
        budget = fleet_budget(tier_name="flash", gb=100_000)

        made = fleet_budget_plans(budget=budget, author=admin_user, author_name="ada")

        assert made.refused == ()
        assert sorted(plan.target.name for plan in made.plans) == ["demo", "xydb"]
        for plan, result in zip(made.plans, budget.split.targets):
            assert plan.state == "draft" and plan.source == "fleet budget 100,000 GB of flash"
            moves = PlanStep.objects.filter(plan=plan, kind="move")
            assert moves.count() == result.moves_in + result.moves_out
            assert plan.saving_usd_per_month == pytest.approx(Decimal(str(result.saving_usd_per_month)), abs=Decimal("0.05"))

    def test_it_plans_an_eviction_as_a_move_to_the_best_other_tier_at_its_cost(self, fleet, admin_user):
        budget = fleet_budget(tier_name="flash", gb=0.5)
        evicted = [seg for seg in budget.segments() if seg.outcome == "evicted" and seg.target == "demo"]

        made = fleet_budget_plans(budget=budget, author=admin_user, author_name="ada")

        demo_plan = next(plan for plan in made.plans if plan.target.name == "demo")
        steps = {step.segment_id: step for step in PlanStep.objects.filter(plan=demo_plan, kind="move")}
        assert evicted
        for seg in evicted:
            step = steps[seg.segment_id]
            assert step.to_tier == seg.to_tier and step.to_tier != "flash"
            assert step.saving_usd_per_month < 0  # it costs: the budget has no room for it
            assert step.size_bytes == round(seg.size_gb * GB)
