"""One name per tier kind: the Tier model offers, the presets and what-if's TIERS.json read, the cost model builds."""

from __future__ import annotations

from apps.tiering.costmodel import TIER_KINDS
from apps.tiering.models import Tier
from apps.tiering.presets import PRESETS
from apps.tiering.whatif.inputs import TIER_KEYS


def test_every_kind_the_tier_editor_offers_is_a_cost_model_tier_kind():
    assert set(Tier.Kind.values) == set(TIER_KINDS)


def test_what_if_reads_the_keys_of_every_cost_model_tier_kind_and_no_other():
    assert set(TIER_KEYS) == set(TIER_KINDS)


def test_every_preset_tier_is_of_a_cost_model_tier_kind():
    kinds = {entry.kind for entries in PRESETS.values() for entry in entries}
    assert kinds and kinds <= set(TIER_KINDS)
