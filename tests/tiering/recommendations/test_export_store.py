"""A run's export rendered once and stored (apps.tiering.recommendations.export_store) streams the bytes that wording every row at
the download gives, CSV and JSON, over the demo's rows (partitions, LOB-folded rows, unmeasured rows, cells a
spreadsheet would evaluate), filtered or not; and stored lines that no longer hold (a tier's price, a segment's
tablespace changed since) are not used."""

from __future__ import annotations

import csv
import io

import pytest
from django.db.models import F

from apps.snapshots.models import Segment
from apps.targets.models import Target
from apps.tiering.models import ExportLine, ExportRender, Recommendation, RecommendationRun, Tier
from apps.tiering.recommendations import export, export_store
from apps.tiering.recommendations.export import (
    export_csv,
    export_csv_parts,
    export_json,
    export_json_parts,
    export_rows,
)
from apps.tiering.recommendations.export_store import export_render
from apps.tiering.recommendations.selectors import recommendation_list
from apps.tiering.rules import FINDING_CODES
from apps.tiering.tasks import export_lines_render
from tests.base import demo_collected_id, rows_for_module
from tests.tiering.recommendations.export_targets import export_target


def _recs(target, **filters):
    return recommendation_list(target_id=target.id).filter(**filters)


def _worded(monkeypatch, target, parts=export_csv_parts, **filters) -> str:
    """The export with every row worded at the download (no stored line used)."""
    with monkeypatch.context() as patch:
        patch.setattr(export_store, "stored_runs", lambda run_ids, target: set())
        return "".join(parts(_recs(target, **filters), target))


def _stored(monkeypatch, target, parts=export_csv_parts, **filters) -> str:
    """The export read from stored lines only: wording a row here fails the test."""
    def refuse(*args, **kwargs):
        raise AssertionError("a row was worded at the download although its stored line holds")

    with monkeypatch.context() as patch:
        patch.setattr(export, "explain", refuse)
        return "".join(parts(_recs(target, **filters), target))


def _current_run(target) -> RecommendationRun:
    return RecommendationRun.objects.get(target=target, state=RecommendationRun.State.CURRENT)


def _rendered_demo_id() -> int:
    """The demo collected (its refresh queues the rendering: eager here), with a segment named as a formula, one
    whose owner starts with a formula trigger, and unmeasured rows, rendered again after those changes."""
    demo_id = demo_collected_id()
    run = _current_run(demo_id)
    assert ExportRender.objects.filter(run=run).exists()  # rendered after the refresh
    rows = Recommendation.objects.filter(run=run).order_by("segment_id")
    first, second = rows[0].segment_id, rows[1].segment_id
    Segment.objects.filter(pk=first).update(object_name='=HYPERLINK("http://x","y")')
    Segment.objects.filter(pk=second).update(owner="-SCOTT", tablespace_name="@TS")
    unmeasured = 1 << FINDING_CODES.index("unmeasured")
    Recommendation.objects.filter(run=run, segment_id__in=[r.segment_id for r in rows[2:6]]).update(
        measured=False, read_iops=None, iops=None, iops_bound=12.5, findings=F("findings").bitor(unmeasured))
    export_render(run_id=run.id)  # the changed segments' lines are stale: the rendering words them again
    return demo_id


rendered_demo_id = rows_for_module(_rendered_demo_id)


@pytest.fixture
def rendered_demo(rendered_demo_id, db):
    return Target.objects.select_related("tier_set").get(pk=rendered_demo_id)  # as a download reads it


@pytest.mark.django_db
def test_the_stored_csv_is_the_worded_csv_byte_for_byte_over_the_demo_s_rows(rendered_demo, monkeypatch):
    stored = _stored(monkeypatch, rendered_demo)
    worded = _worded(monkeypatch, rendered_demo)
    assert stored == worded
    assert worded == export_csv(export_rows(_recs(rendered_demo), rendered_demo))
    # What the comparison covers: partitions, a LOB's folded index, moves with DDL, neutralised cells, unmeasured.
    assert "PARTITION" in stored and "SYS_IL" in stored and "ALTER " in stored
    assert "'=HYPERLINK" in stored and ",'-SCOTT," in stored and ",'@TS," in stored
    assert ",false," in stored


@pytest.mark.django_db
def test_the_stored_json_is_the_worded_json_byte_for_byte(rendered_demo, monkeypatch):
    stored = _stored(monkeypatch, rendered_demo, export_json_parts)
    assert stored == _worded(monkeypatch, rendered_demo, export_json_parts)
    assert stored == export_json(export_rows(_recs(rendered_demo), rendered_demo))
    assert '"measured": false' in stored and '"iops": null' in stored


@pytest.mark.django_db
def test_a_filtered_export_reads_the_stored_lines_of_its_rows_only(rendered_demo, monkeypatch):
    stored = _stored(monkeypatch, rendered_demo, action="move")
    assert stored == _worded(monkeypatch, rendered_demo, action="move")
    assert stored.count("\r\n") < _stored(monkeypatch, rendered_demo).count("\r\n")


