"""apps.targets.storage: a data file's name -> its disk group or mount point, and each tablespace's tier."""

from __future__ import annotations

import subprocess
import sys
import unittest

from apps.targets.storage import (
    KIND_ASM,
    KIND_MOUNT,
    RELATIVE_LOCATION,
    RULE_DECLARED,
    RULE_DRIVE,
    RULE_GUESSED,
    RULE_RELATIVE,
    SOURCE_HAND,
    SOURCE_LOCATION,
    SOURCE_NONE,
    LocationError,
    LocationSetting,
    location_name_parse,
    location_of,
    placements,
)


class LocationOfTests(unittest.TestCase):
    def test_it_reads_the_disk_group_of_an_omf_name(self) -> None:
        location = location_of("+DATA/PROD/DATAFILE/users.259.1150000001")
        self.assertEqual((location.name, location.kind), ("+DATA", KIND_ASM))

    def test_it_upper_cases_disk_groups_which_asm_compares_case_insensitively(self) -> None:
        self.assertEqual(location_of("+data/prod/datafile/users.259.1150000001").name, "+DATA")
        self.assertEqual(location_of("+Flash_01/x").name, "+FLASH_01")

    def test_it_reads_an_alias_and_a_disk_group_alone(self) -> None:
        self.assertEqual(location_of("+DATA/PROD/users01.dbf").name, "+DATA")  # a user alias
        self.assertEqual(location_of("+DATA").name, "+DATA")
        self.assertEqual(location_of("  +reco/ ").name, "+RECO")

    def test_it_refuses_a_plus_without_a_disk_group(self) -> None:
        with self.assertRaises(LocationError):
            location_of("+/PROD/x.dbf")

    def test_it_takes_the_first_two_path_components_when_no_mount_point_is_declared(self) -> None:
        location = location_of("/u03/oradata/PROD/users01.dbf")
        self.assertEqual((location.name, location.kind, location.rule), ("/u03/oradata", KIND_MOUNT, RULE_GUESSED))

    def test_it_never_takes_the_file_itself_for_a_directory(self) -> None:
        self.assertEqual(location_of("/u03/users01.dbf").name, "/u03")
        self.assertEqual(location_of("/users01.dbf").name, "/")

    def test_it_tidies_doubled_and_trailing_slashes(self) -> None:
        self.assertEqual(location_of("/u03//oradata///PROD/users01.dbf").name, "/u03/oradata")
        self.assertEqual(location_of("/u03/x.dbf", mount_points=["/u03/"]).name, "/u03")

    def test_the_longest_declared_mount_point_wins(self) -> None:
        mounts = ["/u03", "/u03/oradata/PROD", "/u0"]
        location = location_of("/u03/oradata/PROD/users01.dbf", mount_points=mounts)
        self.assertEqual((location.name, location.rule), ("/u03/oradata/PROD", RULE_DECLARED))
        self.assertEqual(location_of("/u03/fra/x.dbf", mount_points=mounts).name, "/u03")

    def test_a_declared_mount_point_matches_whole_components_only(self) -> None:
        # /u0 is not a prefix of /u03 as a directory: the default rule applies.
        self.assertEqual(location_of("/u03/oradata/x.dbf", mount_points=["/u0"]).rule, RULE_GUESSED)

    def test_it_reads_a_windows_drive_and_share(self) -> None:
        self.assertEqual(location_of(r"D:\oradata\PROD\USERS01.DBF").name, "D:")
        self.assertEqual(location_of("e:/oradata/x.dbf").rule, RULE_DRIVE)
        self.assertEqual(location_of(r"\\nas1\ora\PROD\x.dbf").name, r"\\nas1\ora")

    def test_it_gives_a_relative_name_no_location(self) -> None:
        location = location_of("users01.dbf")
        self.assertEqual((location.name, location.rule), (RELATIVE_LOCATION, RULE_RELATIVE))
        self.assertEqual(location_of("oradata/users01.dbf").name, RELATIVE_LOCATION)


