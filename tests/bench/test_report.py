from __future__ import annotations

import json

import pytest

from bench.chart import panels
from bench.report import BEGIN, END, doc_with_table, render_table, write_report

REPORT = {
    "machine": "x86_64, 2 cores, Python 3.11.7", "run_at": "2026-11-26T22:00:00+00:00", "bench_scale": 0.02,
    "rows": 1_234_567, "ingest_vs_copy": 0.894, "page_p95_ms": {"fleet": 41.5, "target": 120.0},
    "healthz_p95_ms": 1.3, "recommend_100k_seconds": 0.773, "export_rows_per_s": 61_000,
    "export_first_byte_ms": 12.0, "load_p95_ms": None, "load_errors": None, "collect_overlap": 7.6,
    "collect": {"ideal": 8}, "pg_bytes_per_million_rows": 98_000_000, "retention_drop_seconds": 0.41,
}


def test_the_table_has_a_row_per_key_and_page_with_the_run_s_machine_date_and_command():
    table = render_table(REPORT)
    assert "2026-11-26T22:00:00+00:00 on x86_64, 2 cores" in table and "`make bench`" in table
    assert "| rows | 1,234,567 |" in table
    assert "| page_p95_ms[fleet] | 41.5 ms | <= 150 ms |" in table
    assert "| page_p95_ms[target] | 120 ms |" in table
    assert "| collect_overlap | 7.6 | ideal 8 |" in table


def test_a_figure_not_measured_is_shown_as_not_measured_never_as_zero():
    table = render_table({**REPORT, "export_rows_per_s": None})
    assert "| load_p95_ms | not measured |" in table
    assert "| load_errors | not measured |" in table
    assert "| export_rows_per_s | not measured |" in table
    figures = [line.split("|")[2].strip() for line in table.splitlines() if line.startswith("| ")]
    assert "0" not in figures


def test_the_doc_s_block_is_replaced_and_the_rest_kept():
    doc = f"# Performance\n\nintro\n\n{BEGIN}\nold table\n{END}\n\nafter\n"
    out = doc_with_table(doc, REPORT, "bench/latest.png")
    assert "old table" not in out and out.startswith("# Performance\n\nintro\n\n") and out.endswith("\n\nafter\n")
    assert "![bench figures against their goals](bench/latest.png)" in out
    assert doc_with_table(out, REPORT, "bench/latest.png") == out  # rewriting the same run changes nothing


def test_a_doc_without_the_block_is_refused_naming_the_markers():
    with pytest.raises(ValueError, match="bench-results:begin"):
        doc_with_table("# Performance\n", REPORT, "bench/latest.png")


def test_the_chart_s_panels_carry_unmeasured_figures_as_none_and_the_ideal_overlap_as_goal():
    by_title = {title: (figures, goal) for title, figures, goal, _ in panels(REPORT)}
    assert by_title["pages p95"] == ({"fleet": 41.5, "target": 120.0}, 150)
    assert by_title["healthz and load p95"][0] == {"healthz": 1.3, "load (50 users)": None}
    assert by_title["collection overlap"] == ({"overlap": 7.6}, 8)


def test_the_report_writes_the_doc_and_a_png_from_latest_json(tmp_path):
    pytest.importorskip("matplotlib")
    latest = tmp_path / "latest.json"
    latest.write_text(json.dumps(REPORT))
    doc = tmp_path / "performance.md"
    doc.write_text(f"# Performance\n{BEGIN}\n{END}\n")
    write_report(latest, doc, tmp_path / "bench" / "latest.png")
    assert (tmp_path / "bench" / "latest.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "| rows | 1,234,567 |" in doc.read_text()
