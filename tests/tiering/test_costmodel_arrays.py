"""The cost model's numpy path: cost_matrix, cheapest, iops_bound, to_cents_array.

Each is checked against the scalar code it stands for (object_cost_float, the
tie rule, ObjectChoice.iops_bound, float_to_cents). Runs without a database.
"""

from __future__ import annotations

import doctest
import importlib
import math
import pkgutil
import unittest
from decimal import Decimal

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from apps.tiering import costmodel
from apps.tiering.costmodel import (
    CostModelError,
    DeviceTier,
    LinearTier,
    PerformanceLevelTier,
    ProvisionedIopsTier,
    StorageObject,
    Tier,
    cheapest,
    choose_tiers,
    cost_matrix,
    float_to_cents,
    iops_bound,
    to_cents_array,
)
from apps.tiering.presets import PRESETS, preset_tiers
from tests.tiering.example_tiers import FAST, FLASH_320, SEED_TIERS

PRESET_TIERS: tuple[Tier, ...] = tuple(tier for name in PRESETS for tier in preset_tiers(name))
# Below this, costs are subnormal floats and per-unit vs per-device rounding differ by whole ulps.
SUBNORMAL_USD = 1e-300
EXAMPLES = settings(max_examples=40, deadline=None)

# IOPS and GB: zeros, subnormal and tiny figures, ordinary ones and huge ones.
figures = st.one_of(
    st.sampled_from([0.0, 5e-324, 1e-300, 1e-9, 0.5, 1.0, 3000.0, 16384.0, 1e12, 1e30]),
    st.floats(min_value=0.0, max_value=1e30, allow_nan=False, allow_infinity=False),
    st.integers(min_value=0, max_value=10**7).map(float),
)
workloads = st.lists(st.tuples(figures, figures), min_size=1, max_size=40)
prices = st.decimals(min_value=Decimal("0.0001"), max_value=Decimal(100000), places=4)
sizes = st.floats(min_value=0.001, max_value=1e6, allow_nan=False, allow_infinity=False)
optional_sizes = st.none() | sizes


@st.composite
def device_tiers(draw: st.DrawFn) -> DeviceTier:
    return DeviceTier(name="device", device_cost_usd=draw(prices), device_gb=draw(sizes), device_iops=draw(sizes))


@st.composite
def linear_tiers(draw: st.DrawFn) -> LinearTier:
    return LinearTier(name="linear", usd_per_gb_price=draw(prices), usd_per_iops_price=draw(prices))


@st.composite
def provisioned_iops_tiers(draw: st.DrawFn) -> ProvisionedIopsTier:
    included = draw(st.sampled_from([0.0, 500.0, 3000.0]) | sizes)
    if draw(st.booleans()):  # IOPS for sale (gp3, io2)
        iops_price, max_iops = draw(prices), draw(optional_sizes)
    else:  # st1: more IOPS means more volumes
        iops_price, max_iops = None, draw(st.floats(min_value=0.001, max_value=max(included, 0.001)))
        included = max(included, max_iops)
    return ProvisionedIopsTier(
        name="provisioned", usd_per_gb_price=draw(prices), usd_per_iops_price=iops_price,
        included_iops_per_volume=included, volume_min_gb=draw(sizes), volume_max_gb=draw(sizes),
        volume_max_iops=max_iops, max_iops_per_gb=draw(optional_sizes),
    )


@st.composite
def performance_level_tiers(draw: st.DrawFn) -> PerformanceLevelTier:
    return PerformanceLevelTier(
        name="performance", usd_per_gb_price=draw(prices), iops_per_gb=draw(sizes),
        volume_min_gb=draw(sizes), volume_max_gb=draw(sizes), volume_max_iops=draw(optional_sizes),
    )


any_tier = st.one_of(device_tiers(), linear_tiers(), provisioned_iops_tiers(), performance_level_tiers())


