"""The storage map in the database: the files a collection or an extract gives, the DBA's map, the effective
tiers the refresh reads, and the double tiering warning reaching the recommendations' reasons."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError

from apps.snapshots.imports import extract_import
from apps.snapshots.models import DataFile
from apps.snapshots.storage_map import datafiles_store, storage_location_save, storage_map_read
from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.targets.rows import DataFile as DataFileRow
from apps.targets.storage import SOURCE_HAND, SOURCE_LOCATION, SOURCE_NONE
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.services import recommendation_refresh, segment_arrays
from apps.tiering.rules import FINDING_CODES, MOVING_ACTIONS

pytestmark = pytest.mark.usefixtures("seed_tiers")  # the report target's tier set, seed-2009, priced

EXTRACTS = Path(__file__).resolve().parents[1] / "targets" / "extract" / "fixtures"
UTC = dt.timezone.utc
ARRAY_TIERING = 1 << FINDING_CODES.index("array_tiering")


@pytest.fixture
def collected(collected_shared):
    return collected_shared  # one collection for the module's tests (tests/conftest.py collected_for_module)


def _tiers(target: Target) -> dict[str, Tier]:
    return {tier.name: tier for tier in Tier.objects.filter(tier_set_id=target.tier_set_id)}


@pytest.mark.django_db
class DatafilesStoreTests:
    def test_a_demo_collection_stores_its_files_with_their_locations(self, collected):
        files = DataFile.objects.filter(target=collected)

        assert files.filter(file_type="TEMP").count() == 1
        assert set(files.values_list("location", flat=True)) == {"+DATA", "+FLASH", "/u03/oradata"}
        assert set(files.filter(tablespace_name="SOE_INDEX").values_list("location", flat=True)) == {"+DATA", "+FLASH"}

    def test_a_second_collection_keeps_the_newest_files_once(self, collected, collect):
        before = list(DataFile.objects.filter(target=collected).values_list("file_type", "file_id", "file_name"))

        collect(collected)

        assert list(DataFile.objects.filter(target=collected).values_list(
            "file_type", "file_id", "file_name")) == before

    def test_an_older_collection_changes_nothing(self, report_target):
        now = dt.datetime(2026, 11, 20, 12, tzinfo=UTC)
        datafiles_store(target_id=report_target.id, collected_at=now,
                        rows=[DataFileRow("USERS", 4, "+DATA/P/users.1.1", 10)])

        stored = datafiles_store(target_id=report_target.id, collected_at=now - dt.timedelta(days=1),
                                 rows=[DataFileRow("USERS", 4, "/u01/oradata/P/users01.dbf", 10)])

        assert stored == 0
        assert DataFile.objects.get(target=report_target).location == "+DATA"

    def test_an_extract_import_stores_its_files(self, report_target):
        extract_import(target=report_target, path_or_zip=EXTRACTS / "single")

        storage = storage_map_read(target_id=report_target.id)
        assert [(loc.name, loc.files) for loc in storage.locations] == [("+DATA", 3), ("/u02/oradata", 1)]
        assert storage.guessed_mounts == ("/u02/oradata",)
        assert storage.collected_at is not None

    def test_an_extract_without_the_file_leaves_the_map_empty(self, report_target, tmp_path):
        import shutil

        directory = tmp_path / "old"
        shutil.copytree(EXTRACTS / "single", directory)
        (directory / "datafiles.csv").unlink()

        extract_import(target=report_target, path_or_zip=directory)

        assert storage_map_read(target_id=report_target.id).locations == ()

    def test_a_bad_extract_leaves_nothing_half_written(self, report_target, tmp_path):
        import shutil

        directory = tmp_path / "bad"
        shutil.copytree(EXTRACTS / "single", directory)
        lines = (directory / "datafiles.csv").read_text().splitlines()
        lines[2] = '"USERS","x","+DATA/PROD/DATAFILE/users.259.1150000001","1","YES","1","DATA"'
        (directory / "datafiles.csv").write_text("\n".join(lines) + "\n")

        from apps.snapshots.imports import ImportRefused

        with pytest.raises(ImportRefused, match="datafiles.csv, line 3"):
            extract_import(target=report_target, path_or_zip=directory)
        assert not DataFile.objects.filter(target=report_target).exists()


@pytest.mark.django_db
class StorageLocationSaveTests:
    def test_it_maps_a_disk_group_as_the_dba_types_it(self, collected):
        tiers = _tiers(collected)

        location = storage_location_save(target=collected, name="+data", tier_id=tiers["fast disk"].id)

        assert (location.name, location.kind, location.tier, location.array_tiering) == (
            "+DATA", "asm", tiers["fast disk"], False)

    def test_it_refuses_a_tier_of_another_set(self, collected):
        other = Tier.objects.exclude(tier_set_id=collected.tier_set_id).first()

        with pytest.raises(ValidationError, match="pick a tier of"):
            storage_location_save(target=collected, name="+DATA", tier_id=other.id)
        assert not StorageLocation.objects.filter(target=collected).exists()

    def test_declaring_a_mount_point_places_the_files_again(self, collected):
        storage_location_save(target=collected, name="/u03/", tier_id=None)

        assert set(DataFile.objects.filter(target=collected, tablespace_name="HIST_DATA")
                   .values_list("location", flat=True)) == {"/u03"}
        names = [loc.name for loc in storage_map_read(target_id=collected.id).locations]
        assert "/u03" in names and "/u03/oradata" not in names

    def test_it_is_audited(self, collected):
        from apps.core.models import AuditLogEntry

        storage_location_save(target=collected, name="+FLASH", tier_id=_tiers(collected)["flash"].id,
                              array_tiering=True)

        entry = AuditLogEntry.objects.filter(target_name=collected.name).order_by("-timestamp").first()
        assert entry is not None and "array_tiering" in entry.changes_dict


@pytest.mark.django_db
class EffectiveTierTests:
    def test_an_unmapped_location_changes_no_tier(self, collected):
        before = segment_arrays(target_id=collected.id).tier_id
        StorageLocation.objects.create(target=collected, name="+DATA", kind="asm")

        assert (segment_arrays(target_id=collected.id).tier_id == before).all()

    def test_the_hand_map_wins_over_the_location(self, collected):
        tiers = _tiers(collected)
        storage_location_save(target=collected, name="+DATA", tier_id=tiers["flash"].id)

        placed = storage_map_read(target_id=collected.id).placements["SOE_DATA"]
        assert (placed.tier_name, placed.source) == ("fast disk", SOURCE_HAND)

    def test_without_the_hand_map_a_tablespace_follows_its_location(self, collected):
        tiers = _tiers(collected)
        TablespaceTier.objects.filter(target=collected, tablespace_name="SOE_DATA").delete()
        unmapped = segment_arrays(target_id=collected.id)
        storage_location_save(target=collected, name="+DATA", tier_id=tiers["hi-cap disk"].id)

        placed = storage_map_read(target_id=collected.id).placements["SOE_DATA"]
        arrays = segment_arrays(target_id=collected.id)
        soe = arrays.tier_id != unmapped.tier_id
        assert (placed.tier_name, placed.source) == ("hi-cap disk", SOURCE_LOCATION)
        assert soe.any() and (unmapped.tier_id[soe] == -1).all()
        assert (arrays.tier_id[soe] == tiers["hi-cap disk"].id).all()

    def test_a_spread_tablespace_gets_no_tier_and_is_flagged(self, collected):
        tiers = _tiers(collected)
        TablespaceTier.objects.filter(target=collected, tablespace_name="SOE_INDEX").delete()
        storage_location_save(target=collected, name="+DATA", tier_id=tiers["fast disk"].id)
        storage_location_save(target=collected, name="+FLASH", tier_id=tiers["flash"].id)

        placed = storage_map_read(target_id=collected.id).placements["SOE_INDEX"]
        assert (placed.tier_id, placed.source, placed.spread) == (None, SOURCE_NONE, True)


@pytest.mark.django_db
class DoubleTieringTests:
    def test_the_warning_reaches_the_moves_off_the_array(self, collected):
        before = {r.segment_id: (r.action, r.findings) for r in Recommendation.objects.current(target_id=collected.id)}
        for name in ("+DATA", "+FLASH", "/u03/oradata"):
            storage_location_save(target=collected, name=name, tier_id=None, array_tiering=True)

        recommendation_refresh(target_id=collected.id, now=collected.runs.first().finished_at)

        current = list(Recommendation.objects.current(target_id=collected.id).select_related(
            "segment", "current_tier", "cost_tier", "recommended_tier", "run"))
        moving = [r for r in current if r.action in MOVING_ACTIONS]
        assert moving, "the demo recommends moves"
        # The flag is a warning: the actions and every other finding are as before.
        assert {r.segment_id: (r.action, r.findings & ~ARRAY_TIERING) for r in current} == before
        assert all(r.findings & ARRAY_TIERING for r in moving)
        assert not any(r.findings & ARRAY_TIERING for r in current if r.action not in MOVING_ACTIONS)
        rec = moving[0]
        [explanation] = explain([rec], target=collected)
        words = {reason.code: reason.text for reason in explanation.reasons}
        location = {"SOE_DATA": "+DATA", "SOE_INDEX": "+DATA", "HIST_DATA": "/u03/oradata",
                    "FLASH_DATA": "+FLASH"}.get(rec.segment.tablespace_name, "")
        assert words["array_tiering"].startswith(f"The array pool behind {location}")
        assert "tiers by itself: moving segments fights it" in words["array_tiering"]
