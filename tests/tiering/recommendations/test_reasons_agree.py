"""Reasons agree with actions over real inputs (issue 15, item 9): the demo and every sample AWR report.

The real pipeline: collect the demo (or import a report, with a sizes listing
and its tablespaces mapped to the seed's tiers so that moves happen), refresh,
then word every row through explain; tests.tiering.recommendations.reason_checks lists what
disagrees.
"""

from __future__ import annotations

import csv
import io

import pytest

from apps.snapshots.imports import report_import
from apps.targets.awr_report import parse_report
from apps.targets.awr_report.source import report_to_collection
from apps.targets.models import TablespaceTier, Target
from apps.tiering.models import Recommendation, Tier
from apps.tiering.recommendations.explain import explain
from apps.tiering.recommendations.selectors import recommendation_list
from tests.targets.awr_report.samples import WITHOUT_SEGMENTS, sample_bytes, sample_paths
from tests.tiering.recommendations.reason_checks import contradictions

GB = 1024**3
SEED_TIERS = ("fast disk", "hi-cap disk", "flash")


def _explained(target: Target) -> list[tuple]:
    recs = list(recommendation_list(target_id=target.id))
    return list(zip(recs, explain(recs, target=target)))


@pytest.mark.django_db
class DemoReasonsTests:
    def test_no_reason_on_the_demo_contradicts_its_action_or_its_figures(self, demo_target, collect):
        collect(demo_target)
        rows = _explained(demo_target)

        assert len(rows) > 100
        problems = [problem for rec, explanation in rows for problem in contradictions(rec, explanation)]
        assert problems == []
        assert {"move", "move_partitions", "not_movable", "keep"} & {rec.action for rec, _ in rows} >= {
            "move", "not_movable", "keep"}

    def test_the_lob_index_moves_with_its_lob_and_is_counted_in_its_lob_s_row(self, demo_target, collect):
        collect(demo_target)
        rows = {(rec.segment.object_type, rec.segment.object_name): (rec, ex) for rec, ex in _explained(demo_target)}

        # The list shows the LOB, its index folded into its row (apps.tiering.recommendations.lobfold).
        assert ("LOBINDEX", "SYS_IL0000087654C00003$$") not in rows
        lob, _ = rows[("LOBSEGMENT", "SYS_LOB0000087654C00003$$")]
        index = (Recommendation.objects.current(target_id=demo_target.id)
                 .select_related("run", "segment", "current_tier", "cost_tier", "recommended_tier")
                 .get(segment__object_name="SYS_IL0000087654C00003$$"))
        words = explain([index], target=demo_target)[0]
        assert index.folded_into_id == lob.segment_id
        assert (index.action, index.savings_usd) == ("not_movable", 0)
        assert index.recommended_tier_id == index.current_tier_id
        assert "moves it with its LOB segment SYS_LOB0000087654C00003$$" in " ".join(r.text for r in words.reasons)
        # The LOB is sized, priced and judged with its index.
        assert lob.size_bytes == lob.segment.size_bytes + index.size_bytes
        assert lob.read_requests > index.read_requests > 0
        assert lob.action in ("move", "keep")

    def test_dictionary_objects_are_not_movable_and_save_nothing(self, demo_target, collect):
        collect(demo_target)
        rows = [(rec, ex) for rec, ex in _explained(demo_target)
                if rec.segment.owner == "SYS" and rec.segment.object_type == "TABLE"]

        assert rows
        for rec, words in rows:
            assert (rec.action, rec.savings_usd, rec.cost_after_usd) == ("not_movable", 0, rec.cost_now_usd)
            assert "data dictionary object" in words.ddl and "ALTER" not in words.ddl.replace("ALTER TABLE ...", "")

    def test_a_flash_cache_none_comes_with_its_ddl_beside_the_move(self, demo_target, collect):
        collect(demo_target)
        rows = {rec.segment.object_name: (rec, ex) for rec, ex in _explained(demo_target)
                if not rec.segment.subobject_name}

        rec, words = rows["INVENTORIES"]
        assert rec.action == "move"
        assert 'ALTER TABLE "SOE"."INVENTORIES" STORAGE (FLASH_CACHE NONE);' in words.ddl


def _sizes_and_tablespaces(data: bytes, name: str) -> tuple[bytes, list[str]]:
    """A DBA_SEGMENTS listing for every segment the report lists (1 to 7 GB), and its tablespaces."""
    collection = report_to_collection(parse_report(data, filename=name))
    keys = {(stat.key, stat.tablespace_name) for snap in collection.snapshots for stat in snap.segment_stats}
    out = io.StringIO()
    writer = csv.writer(out, quoting=csv.QUOTE_ALL)
    writer.writerow(["OWNER", "SEGMENT_NAME", "PARTITION_NAME", "SEGMENT_TYPE", "TABLESPACE_NAME", "BYTES", "BLOCKS",
                     "BUFFER_POOL", "FLASH_CACHE", "CELL_FLASH_CACHE", "OBJ_NUMBER", "DATAOBJ_NUMBER",
                     "LOB_TABLE_NAME", "LOB_COLUMN_NAME", "LOB_TABLE_PARTITION_NAME"])
    for key, tablespace in sorted(keys, key=str):
        size = (1 + sum(map(ord, key.object_name)) % 7) * GB
        writer.writerow([key.owner, key.object_name, key.subobject_name, key.object_type, tablespace or "USERS",
                         size, size // 8192, "DEFAULT", "DEFAULT", "DEFAULT", "", "", "", "", ""])
    return out.getvalue().encode(), sorted({tablespace or "USERS" for _, tablespace in keys})


@pytest.mark.django_db
@pytest.mark.parametrize("path", sample_paths(), ids=lambda path: path.name[:60])
def test_no_reason_on_a_real_report_contradicts_its_action_or_its_figures(
        path, seed_tiers, django_capture_on_commit_callbacks):
    data = sample_bytes(path.name)
    target = Target.objects.create(name="sample", mode=Target.Mode.REPORT, tier_set_id="seed-2009")
    sizes, tablespaces = _sizes_and_tablespaces(data, path.name)
    tiers = {tier.name: tier for tier in Tier.objects.filter(tier_set_id="seed-2009")}
    for number, tablespace in enumerate(tablespaces):  # every tier holds some tablespaces: moves go every way
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace,
                                      tier=tiers[SEED_TIERS[number % len(SEED_TIERS)]])

    with django_capture_on_commit_callbacks(execute=True):
        report_import(target=target, data=data, filename=path.name, sizes=sizes)
    rows = _explained(target)

    if path.name in WITHOUT_SEGMENTS:
        assert rows == [] or all(rec.action == "keep" for rec, _ in rows)
        return
    assert rows, "every report with segments yields recommendations"
    problems = [problem for rec, explanation in rows for problem in contradictions(rec, explanation)]
    assert problems == [], "\n".join(problems)
