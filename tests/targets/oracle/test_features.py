"""Release parsing, statement variants and the Diagnostics Pack gate."""

from __future__ import annotations

import unittest

from apps.targets.base import SourceError
from apps.targets.oracle.features import (
    SUPPORTED_RELEASES,
    Features,
    check_mode,
    check_pack_access,
    features_for,
    parse_release,
)


class ReleaseTests(unittest.TestCase):
    def test_it_parses_instance_versions(self) -> None:
        versions = ("11.2.0.4.0", "12.1.0.2.0", "19.0.0.0.0", "23.0.0.0.0")
        self.assertEqual([parse_release(version) for version in versions], [(11, 2), (12, 1), (19, 0), (23, 0)])

    def test_it_rejects_garbage(self) -> None:
        with self.assertRaisesRegex(ValueError, "'banana'"):
            parse_release("banana")

    def test_it_refuses_releases_before_11_2(self) -> None:
        with self.assertRaises(SourceError) as raised:
            features_for("11.1.0.7.0")
        self.assertTrue(raised.exception.permanent)

    def test_it_decides_capabilities_from_the_release(self) -> None:
        old, new = features_for("11.2.0.4.0"), features_for("12.1.0.2.0")
        self.assertEqual((old.runs("containers"), new.runs("containers")), (False, True))

    def test_it_picks_the_seg_stat_variant_by_release(self) -> None:
        chosen = {release: Features(release=release).sql_file("seg_stat") for release in SUPPORTED_RELEASES}
        self.assertEqual(chosen[(11, 2)], "seg_stat_112")
        self.assertTrue(all(stem == "seg_stat" for release, stem in chosen.items() if release >= (12, 1)))
        self.assertEqual(Features(release=(19, 0)).sql_file("segments"), "segments")


class PackAccessTests(unittest.TestCase):
    def test_it_refuses_awr_mode_when_pack_access_is_none(self) -> None:
        with self.assertRaises(SourceError) as raised:
            check_pack_access("NONE", mode="awr")
        self.assertTrue(raised.exception.permanent)
        self.assertIn("'nopack'", str(raised.exception))

    def test_it_lets_awr_run_with_the_pack_enabled(self) -> None:
        check_pack_access("DIAGNOSTIC+TUNING", mode="awr")
        check_pack_access("diagnostic", mode="awr")

    def test_it_never_blocks_nopack(self) -> None:
        check_pack_access("NONE", mode="nopack")

    def test_it_knows_the_modes(self) -> None:
        self.assertEqual(check_mode("nopack"), "nopack")
        with self.assertRaisesRegex(ValueError, "'AWR'"):
            check_mode("AWR")
