"""Model fields shared by the apps."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal

from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.expressions import Combinable

_CENT = Decimal("0.01")


class MoneyField(models.BigIntegerField):
    """An amount to the cent, stored as whole cents in a bigint; Decimal in Python (Decimal("12.34")).

    Recommendations write 100k amounts per refresh by binary COPY: int8 cents
    go straight from numpy, where numeric would need a Decimal object per
    value (it doubled the write). Sums, ordering and filters stay exact.
    """

    description = "Amount to the cent (stored as bigint cents)"
    # django-stubs' plugin types a field's attribute from these (Optional when null=True): set as an amount,
    # read as a Decimal. They differ from the bigint base's on purpose, hence the ignores.
    _pyi_private_set_type: Decimal | int | float | str | Combinable  # type: ignore[assignment]
    _pyi_private_get_type: Decimal  # type: ignore[assignment]  # (as above)

    def from_db_value(self, value, expression, connection):
        return None if value is None else Decimal(value).scaleb(-2)

    def to_python(self, value):
        if value is None or isinstance(value, Decimal):
            return value
        try:
            return Decimal(str(value)).quantize(_CENT, rounding=ROUND_HALF_UP)
        except ArithmeticError as exc:
            raise ValidationError(f"{value!r} is not an amount of money") from exc

    def get_prep_value(self, value):
        if value is None:
            return None
        return cents(value)


def cents(amount: Decimal | float | int | str) -> int:
    """Whole cents of an amount, half away from zero: cents(Decimal("2.675")) == 268."""
    return int((Decimal(str(amount)) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))
