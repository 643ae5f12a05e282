"""App tunables: one dict of defaults, overridden by settings.TIERSCOPE, which the settings fill from the
TIERSCOPE_<NAME> environment variables (:func:`tunables_from_env`)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from django.conf import settings

from config.env import env_like

CONFIG_DEFAULTS: dict[str, Any] = {
    # First collection of a live target reads this much AWR history (AWR keeps 8 days by default).
    "HISTORY_DAYS": 8,
    # Raw per-snapshot rows are kept this long; rollups and recommendations keep their own history.
    # 35 days covers a monthly window plus a margin for late imports.
    "RETENTION_DAYS": 35,
    # Recommendation window and statistic, as the design's defaults.
    "WINDOW_DAYS": 7,
    "STATISTIC": "p95",
    # Bounded retries for transient target errors (network, timeouts).
    "COLLECT_MAX_RETRIES": 3,
    "COLLECT_RETRY_BACKOFF_S": 30,
    # Deliveries of one run's task beyond its retries (a worker killed mid-run redelivers it) before it is failed.
    "RUN_MAX_REDELIVERIES": 3,
    # The reaper (snapshots.runs.runs_reap): a run marked running takes its target's lock within this grace;
    # no run lives past the task's hard time limit (CELERY_TASK_TIME_LIMIT, 20 min) plus a margin; a queued
    # run whose task never started (lost message, no worker) fails after an hour, past the broker's
    # visibility timeout (a message of a killed worker is redelivered by then).
    "RUN_START_GRACE_S": 30,
    "RUN_DEADLINE_S": 25 * 60,
    "RUN_QUEUED_DEADLINE_S": 60 * 60,
    # A refresh running longer than its task's hard limit (12 min, apps.tiering.tasks) plus a margin is dead.
    "REFRESH_DEADLINE_S": 15 * 60,
    # Waiting for an advisory lock (apps.core.locks): past this, the waiter fails with a message naming the
    # lock and its holder. The longest holder, a roll-up of a long back-fill, takes well under a minute
    # (docs/performance.md); under the tasks' soft time limit (15 min) so a stuck holder gives an error, not a kill.
    "LOCK_TIMEOUT_S": 5 * 60,
    # Oracle round-trip limit.
    "ORACLE_CALL_TIMEOUT_MS": 120_000,
    # Oracle connect limit: TCP connect (half of it), the listener's answer and the logon. A listener
    # that accepts and never answers fails after this, as a transient error.
    "ORACLE_CONNECT_TIMEOUT_S": 20,
    # All of one collection attempt's reading from Oracle, connect included; under the task's soft
    # time limit (CELERY_TASK_SOFT_TIME_LIMIT, 15 min) so the run fails with a message, not a kill.
    "COLLECT_RUN_TIMEOUT_S": 10 * 60,
    # All of one "test connection" (apps.targets.tasks.target_check), connect included.
    "TARGET_CHECK_TIMEOUT_S": 60,
    # Batch sizes. Whole snapshots per ingest transaction, up to this many segment-stat rows: fewer commits and
    # COPY round trips than one transaction per snapshot, and a killed worker still loses at most one batch,
    # never part of a snapshot (bench/run.py).
    "COLLECT_BATCH_ROWS": 50_000,
    # Snapshots (with their RAC instances) a roll-up reads at once: bounds its memory on a long history
    # (8 x 100k segments x 13 values).
    "ROLLUP_SNAPSHOTS_PER_READ": 8,
    # Recommendations from which a refresh writes its run on two connections at once (each COPY keeps one
    # PostgreSQL backend busy: two halve the time of 100k rows on two cores).
    "RECOMMENDATION_PARALLEL_ROWS": 20_000,
    # Rows per statement when the moves of an executed plan are recorded (apps.snapshots.moves).
    "MOVES_BATCH_ROWS": 1000,
    # Plan steps fetched per round trip when a plan is read whole (its script, its export).
    "PLAN_STEPS_FETCH_ROWS": 5000,
    # Segment-stat rows the fleet generator (manage.py generate_fleet) stores at once: bounds the memory of a
    # chunk of hours.
    "FLEET_CHUNK_ROWS": 250_000,
    # Upload bound for AWR reports and extracts.
    "MAX_UPLOAD_BYTES": 50 * 1024 * 1024,
    # Request bodies by role, refused from the headers before any is read (apps.core.middleware): an
    # anonymous client only posts the login form; a signed-in viewer only small forms.
    "ANONYMOUS_MAX_BODY_BYTES": 16 * 1024,
    "FORM_MAX_BODY_BYTES": 256 * 1024,
    # What the import page unpacks of an extract, all CSV files together: reading typed rows takes about
    # ten times their text in memory, and a web worker stays under 200 MB (tests/security/test_uploads.py).
    # manage.py import_extract reads up to the reader's own bound (MAX_EXTRACT_BYTES).
    "MAX_WEB_EXTRACT_BYTES": 12 * 1024 * 1024,
    # Before and after a move (apps.tiering.moves.verdicts): the windows' default length; a verdict needs the
    # after-window to hold at least this many snapshots and this share of the before-window's (a day of
    # hourly snapshots; a quarter of a week's); a cost up to this share above the predicted one is "as
    # predicted"; IO requests/s changed by more than this factor between the windows confounds them.
    "BEFORE_AFTER_DAYS": 7,
    "VERDICT_MIN_SNAPSHOTS": 24,
    "VERDICT_MIN_SHARE": 0.25,
    "VERDICT_COST_TOLERANCE": 0.10,
    "VERDICT_LOAD_FACTOR": 2.0,
    # Alerts (apps.alerts, docs/alerts.md): a message not delivered is retried this often, the wait doubling
    # from the backoff; past this many messages of one rule in an hour, the changes of a pass go as one digest.
    "ALERT_SEND_MAX_RETRIES": 5,
    "ALERT_SEND_BACKOFF_S": 30,
    "ALERT_MAX_PER_HOUR": 10,
}


@lru_cache(maxsize=1)
def get_config() -> dict[str, Any]:
    """The defaults, then settings.TIERSCOPE (the ``TIERSCOPE_<NAME>`` environment variables among them)."""
    return {**CONFIG_DEFAULTS, **getattr(settings, "TIERSCOPE", {})}


def tunables_from_env(environ: Mapping[str, str]) -> dict[str, Any]:
    """The tunables ``environ`` sets as ``TIERSCOPE_<NAME>``, each read as its default's type; a bad value
    raises ImproperlyConfigured naming the variable (config/settings/base.py calls this at start-up)."""
    return {name: env_like(f"TIERSCOPE_{name}", default, environ)
            for name, default in CONFIG_DEFAULTS.items() if environ.get(f"TIERSCOPE_{name}", "") != ""}