class LocationNameParseTests(unittest.TestCase):
    def test_it_reads_what_a_dba_types(self) -> None:
        self.assertEqual(location_name_parse("+data"), ("+DATA", KIND_ASM))
        self.assertEqual(location_name_parse("DATA"), ("+DATA", KIND_ASM))
        self.assertEqual(location_name_parse("/u03/oradata/"), ("/u03/oradata", KIND_MOUNT))
        self.assertEqual(location_name_parse("d:"), ("D:", KIND_MOUNT))

    def test_it_refuses_what_is_no_location(self) -> None:
        for text in ("", "  ", "oradata/x", "+1DATA"):
            with self.subTest(text=text), self.assertRaises(LocationError):
                location_name_parse(text)


FAST, FLASH = LocationSetting("+DATA", 1, "fast disk"), LocationSetting("+FLASH", 2, "flash")


class PlacementsTests(unittest.TestCase):
    def test_a_tablespace_takes_the_tier_of_its_one_location(self) -> None:
        placed = placements(files=[("USERS", "+DATA"), ("USERS", "+DATA")], hand_map={}, settings={"+DATA": FAST})
        self.assertEqual((placed["USERS"].tier_id, placed["USERS"].source), (1, SOURCE_LOCATION))
        self.assertEqual(placed["USERS"].locations, ("+DATA",))

    def test_the_hand_map_wins(self) -> None:
        placed = placements(files=[("USERS", "+DATA")], hand_map={"USERS": (2, "flash")}, settings={"+DATA": FAST})
        self.assertEqual((placed["USERS"].tier_name, placed["USERS"].source), ("flash", SOURCE_HAND))

    def test_a_spread_tablespace_gets_no_tier_from_its_locations(self) -> None:
        placed = placements(files=[("SOE", "+DATA"), ("SOE", "+FLASH")], hand_map={},
                            settings={"+DATA": FAST, "+FLASH": FLASH})["SOE"]
        self.assertEqual((placed.tier_id, placed.source, placed.spread), (None, SOURCE_NONE, True))
        self.assertEqual(placed.location_tiers, ("fast disk", "flash"))

    def test_a_spread_tablespace_is_still_flagged_under_the_hand_map(self) -> None:
        placed = placements(files=[("SOE", "+DATA"), ("SOE", "+FLASH")], hand_map={"SOE": (1, "fast disk")},
                            settings={"+DATA": FAST, "+FLASH": FLASH})["SOE"]
        self.assertEqual((placed.tier_id, placed.source, placed.spread), (1, SOURCE_HAND, True))

    def test_a_partly_mapped_tablespace_gets_no_tier(self) -> None:
        placed = placements(files=[("SOE", "+DATA"), ("SOE", "/u03/oradata")], hand_map={},
                            settings={"+DATA": FAST})["SOE"]
        self.assertEqual((placed.tier_id, placed.spread, placed.unmapped), (None, False, ("/u03/oradata",)))

    def test_an_unmapped_location_changes_nothing(self) -> None:
        placed = placements(files=[("USERS", "+DATA")], hand_map={"USERS": (1, "fast disk")},
                            settings={"+DATA": LocationSetting("+DATA")})["USERS"]
        self.assertEqual((placed.tier_id, placed.source, placed.spread, placed.array_tiering),
                         (1, SOURCE_HAND, False, ()))

    def test_it_names_the_locations_on_an_array_that_tiers_by_itself(self) -> None:
        tiering = LocationSetting("+DATA", 1, "fast disk", array_tiering=True)
        placed = placements(files=[("USERS", "+DATA"), ("USERS", "+FLASH")], hand_map={},
                            settings={"+DATA": tiering, "+FLASH": FLASH})["USERS"]
        self.assertEqual(placed.array_tiering, ("+DATA",))

    def test_a_hand_mapped_tablespace_without_files_is_placed(self) -> None:
        placed = placements(files=[], hand_map={"OLD": (1, "fast disk")}, settings={})["OLD"]
        self.assertEqual((placed.locations, placed.source), ((), SOURCE_HAND))


class PurityTests(unittest.TestCase):
    def test_it_imports_no_django(self) -> None:
        code = "import sys, apps.targets.storage; print(any(m.startswith('django') for m in sys.modules))"
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        self.assertEqual(result.stdout.strip(), "False")
