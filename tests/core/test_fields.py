from decimal import Decimal

import pytest
from django.db.models import Sum

from apps.core.fields import cents


def test_cents_round_half_away_from_zero():
    assert [cents(Decimal("2.675")), cents(2.5), cents("-0.005"), cents(0)] == [268, 250, -1, 0]


@pytest.mark.django_db
def test_money_is_stored_as_cents_and_read_back_as_exact_decimals(demo_target):
    from apps.snapshots.models import Segment
    from apps.tiering.models import Recommendation, RecommendationRun

    segment = Segment.objects.create(target=demo_target, owner="A", object_name="T", object_type="TABLE",
                                     first_seen_at="2026-11-20T00:00Z", last_seen_at="2026-11-20T00:00Z")
    runs = [RecommendationRun.objects.create(target=demo_target, computed_at=f"2026-11-2{day}T00:00Z", window_days=7,
                                             statistic="p95", state=state) for day, state in ((0, "current"), (1, "history"))]
    common = {"segment": segment, "iops": 1.0, "action": "keep"}
    Recommendation.objects.create(**common, run=runs[0], savings_usd=Decimal("12.34"), cost_now_usd=0.1 + 0.2)
    Recommendation.objects.create(**common, run=runs[1], savings_usd=Decimal("0.66"))

    first = Recommendation.objects.order_by("run_id").first()
    assert (first.savings_usd, first.cost_now_usd) == (Decimal("12.34"), Decimal("0.30"))
    assert Recommendation.objects.aggregate(total=Sum("savings_usd"))["total"] == Decimal("13.00")
    assert Recommendation.objects.filter(savings_usd__gt=Decimal("1.5")).count() == 1
    assert Recommendation.objects.order_by("savings_usd").values_list("savings_usd", flat=True)[0] == Decimal("0.66")
