"""Reasons quote money with its unit (issue 15, item 7): a purchase set's costs say so, with the monthly figures."""

from __future__ import annotations

import pytest

from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.services import recommendation_refresh
from tests.base import NOW
from tests.tiering.stored_targets import HOT, recommendation_of


@pytest.mark.django_db
class MoneyInReasonsTests:
    def test_it_names_the_unit_of_the_costs_it_quotes(self, refresh_target):
        recommendation_refresh(target_id=refresh_target.id, now=NOW)

        (reason,) = [r for r in explain([recommendation_of(refresh_target, HOT)], target=refresh_target)[0].reasons
                     if r.code == "cheaper_tier"]

        # hi-cap disk $250 -> flash $60: device prices, paid once; per month over the seed set's 60 months.
        assert ("It would cost $60.00 there instead of $250.00 on hi-cap disk "
                "(USD purchase: $1.00/month instead of $4.17/month over 60 months).") in reason.text
