"""The target page's Storage map card, its admin form and ``manage.py storage_map``."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.core.models import AuditLogEntry
from apps.dashboard.storage.selectors import storage_map_card
from apps.snapshots.storage_map import storage_location_save
from apps.targets.models import StorageLocation, TablespaceTier
from apps.tiering.models import Refresh, Tier


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def _tier(target, name: str) -> Tier:
    return Tier.objects.get(tier_set_id=target.tier_set_id, name=name)


@pytest.mark.django_db
class StorageMapCardTests:
    def test_it_lists_locations_and_tablespaces_from_the_hand_map(self, collected):
        card = storage_map_card(target=collected)

        assert [(loc.name, loc.kind) for loc in card.locations] == [
            ("+DATA", "asm"), ("+FLASH", "asm"), ("/u03/oradata", "mount")]
        assert card.guessed_mounts == ("/u03/oradata",)
        rows = {row.placement.tablespace_name: row for row in card.tablespaces}
        assert rows["SOE_DATA"].source_label == "hand map"
        assert card.flagged == 0  # nothing is mapped: nothing to flag
        assert {tier.name for tier in card.tiers} == {"flash", "fast disk", "hi-cap disk"}

    def test_it_flags_a_spread_tablespace_and_double_tiering(self, collected):
        storage_location_save(target=collected, name="+DATA", tier_id=_tier(collected, "fast disk").id,
                              array_tiering=True)
        storage_location_save(target=collected, name="+FLASH", tier_id=_tier(collected, "flash").id)

        rows = {row.placement.tablespace_name: row for row in storage_map_card(target=collected).tablespaces}

        assert rows["SOE_INDEX"].flags[0].startswith("spread over several tiers (fast disk, flash)")
        assert "double tiering: the array pool behind +DATA tiers by itself" in rows["SOE_DATA"].flags[0]
        assert rows["FLASH_DATA"].flags == ()

    def test_it_says_where_a_tier_comes_from_without_the_hand_map(self, collected):
        TablespaceTier.objects.filter(target=collected, tablespace_name="HIST_DATA").delete()
        storage_location_save(target=collected, name="/u03/oradata",
                              tier_id=_tier(collected, "hi-cap disk").id)

        rows = {row.placement.tablespace_name: row for row in storage_map_card(target=collected).tablespaces}

        assert (rows["HIST_DATA"].placement.tier_name, rows["HIST_DATA"].source_label) == (
            "hi-cap disk", "location /u03/oradata")


@pytest.mark.django_db
class StorageMapPageTests:
    def test_the_target_page_shows_the_card(self, collected, viewer_client):
        html = viewer_client.get(reverse("dashboard:target", args=["demo"])).content.decode()

        assert 'id="storage-map"' in html
        assert "from V$ASM_DISKGROUP_STAT" in html
        assert "its path's first two components stand for the mount point" in html
        assert 'class="map-form"' not in html  # viewers see the map, not the form

    def test_it_shows_each_disk_group_with_redundancy_and_free_space(self, collected, viewer_client):
        html = viewer_client.get(reverse("dashboard:target", args=["demo"])).content.decode()

        row = re.search(r'<tr data-location="\+FLASH">(.*?)</tr>', html, re.S).group(1)
        assert "NORMAL" in row
        assert "400 GB" in row  # four 100 GiB disks, raw
        assert re.search(r'data-usable-mb="2\d{4}"', row)  # about 26 GiB usable, mirroring counted
        assert "kept for mirror recovery" in row
        mount = re.search(r'<tr data-location="/u03/oradata">(.*?)</tr>', html, re.S).group(1)
        assert "not read" in mount  # a file system's free space is not read

    def test_a_disk_group_not_listed_by_the_view_is_unknown(self, collected, viewer_client):
        from apps.snapshots.storage_models import DiskGroup

        DiskGroup.objects.filter(target=collected, name="FLASH").delete()

        html = viewer_client.get(reverse("dashboard:target", args=["demo"])).content.decode()

        assert "+FLASH: not listed by V$ASM_DISKGROUP_STAT at the latest collection" in html

    def test_a_target_without_files_says_so(self, seed_tiers, viewer_client):
        from apps.targets.models import Target

        Target.objects.create(name="reports", mode=Target.Mode.REPORT, tier_set_id="seed-2009")

        html = viewer_client.get(reverse("dashboard:target", args=["reports"])).content.decode()

        assert "No source gave this target's data files" in html

    def test_an_admin_maps_a_location_and_a_recompute_is_queued(self, collected, admin_client, admin_user,
                                                                django_capture_on_commit_callbacks):
        flash = _tier(collected, "flash")
        url = reverse("dashboard:storage_location", args=["demo"])

        with django_capture_on_commit_callbacks(execute=True):
            response = admin_client.post(url, {"location": "+flash", "tier": flash.id, "array_tiering": "on"})

        assert response.status_code == 302 and response["Location"].endswith("/targets/demo/#storage-map")
        location = StorageLocation.objects.get(target=collected)
        assert (location.name, location.tier, location.array_tiering) == ("+FLASH", flash, True)
        assert Refresh.objects.filter(target=collected).latest("queued_at").status == Refresh.Status.SUCCEEDED
        # The change (auditlog, old and new values) and the recompute both name their author.
        change = AuditLogEntry.objects.get(content_type__model="storagelocation", object_id=location.id)
        assert (change.actor, change.target_name, change.changes_dict["tier"][1]) == (admin_user, "demo", "flash")
        assert AuditLogEntry.objects.filter(actor=admin_user, additional_data__action="recompute").exists()

    def test_it_refuses_a_tier_of_another_set(self, collected, admin_client):
        other = Tier.objects.exclude(tier_set_id=collected.tier_set_id).first()

        response = admin_client.post(reverse("dashboard:storage_location", args=["demo"]),
                                     {"location": "+DATA", "tier": other.id}, follow=True)

        assert "not changed" in response.content.decode()
        assert not StorageLocation.objects.filter(target=collected).exists()

    def test_it_refuses_a_name_that_is_no_location(self, collected, admin_client):
        response = admin_client.post(reverse("dashboard:storage_location", args=["demo"]),
                                     {"location": "oradata/x", "tier": ""}, follow=True)

        assert "neither a disk group" in response.content.decode()
        assert not StorageLocation.objects.exists()

    def test_a_viewer_may_not_map(self, collected, viewer_client):
        response = viewer_client.post(reverse("dashboard:storage_location", args=["demo"]),
                                      {"location": "+DATA", "tier": ""})

        assert response.status_code == 403
        assert not StorageLocation.objects.exists()

    def test_it_takes_posts_only(self, collected, admin_client):
        assert admin_client.get(reverse("dashboard:storage_location", args=["demo"])).status_code == 405


@pytest.mark.django_db
class StorageMapCommandTests:
    def test_it_prints_the_map(self, collected):
        out = StringIO()

        call_command("storage_map", "demo", stdout=out)

        text = out.getvalue()
        assert "+DATA" in text and "/u03/oradata" in text
        assert "SOE_INDEX" in text and "(from hand map)" in text

    def test_it_prints_each_disk_group_with_redundancy_and_usable_space(self, collected):
        from apps.snapshots.storage_models import DiskGroup

        DiskGroup.objects.filter(target=collected, name="DATA").delete()
        out = StringIO()

        call_command("storage_map", "demo", stdout=out)

        lines = {line.split()[0]: line for line in out.getvalue().splitlines() if line.startswith("  +")}
        # The demo's FLASH: four 100 GiB disks, free space following its files (so the figures move with the day).
        assert re.search(r"\[NORMAL, usable \d+\.\d GiB, free \d+\.\d GiB of 400\.0 GiB raw\]$", lines["+FLASH"])
        assert "[free space unknown: not listed by V$ASM_DISKGROUP_STAT]" in lines["+DATA"]

    def test_it_maps_a_location_and_flags_double_tiering(self, collected, django_capture_on_commit_callbacks):
        out = StringIO()

        with django_capture_on_commit_callbacks(execute=True):
            call_command("storage_map", "demo", "--location", "+data", "--tier", "Fast Disk", "--array-tiering",
                         stdout=out)

        text = out.getvalue()
        assert "demo: +DATA → fast disk, array tiers by itself; recompute queued" in text
        assert "DOUBLE TIERING (+DATA tiers by itself)" in text
        location = StorageLocation.objects.get(target=collected)
        assert (location.tier.name, location.array_tiering) == ("fast disk", True)
        assert AuditLogEntry.objects.filter(actor_name__startswith="manage.py storage_map").exists()

    def test_array_tiering_alone_keeps_the_tier(self, collected, django_capture_on_commit_callbacks):
        storage_location_save(target=collected, name="+DATA", tier_id=_tier(collected, "fast disk").id)

        with django_capture_on_commit_callbacks(execute=True):
            call_command("storage_map", "demo", "--location", "+DATA", "--no-array-tiering", stdout=StringIO())

        assert StorageLocation.objects.get(target=collected).tier.name == "fast disk"

    def test_it_refuses_an_unknown_tier_and_a_missing_location(self, collected):
        with pytest.raises(CommandError, match="no tier 'nvme'"):
            call_command("storage_map", "demo", "--location", "+DATA", "--tier", "nvme", stdout=StringIO())
        with pytest.raises(CommandError, match="need --location"):
            call_command("storage_map", "demo", "--tier", "flash", stdout=StringIO())
        with pytest.raises(CommandError, match="neither a disk group"):
            call_command("storage_map", "demo", "--location", "x/y", "--tier", "flash", stdout=StringIO())