def assert_costs_match(case: unittest.TestCase, tier: Tier, iops: list[float], gb: list[float]) -> None:
    column = cost_matrix([tier], np.array(iops), np.array(gb))[:, 0]
    for one_iops, one_gb, cost in zip(iops, gb, column.tolist()):
        expected = tier.object_cost_float(one_gb, one_iops)
        if not math.isclose(cost, expected, rel_tol=1e-12, abs_tol=SUBNORMAL_USD):
            case.fail(f"{tier!r}: iops={one_iops!r} gb={one_gb!r}: {cost!r} != object_cost_float {expected!r}")


def scalar_tie_rule(row: list[float], gb_prices: list[float], current: int) -> int:
    """The tie rule as choose_tiers states it, one object at a time."""
    best = min(row)
    limit = best + abs(best) * 1e-9 + 1e-12
    tied = [index for index, cost in enumerate(row) if cost <= limit]
    if current in tied:
        return current
    return min(tied, key=lambda index: (gb_prices[index], index))


def linear(name: str, usd_per_gb: str, usd_per_iops: str = "1") -> LinearTier:
    return LinearTier(name=name, usd_per_gb_price=Decimal(usd_per_gb), usd_per_iops_price=Decimal(usd_per_iops))


class CostMatrixTests(unittest.TestCase):
    @EXAMPLES
    @given(workloads)
    def test_it_equals_object_cost_float_on_every_preset_tier(self, pairs: list[tuple[float, float]]) -> None:
        iops, gb = [one for one, _ in pairs], [one for _, one in pairs]
        for tier in PRESET_TIERS:
            assert_costs_match(self, tier, iops, gb)

    @EXAMPLES
    @given(any_tier, workloads)
    def test_it_equals_object_cost_float_on_random_tiers_of_each_kind(
        self, tier: Tier, pairs: list[tuple[float, float]]
    ) -> None:
        assert_costs_match(self, tier, [one for one, _ in pairs], [one for _, one in pairs])

    @EXAMPLES
    @given(
        st.one_of(provisioned_iops_tiers(), performance_level_tiers()),
        st.integers(min_value=0, max_value=20),
        st.sampled_from([-1e-6, -1e-9, -5e-10, -1e-12, 0.0, 1e-12, 5e-10, 1e-9, 1e-6]),
        st.booleans(),
    )
    def test_it_counts_volumes_with_the_scalar_ulp_tolerance(
        self, tier: Tier, volumes: int, nudge: float, by_iops: bool
    ) -> None:
        # Figures a hair around a whole number of volumes, where _ceil_float's 1e-9 decides.
        assert isinstance(tier, ProvisionedIopsTier | PerformanceLevelTier)
        per_volume = (tier.volume_max_iops or tier.volume_max_gb) if by_iops else tier.volume_max_gb
        figure = max(0.0, volumes * per_volume * (1 + nudge))
        iops, gb = ([figure, figure + 1], [1.0, 0.5]) if by_iops else ([1.0, 0.0], [figure, figure / 3])
        assert_costs_match(self, tier, iops, gb)

    def test_it_has_one_column_per_tier_in_tier_order(self) -> None:
        costs = cost_matrix((FLASH_320, FAST), np.array([10000.0, 4000.0]), np.array([300.0, 600.0]))
        self.assertEqual(costs.tolist(), [[9000.0, 20000.0], [18000.0, 8000.0]])

    def test_it_costs_nothing_for_an_object_without_gb_or_iops_on_a_volume_tier(self) -> None:
        costs = cost_matrix(preset_tiers("aws-ebs"), np.array([0.0, 0.0]), np.array([0.0, 1.0]))
        self.assertEqual(costs[0].tolist(), [0.0, 0.0, 0.0])
        self.assertEqual(costs[1].tolist(), [125 * 0.045, 0.08, 4 * 0.125])  # the minimum volume

    def test_it_prices_other_tier_kinds_and_volume_subclasses_through_object_cost_float(self) -> None:
        class FlatFee(Tier):
            def pool_cost_float(self, gb: float, iops: float) -> float:
                return 7.0 + gb

        class OddVolumes(PerformanceLevelTier):
            def pool_cost_float(self, gb: float, iops: float) -> float:
                return 7.0 + gb

        tiers = [FlatFee(name="flat"), OddVolumes(name="odd", usd_per_gb_price=Decimal(1), iops_per_gb=1)]
        self.assertEqual(cost_matrix(tiers, np.array([1.0, 0.0]), np.array([2.0, 0.0])).tolist(), [[9.0, 9.0], [7.0, 7.0]])

    def test_it_rejects_negative_non_finite_and_mismatched_figures(self) -> None:
        bad = (([-1.0], [1.0]), ([1.0], [-1.0]), ([math.nan], [1.0]), ([1.0], [math.inf]), ([1.0], [1.0, 2.0]))
        for iops, gb in bad:
            with self.subTest(iops=iops, gb=gb), self.assertRaises(CostModelError):
                cost_matrix(SEED_TIERS, np.array(iops), np.array(gb))

    def test_it_handles_no_objects(self) -> None:
        self.assertEqual(cost_matrix(SEED_TIERS, np.array([]), np.array([])).shape, (0, 3))


