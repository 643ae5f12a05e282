"""``whatif``: parsing, validation, and the JSON / CSV / table outputs."""

from __future__ import annotations

import csv
import io
import json
import tempfile
import unittest
from pathlib import Path

from apps.tiering.whatif import WhatIfError, parse_objects, parse_tiers, whatif_run

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EXAMPLE_TIERS = FIXTURES / "example_tiers.json"
EXAMPLE_OBJECTS = FIXTURES / "example_objects.csv"
SEED_TIERS = FIXTURES / "seed_tiers.json"


def run_json(tiers: Path = EXAMPLE_TIERS, objects: Path = EXAMPLE_OBJECTS) -> dict:
    return json.loads(whatif_run(tiers_path=tiers, objects_path=objects, output_format="json"))


class WhatIfJsonTests(unittest.TestCase):
    def test_it_has_exactly_the_documented_keys(self) -> None:
        report = run_json()
        self.assertEqual(set(report), {"tiers", "break_even", "objects", "placements", "cost_unit",
                                       "amortisation_months"})
        self.assertEqual(set(report["tiers"][0]), {"name", "usd_per_gb", "usd_per_iops", "intensity", "billing"})
        self.assertEqual(set(report["objects"][0]), {"name", "iops", "gb", "intensity", "costs", "tier",
                                                     "costs_per_month"})
        self.assertEqual(set(report["placements"][0]), {"name", "tiers", "total_cost", "total_cost_per_month"})
        self.assertEqual(set(report["placements"][0]["tiers"]["flash"]),
                         {"devices", "cost", "iops", "gb", "cost_per_month"})

    def test_it_reproduces_the_seed_example_placements(self) -> None:
        placements = {p["name"]: p for p in run_json()["placements"]}
        self.assertEqual(list(placements), ["recommended", "all on flash", "all on fast disk", "optimized"])
        recommended = placements["recommended"]
        self.assertEqual(recommended["total_cost"], 18000.0)
        self.assertEqual(recommended["tiers"]["flash"]["devices"], 1)
        self.assertEqual(recommended["tiers"]["fast disk"]["devices"], 14)
        self.assertEqual(sum(t["iops"] for t in recommended["tiers"].values()), 34200)
        self.assertEqual(sum(t["gb"] for t in recommended["tiers"].values()), 4520)
        all_fast = placements["all on fast disk"]["tiers"]["fast disk"]
        self.assertEqual(all_fast, {"devices": 47, "cost": 28200.0, "iops": 14100, "gb": 14100, "cost_per_month": 470.0})
        all_flash = placements["all on flash"]["tiers"]["flash"]
        self.assertEqual(all_flash, {"devices": 3, "cost": 28800.0, "iops": 90000, "gb": 960, "cost_per_month": 480.0})
        self.assertEqual(placements["optimized"]["total_cost"], 18000.0)

    def test_it_reports_the_seed_tier_intensities_and_break_evens(self) -> None:
        report = run_json(tiers=SEED_TIERS)
        self.assertEqual([t["intensity"] for t in report["tiers"]], [0.1, 1.0, 375.0])
        self.assertEqual(
            report["break_even"],
            [
                {"between": ["hi-cap disk", "fast disk"], "intensity": 0.8},
                {"between": ["fast disk", "flash"], "intensity": 15.0},
            ],
        )

    def test_it_lists_per_object_costs_and_the_cheapest_tier(self) -> None:
        objects = {o["name"]: o for o in run_json()["objects"]}
        self.assertEqual(objects["A"]["costs"], {"flash": 9000.0, "fast disk": 20000.0})
        self.assertEqual((objects["A"]["tier"], objects["B"]["tier"]), ("flash", "fast disk"))
        self.assertAlmostEqual(objects["B"]["intensity"], 6.6667, places=4)

    def test_it_handles_cloud_tiers_and_current_tiers(self) -> None:
        report = run_json(tiers=FIXTURES / "cloud_tiers.json", objects=FIXTURES / "cloud_objects.csv")
        placements = {p["name"]: p for p in report["placements"]}
        self.assertIsNone(placements["recommended"]["tiers"]["linear"]["devices"])
        self.assertLessEqual(placements["optimized"]["total_cost"], placements["recommended"]["total_cost"])


