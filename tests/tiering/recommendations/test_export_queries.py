"""The recommendation export reads its rows in a fixed number of queries, not one or two per row: the
reasons and DDL read segment fields (a cut name, an interval partition) the lean read had left out, and
10k rows took 12.9 s."""

from __future__ import annotations

import pytest

from apps.targets.models import Target
from apps.tiering.models import Recommendation
from apps.tiering.recommendations.export import export_csv_parts
from tests.dashboard.factories import build_target


@pytest.mark.django_db
def test_the_csv_export_reads_its_rows_in_a_fixed_number_of_queries(seed_tiers, django_assert_max_num_queries):
    build_target(name="big", segments=120)
    target = Target.objects.get(name="big")
    recs = Recommendation.objects.current(target_id=target.id)
    assert recs.count() >= 100

    with django_assert_max_num_queries(20):
        text = "".join(export_csv_parts(recs, target))
    assert text.count("\n") >= 101