class CheapestTests(unittest.TestCase):
    @EXAMPLES
    @given(st.data())
    def test_it_follows_the_scalar_tie_rule(self, data: st.DataObject) -> None:
        tier_count = data.draw(st.integers(min_value=1, max_value=6))
        # Few distinct prices and costs, so that $/GB ties and cost ties are common.
        tiers = [linear(f"t{i}", data.draw(st.sampled_from(["0.5", "1", "2"]))) for i in range(tier_count)]
        gb_prices = [float(tier.usd_per_gb) for tier in tiers]
        # Each row: costs at, within 1e-9 of, or just outside a tie with one base cost.
        row = st.sampled_from([0.0, 1.0, 2.0, 1e6]).flatmap(
            lambda base: st.lists(
                st.sampled_from([base, base * (1 + 5e-10), base * (1 + 1e-8), base + 5e-13, base + 1.0, 2 * base + 3]),
                min_size=tier_count, max_size=tier_count,
            )
        )
        rows = data.draw(st.lists(row, min_size=1, max_size=30))
        current = data.draw(st.lists(st.integers(-1, tier_count - 1), min_size=len(rows), max_size=len(rows)))
        found = cheapest(np.array(rows), tiers, np.array(current)).tolist()
        self.assertEqual(found, [scalar_tie_rule(row, gb_prices, now) for row, now in zip(rows, current)])

    def test_it_keeps_the_current_tier_when_it_is_among_the_tied(self) -> None:
        tiers = [linear("a", "1"), linear("b", "3"), linear("c", "2")]
        costs = np.array([[5.0, 5.0, 5.0], [9.0, 5.0, 5.0 * (1 + 5e-10)]])
        self.assertEqual(cheapest(costs, tiers, np.array([1, 2])).tolist(), [1, 2])

    def test_it_takes_the_lower_price_per_gb_when_the_current_tier_is_not_tied(self) -> None:
        tiers = [linear("a", "3"), linear("b", "2"), linear("c", "1")]
        costs = np.array([[5.0, 5.0, 6.0], [5.0, 5.0, 5.1], [5.0, 5.0, 5.0]])
        self.assertEqual(cheapest(costs, tiers, np.array([2, -1, -1])).tolist(), [1, 1, 2])

    def test_it_takes_the_earlier_tier_when_prices_per_gb_tie_too(self) -> None:
        tiers = [linear("a", "2"), linear("b", "1"), linear("c", "1")]
        self.assertEqual(cheapest(np.array([[5.0, 5.0, 5.0]]), tiers, np.array([-1])).tolist(), [1])

    def test_it_takes_the_cheapest_tier_over_the_current_one_outside_a_tie(self) -> None:
        tiers = [linear("a", "1"), linear("b", "2")]
        costs = np.array([[5.0, 5.0 * (1 + 1e-8)], [7.0, 6.0]])
        self.assertEqual(cheapest(costs, tiers, np.array([1, 0])).tolist(), [0, 1])

    def test_it_picks_the_seed_tiers_like_choose_tiers(self) -> None:
        on_edge = StorageObject("edge", iops=1500, gb=100)  # intensity 15: fast disk and flash tie
        objects = [on_edge, StorageObject("cold", 5, 100), StorageObject("hot", 5000, 10)]
        costs = cost_matrix(SEED_TIERS, np.array([o.iops for o in objects]), np.array([o.gb for o in objects]))
        self.assertEqual(cheapest(costs, SEED_TIERS, np.array([2, -1, 0])).tolist(), [2, 0, 2])
        self.assertEqual(cheapest(costs, SEED_TIERS, np.array([0, -1, 0])).tolist(), [1, 0, 2])

    def test_it_accepts_a_c_ordered_matrix(self) -> None:
        costs = np.ascontiguousarray([[3.0, 1.0, 2.0], [1.0, 2.0, 3.0]])
        self.assertEqual(cheapest(costs, SEED_TIERS, np.array([-1, -1])).tolist(), [1, 0])

    def test_it_rejects_bad_current_indexes_costs_and_shapes(self) -> None:
        costs = np.ones((2, 3))
        for current in (np.array([0, 3]), np.array([-2, 0]), np.array([0]), np.array([0.0, 1.0])):
            with self.subTest(current=current), self.assertRaises(CostModelError):
                cheapest(costs, SEED_TIERS, current)
        with self.assertRaises(CostModelError):
            cheapest(np.array([[1.0, math.nan, 1.0]]), SEED_TIERS, np.array([0]))
        with self.assertRaises(CostModelError):
            cheapest(costs, SEED_TIERS[:2], np.array([0, 0]))
        with self.assertRaises(CostModelError):
            cheapest(np.ones((1, 0)), (), np.array([-1]))

    def test_it_handles_no_objects(self) -> None:
        self.assertEqual(cheapest(np.empty((0, 3)), SEED_TIERS, np.array([], dtype=int)).tolist(), [])