class WhatIfMoneyTests(unittest.TestCase):
    """Money in one unit (issue 15, items 7 and 8): the seed's purchase totals kept, the monthly view beside them;
    tiers billed differently compared per month; cloud volumes pooled per tier."""

    def test_it_keeps_the_seed_purchase_totals_and_adds_them_per_month(self) -> None:
        report = run_json()
        placements = {p["name"]: p for p in report["placements"]}
        self.assertEqual((report["cost_unit"], report["amortisation_months"]), ("USD purchase", 60))
        self.assertEqual([t["billing"] for t in report["tiers"]], ["purchase", "purchase"])
        self.assertEqual((placements["recommended"]["total_cost"], placements["recommended"]["total_cost_per_month"]),
                         (18000.0, 300.0))
        self.assertEqual(placements["all on fast disk"]["tiers"]["fast disk"]["cost_per_month"], 470.0)
        objects = {o["name"]: o for o in report["objects"]}
        self.assertEqual(objects["A"]["costs_per_month"], {"flash": 150.0, "fast disk": 333.33})

    def test_it_compares_a_purchase_and_a_monthly_bill_per_month(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            tiers = Path(folder) / "tiers.json"
            tiers.write_text(json.dumps([
                {"name": "flash", "device_cost": 9600, "device_gb": 320, "device_iops": 30000},
                {"name": "gp3", "kind": "provisioned_iops", "usd_per_gb": 0.08, "usd_per_iops": 0.005,
                 "included_iops_per_volume": 3000, "max_iops_per_gb": 500},
            ]))
            report = run_json(tiers=tiers)
        placements = {p["name"]: p for p in report["placements"]}
        self.assertEqual(report["cost_unit"], "USD/month")
        self.assertEqual([t["billing"] for t in report["tiers"]], ["purchase", "monthly"])
        # One flash device for A is $9,600 / 60 = $160 a month, never $9,600 beside gp3's monthly bill.
        self.assertEqual(placements["all on flash"]["tiers"]["flash"]["cost"], 480.0)
        self.assertEqual(placements["all on flash"]["total_cost"], placements["all on flash"]["total_cost_per_month"])

    def test_it_pools_cold_partitions_on_st1_per_tier(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            objects = Path(folder) / "partitions.csv"
            objects.write_text("name,iops,gb,current_tier\n" + "".join(f"P{m:02d},0.002,10,EBS gp3\n" for m in range(15)))
            report = run_json(tiers=FIXTURES / "ebs_tiers.json", objects=objects)
        placements = {p["name"]: p for p in report["placements"]}
        self.assertEqual({o["tier"] for o in report["objects"]}, {"EBS st1"})
        self.assertEqual(placements["recommended"]["total_cost"], 6.75)
        self.assertEqual(placements["all on EBS gp3"]["total_cost"], 12.0)
        self.assertEqual(report["cost_unit"], "USD/month")

    def test_it_appends_the_monthly_figures_to_the_csv(self) -> None:
        text = whatif_run(tiers_path=EXAMPLE_TIERS, objects_path=EXAMPLE_OBJECTS, output_format="csv")
        objects_part, placements_part = text.split("\r\n\r\n")
        objects = list(csv.reader(io.StringIO(objects_part)))
        placements = list(csv.reader(io.StringIO(placements_part)))
        self.assertEqual(objects[0][-2:], ["cost per month flash", "cost per month fast disk"])
        self.assertEqual(placements[0], ["placement", "tier", "devices", "cost", "iops", "gb", "cost_unit",
                                         "cost_per_month"])
        self.assertIn(["recommended", "TOTAL", "", "18000.00", "", "", "USD purchase", "300.00"], placements)


class WhatIfCsvAndTableTests(unittest.TestCase):
    def test_it_writes_objects_then_placements_in_csv(self) -> None:
        text = whatif_run(tiers_path=EXAMPLE_TIERS, objects_path=EXAMPLE_OBJECTS, output_format="csv")
        objects_part, placements_part = text.split("\r\n\r\n")
        objects = list(csv.reader(io.StringIO(objects_part)))
        placements = list(csv.reader(io.StringIO(placements_part)))
        self.assertEqual(objects[0][:7], ["object", "iops", "gb", "intensity", "cost flash", "cost fast disk", "tier"])
        self.assertEqual(objects[1][0], "A")
        self.assertEqual(objects[1][6], "flash")
        self.assertEqual(placements[0][:6], ["placement", "tier", "devices", "cost", "iops", "gb"])
        self.assertIn(["all on fast disk", "fast disk", "47", "28200.00", "14100", "14100"], [p[:6] for p in placements])
        self.assertIn(["recommended", "TOTAL", "", "18000.00", "", ""], [p[:6] for p in placements])

    def test_it_neutralises_formula_names_in_csv(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            objects = Path(folder) / "objects.csv"
            objects.write_text('name,iops,gb\n"=HYPERLINK(""x"")",10,1\n')
            text = whatif_run(tiers_path=EXAMPLE_TIERS, objects_path=objects, output_format="csv")
        self.assertIn("'=HYPERLINK", text)

    def test_it_prints_tables_with_the_optimizer_bound(self) -> None:
        text = whatif_run(tiers_path=EXAMPLE_TIERS, objects_path=EXAMPLE_OBJECTS, output_format="table")
        self.assertIn("all on fast disk", text)
        self.assertIn("28,200.00", text)
        self.assertIn("lower bound $18,000.00; gap 0.00%", text)


class WhatIfErrorTests(unittest.TestCase):
    TIERS_OK = '[{"name": "flash", "device_cost": 2400, "device_gb": 80, "device_iops": 30000}]'

    def assert_objects_error(self, text: str, *expected: str) -> None:
        with self.assertRaises(WhatIfError) as caught:
            parse_objects(text, "OBJECTS.csv", ["flash"])
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertTrue(message.startswith("OBJECTS.csv line "), message)
        for part in expected:
            self.assertIn(part, message)

    def assert_tiers_error(self, text: str, *expected: str) -> None:
        with self.assertRaises(WhatIfError) as caught:
            parse_tiers(text, "TIERS.json")
        message = str(caught.exception)
        self.assertNotIn("\n", message)
        self.assertTrue(message.startswith("TIERS.json line "), message)
        for part in expected:
            self.assertIn(part, message)

    def test_it_names_line_and_field_of_bad_objects(self) -> None:
        cases = {
            "negative iops": ("name,iops,gb\nA,-1,10\n", "line 2", "'iops'"),
            "missing gb": ("name,iops,gb\nA,1,\n", "line 2", "'gb'", "missing"),
            "zero gb": ("name,iops,gb\nA,1,10\nB,1,0\n", "line 3", "'gb'"),
            "not a number": ("name,iops,gb\nA,lots,10\n", "line 2", "'iops'"),
            "infinite": ("name,iops,gb\nA,inf,10\n", "line 2", "finite"),
            "unknown column": ("name,iops,gb,colour\nA,1,10,red\n", "line 1", "'colour'"),
            "missing column": ("name,iops\nA,1\n", "line 1", "'gb'"),
            "empty file": ("", "line 1", "empty"),
            "header only": ("name,iops,gb\n", "no objects"),
            "duplicate name": ("name,iops,gb\nA,1,10\nA,2,20\n", "line 3", "duplicate"),
            "extra cell": ("name,iops,gb\nA,1,10,9\n", "line 2", "cells"),
            "unknown current tier": ("name,iops,gb,current_tier\nA,1,10,tape\n", "line 2", "'current_tier'"),
        }
        for case, (text, *expected) in cases.items():
            with self.subTest(case=case):
                self.assert_objects_error(text, *expected)

    def test_it_names_line_and_field_of_bad_tiers(self) -> None:
        cases = {
            "malformed JSON": ('[\n {"name": "a",\n  "device_gb" 80}\n]', "line 3", "malformed JSON"),
            "unknown key": ('[\n {"name": "a", "usd_per_gb": 1, "usd_per_iops": 1, "hue": 2}\n]', "line 2", "'hue'"),
            "negative price": ('[{"name": "a", "usd_per_gb": -1, "usd_per_iops": 1}]', "line 1", "'usd_per_gb'"),
            "missing number": ('[{"name": "a", "device_cost": 1, "device_gb": 80}]', "'device_iops'", "missing"),
            "string number": ('[{"name": "a", "usd_per_gb": "1", "usd_per_iops": 1}]', "'usd_per_gb'", "number"),
            "zero device gb": ('[{"name": "a", "device_cost": 1, "device_gb": 0, "device_iops": 1}]', "'device_gb'"),
            "duplicate name": (f'[{self.TIERS_OK[1:-1]},\n{self.TIERS_OK[1:-1]}]', "line 2", "duplicate"),
            "empty list": ("[]", "empty"),
            "empty file": ("", "empty"),
            "not a list": ('{"name": "a"}', "list"),
            "unknown kind": ('[{"name": "a", "kind": "tape", "usd_per_gb": 1}]', "'kind'"),
            "missing name": ('[{"usd_per_gb": 1, "usd_per_iops": 1}]', "'name'"),
        }
        for case, (text, *expected) in cases.items():
            with self.subTest(case=case):
                self.assert_tiers_error(text, *expected)

    def test_it_names_a_missing_file(self) -> None:
        with self.assertRaisesRegex(WhatIfError, "nope.json: file not found"):
            whatif_run(tiers_path="nope.json", objects_path=EXAMPLE_OBJECTS, output_format="json")

    def test_it_rejects_an_unknown_format(self) -> None:
        with self.assertRaisesRegex(WhatIfError, "--format"):
            whatif_run(tiers_path=EXAMPLE_TIERS, objects_path=EXAMPLE_OBJECTS, output_format="xml")

    def test_it_accepts_cloud_kinds_with_their_keys(self) -> None:
        tiers = parse_tiers((FIXTURES / "cloud_tiers.json").read_text(), "cloud_tiers.json")
        self.assertEqual([t.name for t in tiers], ["gp3", "io2", "oci balanced", "linear"])
        self.assertEqual(tiers[2].intensity, 60.0)
