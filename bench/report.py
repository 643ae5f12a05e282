"""docs/performance.md's table of bench/results/latest.json's summary keys, written from the file so the doc never
drifts from the run: the machine, the date, the command, each key with its goal, and the chart
(bench/chart.py). Unknown figures stay "not measured", never 0.

    .venv/bin/python bench/report.py [bench/results/latest.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "performance.md"
CHART = ROOT / "docs" / "bench" / "latest.png"
BEGIN, END = "<!-- bench-results:begin -->", "<!-- bench-results:end -->"

#: key -> (what it is, its goal as text, or "")
KEYS: dict[str, tuple[str, str]] = {
    "rows": ("segment-stat rows in the bench database (fleet + 100k target)", ">= 30M at BENCH_SCALE=1"),
    "ingest_vs_copy": ("collection path's speed as a share of a raw COPY of the same rows", "close to 1"),
    "page_p95_ms": ("p95 server time per page (largest target; fleet page over the whole fleet)", "<= 150 ms"),
    "healthz_p95_ms": ("p95 server time of /healthz", ""),
    "recommend_100k_seconds": ("median refresh of the 100k-segment target at the day's worst hour", ""),
    "export_rows_per_s": ("recommendations CSV export, rows per second", ">= 50,000"),
    "export_first_byte_ms": ("recommendations CSV export, time to its first rows", ""),
    "load_p95_ms": ("p95 over HTTP with 50 locust users (1 s think time)", "<= 250 ms"),
    "load_errors": ("failed requests in that load test", "0"),
    "collect_overlap": ("simulated Oracle wait time / wall time, 200 demo targets on 2 workers", "= total concurrency"),
    "pg_bytes_per_million_rows": ("PostgreSQL bytes per million segment-stat rows", ""),
    "retention_drop_seconds": ("time to drop a day that falls out of retention", ""),
}


def _figure(value) -> str:
    if value is None:
        return "not measured"
    if isinstance(value, float):
        return f"{value:,.3f}".rstrip("0").rstrip(".") if value < 100 else f"{value:,.0f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


def render_table(report: dict) -> str:
    """The markdown block of a latest.json: run facts, then one row per key (a page per row for page_p95_ms)."""
    lines = [
        f"Run: {report.get('run_at', 'unknown date')} on {report.get('machine', 'an unknown machine')}, "
        f"BENCH_SCALE={report.get('bench_scale', 'unknown')}, command `{report.get('command', 'make bench')}`.",
        "",
        "| key | figure | goal | what |",
        "|---|---|---|---|",
    ]
    for key, (what, goal) in KEYS.items():
        value = report.get(key)
        if key == "page_p95_ms" and isinstance(value, dict) and value:
            for page, ms in value.items():
                lines.append(f"| page_p95_ms[{page}] | {_figure(ms)} ms | {goal} | {what} |")
            continue
        if key == "collect_overlap" and value is not None:
            ideal = (report.get("collect") or {}).get("ideal")
            goal = f"ideal {ideal}" if ideal is not None else goal
        lines.append(f"| {key} | {_figure(value if not isinstance(value, dict) else None)} | {goal} | {what} |")
    return "\n".join(lines)


def doc_with_table(doc: str, report: dict, chart_name: str) -> str:
    """``doc`` with the block between the markers replaced; a doc without the markers is refused."""
    if BEGIN not in doc or END not in doc:
        raise ValueError(f"bench/report.py: {DOC.name} has no {BEGIN} ... {END} block to fill")
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    block = f"{BEGIN}\n{render_table(report)}\n\n![bench figures against their goals]({chart_name})\n{END}"
    return head + block + tail


def write_report(latest: Path, doc: Path = DOC, chart: Path = CHART) -> str:
    from bench.chart import draw

    report = json.loads(latest.read_text())
    draw(report, chart)
    doc.write_text(doc_with_table(doc.read_text(), report, str(chart.relative_to(doc.parent))))
    return f"wrote {doc.name} and {chart.name}"


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(write_report(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "bench" / "results" / "latest.json"))
