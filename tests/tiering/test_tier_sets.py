"""Tier sets as rows (issue 15, item 7): a target names a real set, a tablespace map names only tiers of
its target's set, and every set has a billing basis."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError

from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.tiering.models import Tier, TierSet
from apps.tiering.presets import SEED_DISK_THROUGHPUT, SEED_FLASH_THROUGHPUT


@pytest.mark.django_db
class TierSetTests:
    def test_it_refuses_a_target_naming_a_tier_set_that_does_not_exist(self, seed_tiers):
        target = Target(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2O09")  # a typo: O for 0

        with pytest.raises(ValidationError) as refused:
            target.full_clean()
        assert "tier_set" in refused.value.message_dict

    def test_it_refuses_to_map_a_tablespace_to_a_tier_of_another_set(self, seed_tiers):
        target = Target.objects.create(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        mapping = TablespaceTier(target=target, tablespace_name="USERS", tier=Tier.objects.get(name="EBS gp3"))

        with pytest.raises(ValidationError) as refused:
            mapping.full_clean()
        assert refused.value.message_dict["tier"] == [
            "tablespace 'USERS' of target 'prod': tier 'EBS gp3' is in tier set 'aws-ebs', but the target "
            "compares the 'seed-2009' set; pick a tier of 'seed-2009'"]
        TablespaceTier(target=target, tablespace_name="USERS", tier=Tier.objects.get(name="fast disk")).full_clean()

    def test_it_refuses_a_new_set_for_a_target_whose_map_names_tiers_of_the_old_one(self, seed_tiers):
        target = Target.objects.create(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        TablespaceTier.objects.create(target=target, tablespace_name="USERS", tier=Tier.objects.get(name="fast disk"))
        target.tier_set_id = "aws-ebs"

        with pytest.raises(ValidationError, match="USERS → fast disk"):
            target.full_clean()

    def test_it_loads_the_presets_into_sets_with_their_billing_basis(self, seed_tiers):
        sets = {s.name: (s.billing, s.amortisation_months) for s in TierSet.objects.all()}
        assert sets == {"seed-2009": ("purchase", 60), "on-prem-2025": ("purchase", 60),
                        "aws-ebs": ("monthly", 60), "oci-block-volume": ("monthly", 60)}
        assert {t.name for t in Tier.objects.filter(tier_set="aws-ebs")} == {"EBS st1", "EBS gp3", "EBS io2"}

    def test_it_keeps_where_each_preset_tier_s_throughput_comes_from(self, seed_tiers):
        flash, hi_cap = Tier.objects.get(name="flash"), Tier.objects.get(name="hi-cap disk")
        assert (flash.throughput_mb_s, flash.throughput_source) == (100, SEED_FLASH_THROUGHPUT)
        assert (hi_cap.throughput_mb_s, hi_cap.throughput_source) == (40, SEED_DISK_THROUGHPUT)
        unknown = Tier.objects.filter(throughput_mb_s__isnull=True)
        assert unknown.exists() and set(unknown.values_list("throughput_source", flat=True)) == {""}

    def test_it_gives_a_purchase_set_s_monthly_figure_over_its_months(self, seed_tiers):
        seed = TierSet.objects.get(name="seed-2009")
        assert seed.basis.per_month(Decimal(18000)) == Decimal(300)
        assert seed.basis.unit == "USD purchase"
        assert TierSet.objects.get(name="aws-ebs").basis.per_month(Decimal("6.75")) == Decimal("6.75")

    def test_it_gives_a_new_target_the_seed_set_even_before_the_presets(self, db):
        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        assert target.tier_set_id == "seed-2009" and TierSet.objects.filter(name="seed-2009").exists()


@pytest.mark.django_db
class TierSetAdminTests:
    def test_it_answers_a_map_to_another_set_s_tier_in_the_admin_with_the_message(self, admin_client, seed_tiers):
        target = Target.objects.create(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        gp3 = Tier.objects.get(name="EBS gp3")

        response = admin_client.post(f"/admin/targets/target/{target.pk}/change/", {
            "name": "prod", "mode": "report", "interval_minutes": "60", "tier_set": "seed-2009",
            "tablespace_tiers-TOTAL_FORMS": "1", "tablespace_tiers-INITIAL_FORMS": "0",
            "tablespace_tiers-0-tablespace_name": "USERS", "tablespace_tiers-0-tier": str(gp3.pk),
        })

        assert response.status_code == 200
        assert "tier &#x27;EBS gp3&#x27; is in tier set &#x27;aws-ebs&#x27;" in response.content.decode()
        assert not TablespaceTier.objects.exists()

    def test_it_offers_only_existing_sets_for_a_target(self, admin_client, seed_tiers):
        response = admin_client.post("/admin/targets/target/add/", {
            "name": "prod", "mode": "report", "interval_minutes": "60", "tier_set": "seed-2O09",
            "tablespace_tiers-TOTAL_FORMS": "0", "tablespace_tiers-INITIAL_FORMS": "0",
        })

        assert response.status_code == 200
        assert "Select a valid choice" in response.content.decode()
        assert not Target.objects.exists()


@pytest.mark.django_db
class TierMoveTests:
    @pytest.mark.parametrize(("mapped_to", "refusal"), [
        ("tablespace", "mapped to tablespaces of targets on another set (prod: USERS)"),
        ("storage location", "mapped to storage locations of targets on another set (prod: +DATA)"),
    ])
    def test_it_refuses_to_move_a_mapped_tier_to_another_set(self, admin_client, seed_tiers, mapped_to, refusal):
        target = Target.objects.create(name="prod", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
        fast = Tier.objects.get(name="fast disk")
        if mapped_to == "tablespace":
            TablespaceTier.objects.create(target=target, tablespace_name="USERS", tier=fast)
        else:
            StorageLocation.objects.create(target=target, name="+DATA", kind=StorageLocation.Kind.ASM, tier=fast)
        data = {f: getattr(fast, f) for f in ("name", "kind", "device_cost_usd", "device_gb", "device_iops",
                                              "read_latency_ms")}

        response = admin_client.post(f"/tiers/{fast.pk}/edit/", {**data, "tier_set": "aws-ebs"})

        assert response.status_code == 200
        assert refusal in response.content.decode()
        fast.refresh_from_db()
        assert fast.tier_set_id == "seed-2009"
