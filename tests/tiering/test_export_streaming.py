"""The recommendations CSV streams: its first rows leave while the query's cursor is still open and unread
(not after PostgreSQL has written out the whole result, nor after every row is worded), and the memory it
holds does not grow with the number of rows."""

from __future__ import annotations

import gc
import io
import tracemalloc
from decimal import Decimal

import pytest
from django.db import connection
from django.utils import timezone

from apps.snapshots.models import Segment
from apps.targets.models import TablespaceTier, Target
from apps.tiering import export
from apps.tiering.export import HEADER, export_csv, export_csv_parts, export_rows
from apps.tiering.models import Recommendation, RecommendationRun, Tier
from apps.tiering.selectors import recommendation_list

KINDS = (("TABLE", ""), ("INDEX", ""), ("TABLE PARTITION", "P{:05d}"), ("INDEX PARTITION", "P{:05d}"),
         ("LOBSEGMENT", ""))


def _target(name: str, rows: int) -> Target:
    """``rows`` recommendations of every kind (tables, indexes, partitions of tables of 8, LOBs), moves and
    keeps, their tablespaces mapped so moves carry DDL."""
    now = timezone.now()
    target = Target.objects.create(name=name, mode=Target.Mode.DEMO, enabled=False, tier_set_id="seed-2009",
                                   capabilities={"release": "19.0.0.0.0", "block_size_bytes": 8192})
    tiers = {t.name: t for t in Tier.objects.filter(tier_set="seed-2009")}
    for tablespace, tier in (("DATA01", "fast disk"), ("HIST01", "hi-cap disk"), ("FLASH01", "flash")):
        TablespaceTier.objects.create(target=target, tablespace_name=tablespace, tier=tiers[tier])
    segments = []
    for i in range(rows):
        kind, sub = KINDS[i % len(KINDS)]
        table, partitioned = f"T{i:05d}", f"PT{i // 20:05d}"  # a partitioned table's partitions share its name
        segments.append(Segment(
            target=target, owner=f"APP{i % 3}", object_type=kind, subobject_name=sub.format(i),
            object_name={"INDEX": f"{table}_IX", "TABLE PARTITION": partitioned, "INDEX PARTITION": f"{partitioned}_IX",
                         "LOBSEGMENT": f"SYS_LOB{i:010d}C00002$$"}.get(kind, table),
            tablespace_name=("DATA01", "HIST01")[i % 2], partitioned_parent=table if kind == "LOBSEGMENT" else "",
            lob_column="BODY" if kind == "LOBSEGMENT" else "", size_bytes=(i % 40 + 1) * 2**27,
            first_seen_at=now, last_seen_at=now))
    segments = Segment.objects.bulk_create(segments)
    run = RecommendationRun.objects.create(target=target, computed_at=now, state=RecommendationRun.State.CURRENT,
                                           window_days=7, statistic="p95", recommendations=rows)
    Recommendation.objects.bulk_create([
        Recommendation(
            run=run, segment=seg, iops=1.5 + i, read_iops=1.0 + i, write_iops=0.5, size_bytes=seg.size_bytes,
            size_gb=seg.size_bytes / 2**30, intensity=(1.5 + i) / (seg.size_bytes / 2**30), read_requests=100 + i,
            write_requests=10, current_tier=tiers["fast disk"], cost_tier=tiers["hi-cap disk"],
            recommended_tier=tiers["hi-cap disk"] if i % 3 else tiers["fast disk"],
            cost_now_usd=Decimal("9.00"), cost_after_usd=Decimal("4.00"), savings_usd=Decimal(i % 7),
            move_cost_usd=Decimal("1.00"), payback_days=6.0, action="move" if i % 3 else "keep")
        for i, seg in enumerate(segments)
    ])
    return target


def _small_parts(monkeypatch) -> None:
    monkeypatch.setattr(export, "FIRST_ROWS", 10)
    monkeypatch.setattr(export, "CHUNK_ROWS", 25)
    monkeypatch.setattr(export, "FETCH_ROWS", 10)


@pytest.mark.django_db(transaction=True)
def test_the_first_rows_leave_while_the_query_s_cursor_is_still_streaming(seed_tiers, monkeypatch):
    _small_parts(monkeypatch)
    target = _target("streamed", 200)
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
    target = _target("abandoned", 60)
    parts = export_csv_parts(recommendation_list(target_id=target.id), target)
    next(parts), next(parts)
    assert connection.in_atomic_block

    parts.close()

    assert not connection.in_atomic_block


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
    _small_parts(monkeypatch)
    small, large = _target("small", 1000), _target("large", 4000)
    _peak_bytes(small), _peak_bytes(large)  # first use: imports, caches, compiled queries are not the rows'

    peak_small, peak_large = _peak_bytes(small), _peak_bytes(large)

    # Four times the rows, within half as much memory again: 3000 more rows held (their recommendations,
    # partitions, words or text) would be megabytes over the ~0.5 MB that one part of the export holds.
    assert peak_large < peak_small * 1.5, (peak_small, peak_large)


@pytest.mark.django_db
def test_the_streamed_csv_has_the_header_s_columns_and_one_row_a_recommendation(seed_tiers, monkeypatch):
    _small_parts(monkeypatch)
    target = _target("counted", 137)
    import csv

    rows = list(csv.reader(io.StringIO("".join(export_csv_parts(recommendation_list(target_id=target.id), target)))))

    assert tuple(rows[0]) == HEADER
    assert len(rows) == 1 + Recommendation.objects.current(target_id=target.id).counted().count()
    assert {len(row) for row in rows} == {len(HEADER)}


@pytest.mark.django_db
def test_the_json_parts_make_the_json_document_and_the_command_prints_it(seed_tiers, monkeypatch):
    from django.core.management import call_command

    from apps.tiering.export import export_json, export_json_parts

    _small_parts(monkeypatch)
    target = _target("json", 60)
    whole = export_json(export_rows(recommendation_list(target_id=target.id), target))

    parts = list(export_json_parts(recommendation_list(target_id=target.id), target))
    out = io.StringIO()
    call_command("recommend", "json", "--format", "json", stdout=out)

    assert len(parts) > 3 and "".join(parts) == whole
    assert out.getvalue() == whole + "\n"
    assert "".join(export_json_parts(recommendation_list(target_id=target.id).none(), target)) == export_json([])


def _rendered(name: str, rows: int) -> Target:
    from apps.tiering.export_store import export_render

    target = _target(name, rows)
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


def _peak_stored_bytes(target: Target) -> int:
    gc.collect()
    tracemalloc.start()
    try:
        for part in export_csv_parts(recommendation_list(target_id=target.id), target):
            del part
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.django_db
def test_the_memory_a_stored_export_holds_does_not_grow_with_its_rows(seed_tiers, monkeypatch):
    small, large = _rendered("small", 1000), _rendered("large", 4000)
    _small_parts(monkeypatch)
    _refuse_wording(monkeypatch)
    _peak_stored_bytes(small), _peak_stored_bytes(large)  # first use: imports, caches, compiled queries

    peak_small, peak_large = _peak_stored_bytes(small), _peak_stored_bytes(large)

    # Four times the rows within half as much memory again: 3000 more lines held would be 2 MB.
    assert peak_large < peak_small * 1.5, (peak_small, peak_large)