class IopsBoundTests(unittest.TestCase):
    def test_it_tells_iops_bound_objects_on_the_chosen_tier(self) -> None:
        # A on flash is capacity bound; B on fast disk is IOPS bound (the seed's example).
        bound = iops_bound((FLASH_320, FAST), np.array([10000.0, 4000.0]), np.array([300.0, 600.0]), np.array([0, 1]))
        self.assertEqual(bound.tolist(), [False, True])

    @EXAMPLES
    @given(st.lists(st.tuples(figures, figures.filter(lambda gb: gb > 0)), min_size=1, max_size=30))
    def test_it_compares_object_and_tier_intensity_on_any_tier(self, pairs: list[tuple[float, float]]) -> None:
        tiers = (*SEED_TIERS, *preset_tiers("aws-ebs"), *preset_tiers("oci-block-volume"))
        index = [i % len(tiers) for i in range(len(pairs))]
        bound = iops_bound(tiers, np.array([i for i, _ in pairs]), np.array([g for _, g in pairs]), np.array(index))
        expected = [iops > gb * tiers[at].intensity for (iops, gb), at in zip(pairs, index)]
        self.assertEqual(bound.tolist(), expected)


class ToCentsArrayTests(unittest.TestCase):
    def assert_like_float_to_cents(self, amounts: list[float]) -> None:
        found = to_cents_array(np.array(amounts)).tolist()
        self.assertEqual(found, [float(float_to_cents(amount)) for amount in amounts], amounts)

    def test_it_rounds_half_cents_away_from_zero_as_written(self) -> None:
        # 2.675 and 1e9 + 0.005 are stored just below the half cent; float_to_cents judges the repr.
        amounts = [0.005, 0.015, 1.005, 2.675, 0.125, 1234.565, 1e9 + 0.005, 99999999999.995, 8.0049999999]
        self.assert_like_float_to_cents(amounts)
        self.assert_like_float_to_cents([-amount for amount in amounts])
        self.assertEqual(to_cents_array(np.array([0.005, 2.675, -2.675, 1e9 + 0.005])).tolist(),
                         [0.01, 2.68, -2.68, 1000000000.01])

    def test_it_rounds_zero_tiny_and_huge_amounts_like_float_to_cents(self) -> None:
        amounts = [0.0, -0.0, 5e-324, -0.004, 1e-300, 1e11 + 0.005, 1e13 + 0.125, 2.0**52 + 0.5, 2.0**53 + 2, 1e20]
        self.assert_like_float_to_cents(amounts)
        self.assertEqual(math.copysign(1.0, to_cents_array(np.array([-0.004]))[0]), -1.0)  # -0.00, like Decimal
        self.assertEqual(float(to_cents_array(np.array(1e12 + 0.005))), 1000000000000.01)  # 0-d in, 0-d out

    def test_it_passes_nan_and_infinity_through_and_keeps_the_shape(self) -> None:
        found = to_cents_array(np.array([[math.inf, -math.inf], [math.nan, 1.234]]))
        self.assertEqual(found.shape, (2, 2))
        self.assertEqual(found[0].tolist(), [math.inf, -math.inf])
        self.assertTrue(math.isnan(found[1, 0]))
        self.assertEqual(found[1, 1], 1.23)

    @settings(max_examples=100, deadline=None)
    @given(st.lists(st.floats(min_value=-1e25, max_value=1e25, allow_nan=False), min_size=1, max_size=50))
    def test_it_equals_float_to_cents_on_any_amount(self, amounts: list[float]) -> None:
        self.assert_like_float_to_cents(amounts)

    @settings(max_examples=100, deadline=None)
    @given(st.lists(st.tuples(st.integers(-(10**13), 10**13), st.integers(0, 99)), min_size=1, max_size=50))
    def test_it_equals_float_to_cents_on_half_cents(self, halves: list[tuple[int, int]]) -> None:
        # Amounts written as d.dd5: exactly half a cent in decimal, rarely so in binary.
        self.assert_like_float_to_cents([float(f"{whole}.{cents:02d}5") for whole, cents in halves])


