"""The recommendations CSV streams: its first rows leave while the query's cursor is still open and unread
(not after PostgreSQL has written out the whole result, nor after every row is worded), and the memory it
holds does not grow with the number of rows."""

from __future__ import annotations

import gc
import io
import tracemalloc

import pytest
from django.db import connection

from apps.targets.models import Target
from apps.tiering.models import Recommendation, RecommendationRun
from apps.tiering.recommendations import export
from apps.tiering.recommendations.export import HEADER, export_csv, export_csv_parts, export_rows
from apps.tiering.recommendations.selectors import recommendation_list
from tests.tiering.recommendations.export_targets import export_target


def _small_parts(monkeypatch) -> None:
    monkeypatch.setattr(export, "FIRST_ROWS", 10)
    monkeypatch.setattr(export, "CHUNK_ROWS", 25)
    monkeypatch.setattr(export, "FETCH_ROWS", 10)


@pytest.mark.django_db(transaction=True)
def test_the_first_rows_leave_while_the_query_s_cursor_is_still_streaming(seed_tiers, monkeypatch):
    _small_parts(monkeypatch)
    target = export_target("streamed", 200)
    parts = export_csv_parts(recommendation_list(target_id=target.id), target)

    header, first = next(parts), next(parts)

    assert header == export_csv([])
    assert first.count("\n") >= 10 and first.startswith("streamed,")
    with connection.cursor() as cursor:  # on the export's connection, inside its transaction
        cursor.execute("SELECT is_holdable FROM pg_cursors WHERE name LIKE '_django_curs_%%'")
        cursors = cursor.fetchall()
    assert cursors == [(False,)]  # open, and not WITH HOLD: PostgreSQL has not written out the whole result
    rest = "".join(parts)
    assert header + first + rest == export_csv(export_rows(recommendation_list(target_id=target.id), target))


@pytest.mark.django_db(transaction=True)
def test_an_abandoned_download_ends_its_transaction(seed_tiers, monkeypatch):
    _small_parts(monkeypatch)
    target = export_target("abandoned", 60)
    parts = export_csv_parts(recommendation_list(target_id=target.id), target)
    next(parts), next(parts)
    assert connection.in_atomic_block

    parts.close()

    assert not connection.in_atomic_block


def _exported(target: Target) -> None:
    for part in export_csv_parts(recommendation_list(target_id=target.id), target):
        del part


def _peak_bytes(target: Target) -> int:
    recs = recommendation_list(target_id=target.id)
    gc.collect()
    tracemalloc.start()
    try:
        for part in export_csv_parts(recs, target):
            del part
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db
def test_the_memory_the_export_holds_does_not_grow_with_its_rows(seed_tiers, monkeypatch):
    # Parts far smaller than either export, yet few of them (each part reads its rows' partitions): the test
    # stays quick on a test database whose statistics the rest of the suite has left behind.
    monkeypatch.setattr(export, "FIRST_ROWS", 50)
    monkeypatch.setattr(export, "CHUNK_ROWS", 250)
    monkeypatch.setattr(export, "FETCH_ROWS", 100)
    small, large = export_target("small", 500), export_target("large", 2000)
    _exported(small), _exported(large)  # first use, untraced: imports, caches, compiled queries are not the rows'

    peak_small, peak_large = _peak_bytes(small), _peak_bytes(large)

    # Four times the rows, within half as much memory again: 1500 more rows held (their recommendations,
    # partitions, words or text) would be megabytes over the ~0.5 MB that one part of the export holds.
    assert peak_large < peak_small * 1.5, (peak_small, peak_large)


@pytest.mark.django_db
def test_the_streamed_csv_has_the_header_s_columns_and_one_row_a_recommendation(seed_tiers, monkeypatch):
    _small_parts(monkeypatch)
    target = export_target("counted", 137)
    import csv

    rows = list(csv.reader(io.StringIO("".join(export_csv_parts(recommendation_list(target_id=target.id), target)))))

    assert tuple(rows[0]) == HEADER
    assert len(rows) == 1 + Recommendation.objects.current(target_id=target.id).counted().count()
    assert {len(row) for row in rows} == {len(HEADER)}


@pytest.mark.django_db
def test_the_json_parts_make_the_json_document_and_the_command_prints_it(seed_tiers, monkeypatch):
    from django.core.management import call_command

    from apps.tiering.recommendations.export import export_json, export_json_parts

    _small_parts(monkeypatch)
    target = export_target("json", 60)
    whole = export_json(export_rows(recommendation_list(target_id=target.id), target))

    parts = list(export_json_parts(recommendation_list(target_id=target.id), target))
    out = io.StringIO()
    call_command("recommend", "json", "--format", "json", stdout=out)

    assert len(parts) > 3 and "".join(parts) == whole
    assert out.getvalue() == whole + "\n"
    assert "".join(export_json_parts(recommendation_list(target_id=target.id).none(), target)) == export_json([])


def _rendered(name: str, rows: int) -> Target:
    from apps.tiering.recommendations.export_store import export_render

    target = export_target(name, rows)
    export_render(run_id=RecommendationRun.objects.get(target=target).id)
    return Target.objects.select_related("tier_set").get(pk=target.pk)


def _refuse_wording(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("a row was worded at the download although its stored line holds")

    monkeypatch.setattr(export, "explain", refuse)


@pytest.mark.django_db(transaction=True)
def test_stored_lines_leave_in_order_from_one_open_cursor_in_one_snapshot_without_jit(seed_tiers, monkeypatch):
    target = _rendered("stored", 200)  # rendered in the export's own parts: small ones make it slow
    _small_parts(monkeypatch)
    whole = export_csv(export_rows(recommendation_list(target_id=target.id), target))
    _refuse_wording(monkeypatch)
    parts = export_csv_parts(recommendation_list(target_id=target.id), target)

    header, first = next(parts), next(parts)

    assert first.count("\r\n") == 10 and whole.startswith(header + first)
    with connection.cursor() as cursor:  # on the export's connection, inside its transaction
        cursor.execute("SELECT is_holdable, statement LIKE '%%tiering_exportline%%' FROM pg_cursors")
        cursors = cursor.fetchall()
        cursor.execute("SELECT current_setting('transaction_isolation'), current_setting('jit')")
        settings = cursor.fetchone()
    assert cursors == [(False, True)]  # the stored lines' query, open and not written out whole
    assert settings == ("repeatable read", "off")
    assert header + first + "".join(parts) == whole


@pytest.mark.django_db
def test_the_memory_a_stored_export_holds_does_not_grow_with_its_rows(seed_tiers, monkeypatch):
    small, large = _rendered("small", 500), _rendered("large", 2000)
    _small_parts(monkeypatch)
    _refuse_wording(monkeypatch)
    _exported(small), _exported(large)  # first use, untraced: imports, caches, compiled queries

    peak_small, peak_large = _peak_bytes(small), _peak_bytes(large)

    # Four times the rows within half as much memory again: 1500 more lines held would be 1 MB.
    assert peak_large < peak_small * 1.5, (peak_small, peak_large)
