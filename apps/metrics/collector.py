"""The Prometheus collector: every figure read from PostgreSQL (and Redis) at scrape time, never from a target.

A new collector is built per scrape (apps.metrics.views), so no web process holds figures of its own: any
gunicorn worker answers the same. A figure that is not known (no successful run yet, costs not computed, the
flash cache not measured, a heartbeat never written) is left out, never exported as 0.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal

from django.conf import settings
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from apps.core.heartbeat import PROCESSES, heartbeat_read
from apps.dashboard.fleet.selectors import FleetRow, fleet_overview
from apps.metrics.queues import queue_depths
from apps.snapshots.run_selectors import RunFigures, run_figures

PREFIX = "tierscope"


def _gauge(name: str, documentation: str, labels: list[str], unit: str = "") -> GaugeMetricFamily:
    return GaugeMetricFamily(f"{PREFIX}_{name}", documentation, labels=labels, unit=unit)


class TierscopeCollector(Collector):
    """Per target, per process and per queue figures (docs/prometheus.md lists them with their units)."""

    def collect(self) -> Iterator[Metric]:
        rows = fleet_overview()
        runs = run_figures()
        yield from self.target_runs(rows, runs)
        yield from self.target_costs(rows)
        yield from self.processes()
        yield from self.queues(rows)

    def target_runs(self, rows: list[FleetRow], runs: dict[int, RunFigures]) -> Iterator[Metric]:
        last_success = _gauge("target_last_success_timestamp_seconds",
                              "When the target's last successful collection finished (Unix time)", ["target"])
        failures = _gauge("target_consecutive_failures",
                          "Failed collections of the target since its last successful one", ["target"])
        total = CounterMetricFamily(f"{PREFIX}_target_runs", "Collections and imports of the target by outcome",
                                    labels=["target", "outcome"])
        for row in rows:
            figures = runs.get(row.target.id)
            if figures is None:  # the target was made between the two reads
                continue
            name = row.target.name
            if figures.last_success_at is not None:
                last_success.add_metric([name], figures.last_success_at.timestamp())
            failures.add_metric([name], figures.consecutive_failures)
            for outcome, count in sorted(figures.runs_by_status.items()):
                total.add_metric([name, outcome], count)
        yield from (last_success, failures, total)

    def target_costs(self, rows: list[FleetRow]) -> Iterator[Metric]:
        segments = _gauge("target_segments", "Segments stored for the target", ["target"])
        cost = _gauge("target_cost_usd_per_month",
                      "Monthly cost of the target's segments on their tiers, now or after the recommended moves "
                      "(a lower bound where segments are unpriced or not measured)", ["target", "placement"])
        saving = _gauge("target_saving_usd_per_month", "Monthly saving of the recommended moves", ["target"])
        moves = _gauge("target_moves", "Moves worth making in the target's current recommendations", ["target"])
        ratio = _gauge("target_flash_cache_hit_ratio",
                       "Flash-cache hits per physical read request over the recommendation window (0..1)",
                       ["target"])
        unmeasured = _gauge("target_unmeasured_segments",
                            "Segments whose IO was not all measured (their costs are lower bounds)", ["target"])
        for row in rows:
            name = row.target.name
            segments.add_metric([name], row.segments)
            for placement, amount in (("now", row.cost_now_usd_per_month),
                                      ("recommended", row.cost_after_usd_per_month)):
                _add_money(cost, [name, placement], amount)
            _add_money(saving, [name], row.savings_usd_per_month)
            if row.moves is not None:  # current recommendations exist: their counts are known
                moves.add_metric([name], row.moves)
                unmeasured.add_metric([name], row.unmeasured)
            if row.flash_hit_ratio is not None:
                ratio.add_metric([name], row.flash_hit_ratio)
        yield from (segments, cost, saving, moves, ratio, unmeasured)

    def processes(self) -> Iterator[Metric]:
        age = _gauge("process_heartbeat_age_seconds",
                     "Seconds since the worker or beat last wrote its heartbeat (absent: none written)", ["process"])
        for process in PROCESSES:
            beat = heartbeat_read(process=process, stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
            if beat.age_s is not None:
                age.add_metric([process], beat.age_s)
        yield age

    def queues(self, rows: list[FleetRow]) -> Iterator[Metric]:
        depth = _gauge("queue_messages", "Tasks waiting in the Celery queue (Redis LLEN)", ["queue"])
        for queue, length in sorted(queue_depths(queues={row.target.collect_queue for row in rows}).items()):
            if length is not None:
                depth.add_metric([queue], length)
        yield depth


def _add_money(family: GaugeMetricFamily, labels: list[str], amount: Decimal | None) -> None:
    if amount is not None:
        family.add_metric(labels, float(amount))
