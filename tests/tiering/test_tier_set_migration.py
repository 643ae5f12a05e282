"""The migration to tier sets as rows keeps every free-text value (issue 15, item 7): each becomes a set, with
the billing of its tiers; a target's set, even a typo, stays its set (now visible, and refused for new ones)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("tiering", "0006_recommendation_unmeasured"), ("targets", "0003_target_check")]
AFTER = [("tiering", "0007_tier_sets"), ("targets", "0004_target_tier_set")]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_free_text_tier_sets_become_rows_with_their_billing():
    old = _migrate(BEFORE)
    Tier, Target = old.get_model("tiering", "Tier"), old.get_model("targets", "Target")
    Tier.objects.create(name="fast disk", tier_set="seed-2009", billing="one_off", device_cost_usd=600,
                        device_gb=300, device_iops=300)
    Tier.objects.create(name="EBS gp3", tier_set="aws-ebs", billing="monthly", usd_per_gb="0.08")
    Target.objects.create(name="typo", mode="report", tier_set="seed-2O09")
    Target.objects.create(name="prod", mode="report", tier_set="aws-ebs")

    try:
        new = _migrate(AFTER)
        TierSet = new.get_model("tiering", "TierSet")
        sets = {s.name: s.billing for s in TierSet.objects.all()}
        assert sets == {"seed-2009": "purchase", "aws-ebs": "monthly", "seed-2O09": "purchase"}
        tiers = dict(new.get_model("tiering", "Tier").objects.values_list("name", "tier_set_id"))
        assert tiers == {"fast disk": "seed-2009", "EBS gp3": "aws-ebs"}
        targets = dict(new.get_model("targets", "Target").objects.values_list("name", "tier_set_id"))
        assert targets == {"typo": "seed-2O09", "prod": "aws-ebs"}
    finally:
        _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