class ChooseTiersOnArraysTests(unittest.TestCase):
    @EXAMPLES
    @given(st.lists(st.tuples(figures, figures.filter(lambda gb: gb > 0)), min_size=1, max_size=30))
    def test_it_returns_plain_python_choices_from_the_arrays(self, pairs: list[tuple[float, float]]) -> None:
        tiers = (*SEED_TIERS, *preset_tiers("aws-ebs"))
        objects = [StorageObject(f"o{i}", iops, gb, current_tier="EBS gp3") for i, (iops, gb) in enumerate(pairs)]
        alone = choose_tiers(objects, tiers, pooled=False)
        for obj, choice, choice_alone in zip(objects, choose_tiers(objects, tiers), alone):
            self.assertIs(choice.obj, obj)
            self.assertEqual([type(cost) for cost in choice.costs_usd], [float] * len(tiers))
            self.assertEqual((type(choice.tier_index), type(choice.iops_bound)), (int, bool))
            self.assertEqual(choice.tier_name, tiers[choice.tier_index].name)
            for tier, cost, cost_alone in zip(tiers, choice.costs_usd, choice_alone.costs_usd):
                self.assertTrue(math.isclose(cost, tier.marginal_cost_float(obj.gb, obj.iops), rel_tol=1e-12,
                                             abs_tol=SUBNORMAL_USD))
                self.assertTrue(math.isclose(cost_alone, tier.object_cost_float(obj.gb, obj.iops), rel_tol=1e-12,
                                             abs_tol=SUBNORMAL_USD))

    def test_it_keeps_the_first_tied_tier_of_the_current_name_when_names_repeat(self) -> None:
        tiers = (linear("x", "3"), linear("y", "1"), linear("x", "2"))
        # Costs 5, 5, 5 (all tied) and 3.75, 2.5, 2.5 (y and the second x tied).
        objects = [StorageObject("all", iops=5, gb=1, current_tier="x"), StorageObject("two", 2.5, 1.25, "x")]
        self.assertEqual([choice.tier_index for choice in choose_tiers(objects, tiers)], [0, 2])

    def test_it_returns_nothing_for_no_objects(self) -> None:
        self.assertEqual(choose_tiers([], SEED_TIERS), [])


class DocstringExampleTests(unittest.TestCase):
    def test_it_keeps_the_costmodel_examples_true(self) -> None:
        modules = [importlib.import_module(f"apps.tiering.costmodel.{info.name}")
                   for info in pkgutil.iter_modules(costmodel.__path__)]
        results = [doctest.testmod(module) for module in modules]
        self.assertEqual(sum(result.failed for result in results), 0)
        self.assertGreater(sum(result.attempted for result in results), 5)