@pytest.mark.django_db
def test_a_segment_changed_since_the_rendering_is_worded_again_with_its_new_tablespace(rendered_demo, monkeypatch):
    run = _current_run(rendered_demo)
    segment = Segment.objects.get(pk=Recommendation.objects.filter(run=run).order_by("segment_id")[3].segment_id)
    before = _stored(monkeypatch, rendered_demo)
    Segment.objects.filter(pk=segment.pk).update(tablespace_name="MOVED_TS")
    after = "".join(export_csv_parts(_recs(rendered_demo), rendered_demo))
    assert "MOVED_TS" not in before and "MOVED_TS" in after
    assert after == _worded(monkeypatch, rendered_demo)
    export_render(run_id=run.id)  # the task a download queues: the changed line is stored again
    assert _stored(monkeypatch, rendered_demo) == after


@pytest.mark.django_db
def test_a_price_changed_since_the_rendering_words_every_row_again(rendered_demo, monkeypatch):
    run = _current_run(rendered_demo)
    before = _stored(monkeypatch, rendered_demo)
    Tier.objects.filter(tier_set=rendered_demo.tier_set_id).update(device_cost_usd=F("device_cost_usd") * 2)
    assert export_store.stored_runs([run.id], rendered_demo) == set()
    after = "".join(export_csv_parts(_recs(rendered_demo), rendered_demo))
    assert after == _worded(monkeypatch, rendered_demo)
    rendered_at = ExportRender.objects.get(run=run).rendered_at
    export_render(run_id=run.id)
    assert ExportRender.objects.get(run=run).rendered_at > rendered_at
    assert _stored(monkeypatch, rendered_demo) == after
    assert before  # rendered before the change, from the old prices


@pytest.mark.django_db
def test_rendering_a_run_whose_lines_hold_writes_nothing(rendered_demo):
    run = _current_run(rendered_demo)
    render = ExportRender.objects.get(run=run)
    assert export_lines_render(run.id) == render.rows == Recommendation.objects.filter(run=run).count()
    assert ExportRender.objects.get(run=run).rendered_at == render.rendered_at
    assert ExportLine.objects.filter(run=run).count() == render.rows


@pytest.mark.django_db
def test_rendering_a_run_pruned_since_it_was_queued_is_nothing_to_do(db):
    assert export_lines_render(987654321) is None


def test_the_stored_json_separator_never_appears_in_json_text():
    import json

    assert export_store.JSON_SEPARATOR not in json.dumps("a\x1fb") + json.dumps("\x1f")


def _tied(target) -> Target:
    """``target``'s rows made to tie on the export's order but for the segment: one owner, one saving, each index
    named as a table (Oracle keeps tables and indexes apart), then rendered."""
    run = _current_run(target)
    Recommendation.objects.filter(run=run).update(savings_usd=1)
    segments = Segment.objects.filter(target=target)
    segments.update(owner="APP")
    tables = list(segments.filter(object_type="TABLE").order_by("id").values_list("object_name", flat=True))
    for index_id, name in zip(segments.filter(object_type="INDEX").order_by("-id").values_list("id", flat=True),
                              tables):
        Segment.objects.filter(pk=index_id).update(object_name=name)
    export_render(run_id=run.id)
    return Target.objects.select_related("tier_set").get(pk=target.pk)


@pytest.mark.django_db
def test_rows_tied_on_the_export_s_order_come_by_segment_stored_or_worded(seed_tiers, monkeypatch):
    target = _tied(export_target("tied", 60))
    stored = _stored(monkeypatch, target)

    assert stored == _worded(monkeypatch, target)
    ids = dict(((name, kind), pk) for pk, name, kind in Segment.objects.filter(target=target).values_list(
        "id", "object_name", "object_type"))
    order: dict[str, list[int]] = {}
    for row in list(csv.reader(io.StringIO(stored)))[1:]:
        order.setdefault(row[2], []).append(ids[row[2], row[4]])
    pairs = [found for found in order.values() if len(found) == 2]
    assert len(pairs) >= 10 and all(first < second for first, second in pairs)
    assert any(ids[name, "TABLE"] > ids[name, "INDEX"] for name, found in order.items() if len(found) == 2)


@pytest.mark.django_db
def test_an_export_of_two_runs_rows_is_read_by_key_and_worded_where_one_has_no_stored_lines(rendered_demo):
    from apps.tiering.recommendations.export_read import export_order, runs_of

    run = _current_run(rendered_demo)
    earlier = RecommendationRun.objects.create(target=rendered_demo, computed_at=run.computed_at, window_days=7,
                                               statistic="p95", state=RecommendationRun.State.HISTORY)
    copies = list(Recommendation.objects.filter(run=run)[:5])
    for rec in copies:
        rec.run = earlier
    Recommendation.objects.bulk_create(copies)
    recs = Recommendation.objects.filter(run__target=rendered_demo, folded_into__isnull=True).order_by(*export_order())

    assert sorted(runs_of(recs)) == sorted([run.id, earlier.id])
    assert runs_of(_recs(rendered_demo)) == [run.id]
    assert "".join(export_csv_parts(recs, rendered_demo)) == export_csv(export_rows(recs, rendered_demo))
