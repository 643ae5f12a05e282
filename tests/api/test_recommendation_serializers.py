"""The recommendation serializers answer exactly what DRF's generic Serializer.to_representation answers for
their declared fields (they read them through readers made once per serializer, for speed)."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from apps.api.recommendation_serializers import HistoryRecommendationSerializer, RecommendationSerializer
from apps.dashboard.recommendations import selectors
from apps.tiering.models import Recommendation


def _generic(serializer: serializers.Serializer, rec) -> dict:
    return dict(serializers.Serializer.to_representation(serializer, rec))


@pytest.fixture
def rows(big, demo_target, collect):
    collect(demo_target)  # LOB folds, partitions, IO not measured, tablespaces not mapped: every shape of row
    recs = []
    for target in (big, demo_target):
        recs += list(selectors.recommendation_filtered(target_id=target.id, filters=selectors.RecommendationFilter()))
    # And the nulls a row may hold: a tablespace on no tier, IO and size not measured.
    recs[0].current_tier = recs[1].recommended_tier = None
    recs[2].iops = recs[2].read_iops = recs[3].size_gb = recs[3].cost_now_usd = None
    return recs


@pytest.mark.parametrize("fields", [None, ["label", "current_tier", "savings_usd_per_month", "findings"]])
def test_every_row_reads_as_drfs_generic_representation(rows, big, fields):
    serializer = RecommendationSerializer(fields=fields, context={"basis": big.tier_set.basis})
    for rec in rows:
        assert serializer.to_representation(rec) == _generic(serializer, rec), rec.segment_id


def test_a_segments_history_reads_as_drfs_generic_representation(rows, big):
    serializer = HistoryRecommendationSerializer(context={"basis": big.tier_set.basis})
    history = Recommendation.objects.select_related("run", "segment", "current_tier", "cost_tier",
                                                    "recommended_tier").filter(segment_id__in=[r.segment_id for r in rows])
    assert history
    for rec in history:
        assert serializer.to_representation(rec) == _generic(serializer, rec), rec.segment_id
