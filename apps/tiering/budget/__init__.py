"""A fleet budget of one tier: N GB (or USD a month) of it split across the targets' segments.

The package, by concern: :mod:`.split` (the greedy knapsack, pure), :mod:`.worth` (a place's worth with the
one-off cost of moving spread over the payback horizon, and the margin of a segment holding a place, pure),
:mod:`.outcomes` (what happens to each segment and the per-target figures, pure), :mod:`.explain` (each
eviction's cost against what its replacement earns, why each segment holding a place keeps it, pure),
:mod:`.models` (the budget runs remembered), :mod:`.selectors` (the candidates read from the current
recommendations, the previous run), :mod:`.services` (a fleet's split, its plans, remembering a run).

Importing this package loads the pure modules only (no Django).
"""

from apps.tiering.budget.outcomes import GB, OUTCOMES, Outcome, TargetResult
from apps.tiering.budget.split import (
    MICRO_USD,
    BudgetError,
    Capacity,
    Items,
    Split,
    TargetTerms,
    budget_split,
    usd_per_gb_month,
)

__all__ = [
    "GB", "MICRO_USD", "OUTCOMES", "BudgetError", "Outcome", "Capacity", "Items", "Split", "TargetResult",
    "TargetTerms", "budget_split", "usd_per_gb_month",
]
