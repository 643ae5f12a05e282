"""Money in the cost model: exact decimals, cents, and the unit of a figure."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import overload

import numpy as np

CENT = Decimal("0.01")


def to_decimal(number: float | int | Decimal) -> Decimal:
    """Exact decimal of a number as it was written (floats via their repr).

    >>> to_decimal(0.1) + to_decimal(0.2)
    Decimal('0.3')
    """
    if isinstance(number, Decimal):
        return number
    if isinstance(number, int):
        return Decimal(number)
    return Decimal(repr(float(number)))


def to_cents(amount: Decimal) -> Decimal:
    """Round money half-up to the cent."""
    return amount.quantize(CENT, rounding=ROUND_HALF_UP)


def _ceil_div(numerator: Decimal, denominator: Decimal) -> int:
    return int((numerator / denominator).to_integral_value(rounding=ROUND_CEILING))



def float_to_cents(cost_usd: float) -> Decimal:
    """A float amount as Decimal cents (half away from zero)."""
    return Decimal(repr(cost_usd)).quantize(CENT, rounding=ROUND_HALF_UP)



# Below this many USD a half cent has at most 15 significant digits, which is
# what makes the comparison in to_cents_array agree with the shortest repr.
_CENTS_EXACT_BELOW_USD = 1e11
# From 2**53 on every float is a whole number: rounding to the cent keeps it.
_WHOLE_FROM_USD = 2.0**53


def to_cents_array(costs: np.ndarray) -> np.ndarray:
    """USD amounts rounded half away from zero to the cent, as float64.

    Elementwise ``float(float_to_cents(x))``: the half is judged on the
    amount's shortest repr, so 2.675 (stored as 2.67499999...) gives 2.68.
    For |x| < 1e11 USD that is one vectorised comparison with the float
    nearest the half cent: the repr equals the half cent exactly when the
    float does, and lies on the same side of it otherwise. Larger amounts go
    through :func:`float_to_cents` one by one (from 2**53 on they are whole
    already and come back unchanged, where the default decimal context of
    ``float_to_cents`` would give up past 1e26). NaN and inf pass through.

    >>> to_cents_array(np.array([0.005, 2.675, -2.675, 1.004])).tolist()
    [0.01, 2.68, -2.68, 1.0]
    """
    usd = np.asarray(costs, dtype=np.float64)
    magnitude = np.abs(usd)
    whole_cents = np.floor(magnitude * 100.0)
    cents = whole_cents + (magnitude >= (whole_cents + 0.5) / 100.0)
    rounded = np.empty_like(usd)  # an array even for 0-d input, so the assignment below works
    np.copysign(cents, usd, out=rounded)
    rounded /= 100.0
    large = magnitude >= _CENTS_EXACT_BELOW_USD
    if large.any():
        rounded[large] = [
            amount if abs(amount) >= _WHOLE_FROM_USD else float(float_to_cents(amount))
            for amount in usd[large].tolist()
        ]
    return rounded


#: Months a purchase is spread over for its monthly figure, unless the tier set says otherwise.
DEFAULT_AMORTISATION_MONTHS = 60
#: The unit of every money figure compared across tier sets (pages, fleet totals).
PER_MONTH = "USD/month"
#: The unit of a purchase set's own figures (device prices, paid once).
PURCHASE = "USD purchase"


@dataclass(frozen=True)
class BillingBasis:
    """How a tier set's prices are billed: a purchase amortised over ``months``, or monthly (cloud).

    Costs are computed in the set's own unit (:attr:`unit`: the seed's device
    prices stay exact); :meth:`per_month` gives the figure every page shows.

    >>> seed = BillingBasis(purchase=True)
    >>> seed.unit, seed.per_month(Decimal(18000)), BillingBasis(purchase=False).per_month(Decimal("6.75"))
    ('USD purchase', Decimal('300'), Decimal('6.75'))
    """

    purchase: bool
    months: int = DEFAULT_AMORTISATION_MONTHS

    def __post_init__(self) -> None:
        if self.purchase and not self.months >= 1:
            raise ValueError(f"amortisation months must be at least 1, got {self.months!r}")

    @property
    def unit(self) -> str:
        return PURCHASE if self.purchase else PER_MONTH

    @property
    def divisor(self) -> int:
        """What a figure in :attr:`unit` is divided by to be per month."""
        return self.months if self.purchase else 1

    @overload
    def per_month(self, amount: Decimal) -> Decimal: ...
    @overload
    def per_month(self, amount: None) -> None: ...
    @overload
    def per_month(self, amount: Decimal | None) -> Decimal | None: ...

    def per_month(self, amount: Decimal | None) -> Decimal | None:
        """The monthly figure of an amount in this basis's unit (None stays None: unknown)."""
        return None if amount is None else amount / self.divisor

    def describe(self) -> str:
        """One line for the pages: how a figure becomes per month."""
        if self.purchase:
            return f"purchase prices, amortised over {self.months} months"
        return "billed monthly"
