"""bench/results/latest.json's figures against their goals as one PNG (matplotlib, no display needed): each
panel a figure and its goal line; a figure not measured is drawn as a labelled empty bar, never as 0."""

from __future__ import annotations

from pathlib import Path

#: (title, the figures of a report as {label: value}, goal, unit, higher is better)
PANELS = (
    ("pages p95", lambda r: dict(r.get("page_p95_ms") or {}), 150, "ms", False),
    ("healthz and load p95", lambda r: {"healthz": r.get("healthz_p95_ms"), "load (50 users)": r.get("load_p95_ms")},
     250, "ms", False),
    ("CSV export", lambda r: {"rows/s": r.get("export_rows_per_s")}, 50_000, "rows/s", True),
    ("collection overlap", lambda r: {"overlap": r.get("collect_overlap")},
     None, "x", True),
)


def panels(report: dict) -> list[tuple[str, dict, float | None, str]]:
    """The panels to draw: title, {label: value or None}, goal (the ideal overlap for the last), unit."""
    out = []
    for title, figures, goal, unit, _ in PANELS:
        if title == "collection overlap":
            goal = (report.get("collect") or {}).get("ideal")
        out.append((title, figures(report), goal, unit))
    return out


def draw(report: dict, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = panels(report)
    fig, axes = plt.subplots(1, len(chosen), figsize=(4.2 * len(chosen), 4.2))
    for ax, (title, figures, goal, unit) in zip(axes, chosen):
        labels = list(figures) or ["(none)"]
        values = [figures.get(label) for label in labels]
        heights = [v if v is not None else 0 for v in values]
        bars = ax.bar(range(len(labels)), heights, color=["#4c72b0" if v is not None else "#dddddd" for v in values])
        for bar, value in zip(bars, values):
            ax.annotate("not measured" if value is None else f"{value:,.4g}", (bar.get_x() + bar.get_width() / 2,
                        bar.get_height()), ha="center", va="bottom", fontsize=7)
        if goal is not None:
            ax.axhline(goal, color="#c44e52", linestyle="--", label=f"goal {goal:,} {unit}")
            ax.legend(fontsize=7, loc="upper right")
        ax.set_xticks(range(len(labels)), labels, rotation=35, ha="right", fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(unit, fontsize=8)
    fig.suptitle(f"make bench, {report.get('run_at', 'unknown date')} ({report.get('machine', '')})", fontsize=9)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
