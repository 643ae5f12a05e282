"""targets.StorageLocation: a disk group or mount point's tier, of its target's set, edited in the admin."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from apps.targets.models import StorageLocation, Target
from apps.tiering.models import Tier, TierSet


@pytest.fixture
def target(seed_tiers) -> Target:
    return Target.objects.create(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2009")


@pytest.mark.django_db
class StorageLocationTests:
    def test_a_target_keeps_its_set_while_a_location_names_one_of_its_tiers(self, target):
        fast = Tier.objects.get(tier_set_id="seed-2009", name="fast disk")
        StorageLocation.objects.create(target=target, name="+DATA", kind="asm", tier=fast)
        target.tier_set = TierSet.objects.exclude(name="seed-2009").first()

        with pytest.raises(ValidationError, match=r"\+DATA → fast disk"):
            target.clean()

    def test_an_unmapped_location_does_not_hold_the_set(self, target):
        StorageLocation.objects.create(target=target, name="+DATA", kind="asm")
        target.tier_set = TierSet.objects.exclude(name="seed-2009").first()

        target.clean()

    def test_the_admin_keeps_a_location_as_the_map_names_it(self, target, admin_client):
        flash = Tier.objects.get(tier_set_id="seed-2009", name="flash")

        response = admin_client.post("/admin/targets/storagelocation/add/",
                                     {"target": target.id, "name": "/u03/oradata/", "tier": flash.id})

        assert response.status_code == 302
        location = StorageLocation.objects.get(target=target)
        assert (location.name, location.kind, location.tier, location.array_tiering) == (
            "/u03/oradata", "mount", flash, False)

    def test_the_admin_refuses_a_name_that_is_no_location_and_a_tier_of_another_set(self, target, admin_client):
        other = Tier.objects.exclude(tier_set_id="seed-2009").first()

        bad_name = admin_client.post("/admin/targets/storagelocation/add/", {"target": target.id, "name": "x/y"})
        bad_tier = admin_client.post("/admin/targets/storagelocation/add/",
                                     {"target": target.id, "name": "+DATA", "tier": other.id})

        assert "neither a disk group" in bad_name.content.decode()
        assert "pick a tier of" in bad_tier.content.decode()
        assert not StorageLocation.objects.exists()
