"""Celery settings and the periodic schedule, in one place."""

from __future__ import annotations

from config.env import env_int, env_str

CELERY_BROKER_URL = env_str("REDIS_URL")
CELERY_RESULT_BACKEND = env_str("REDIS_URL")
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = "UTC"
CELERY_ENABLE_UTC = True
# Global limits: a collection that hangs on a target must not hold a worker forever.
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 15 * 60)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 20 * 60)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# A message taken by a worker that dies before acknowledging it (acks_late tasks) goes back to the queue
# after this long; it must outlast the longest run (the hard limit above), or a run still going would be
# delivered twice. The dead run itself is failed sooner by the reaper (apps.snapshots.runs.runs_reap).
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": CELERY_TASK_TIME_LIMIT + 5 * 60,
    # A broker that does not answer fails a send at once, not after kombu's retries: "collect now" says so
    # and records the run as failed; the reapers queue what could not be sent once the broker is back.
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.5,
    "socket_connect_timeout": 3,
    "socket_timeout": 10,
}
# The worker's own connection to the broker is retried for ever: a Redis outage of any length ends with
# the worker consuming again (supervisord restarts it too, should it exit).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"socket_connect_timeout": 3, "socket_timeout": 10}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 3
CELERY_REDIS_SOCKET_TIMEOUT = 10
# Where tasks go unless routed: a worker given its own queue (the tests' worker) keeps what it enqueues.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
# A target's collections, checks and refreshes go to its group's queue (Target.collect_queue; docs/scaling.md).
CELERY_TASK_ROUTES = ["apps.core.routing.route_task"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_RESULT_EXPIRES = 24 * 3600
# Outlives PostgreSQL outages (the stock DatabaseScheduler exits on one) and writes beat's heartbeat.
CELERY_BEAT_SCHEDULER = "apps.core.beat:ResilientDatabaseScheduler"
# Heartbeats of the worker and beat in Redis; /healthz answers 503 when one is older than the stale age.
TIERSCOPE_HEARTBEAT_EVERY_S = env_int("TIERSCOPE_HEARTBEAT_EVERY_S", 10)
TIERSCOPE_HEARTBEAT_STALE_S = env_int("TIERSCOPE_HEARTBEAT_STALE_S", 90)
# Beat re-reads every periodic task this often besides on changes (django-celery-beat: 5 minutes).
TIERSCOPE_BEAT_RESYNC_S = env_int("TIERSCOPE_BEAT_RESYNC_S", 300)

# The one periodic entry: a fan-out that enqueues a collection for each enabled
# target whose own interval has elapsed. Per-target intervals live on Target
# (edited in the admin) and are read at each tick, so changing one needs no
# beat restart. setup_periodic_tasks writes this into django-celery-beat.
TIERSCOPE_BEAT_SCHEDULE = {
    "collect-due-targets": {
        "task": "apps.snapshots.tasks.snapshot_collect_due",
        "every_seconds": 60,
    },
    # Fails runs left "running" by a dead worker or "queued" with a lost task, and makes their targets due.
    "reap-stuck-runs": {
        "task": "apps.snapshots.tasks.runs_reap",
        "every_seconds": 60,
    },
    # Fails refreshes a dead worker left behind; queues the refresh a run never got (broker down at its end).
    "reap-stuck-refreshes": {
        "task": "apps.tiering.tasks.refreshes_reap",
        "every_seconds": 60,
    },
    # Fails "test connection" checks left running by a dead worker or never started.
    "reap-stuck-checks": {
        "task": "apps.targets.tasks.target_checks_reap",
        "every_seconds": 60,
    },
    # Sends again the purge of a target whose delete was asked for and is not done (its worker died, the broker
    # was down): apps.targets.deletion.
    "resume-target-deletions": {
        "task": "apps.targets.tasks.target_purges_resume",
        "every_seconds": 300,
    },
    # Creates the segment-stat partitions of today and the next days (apps.snapshots.partitions).
    "segment-stat-partitions-ahead": {
        "task": "apps.snapshots.tasks.partitions_ahead",
        "every_seconds": 6 * 3600,
    },
    # Alerts (docs/alerts.md): targets failing or not collecting, a stale worker or beat; runs and refreshes
    # also evaluate their own target at once.
    "evaluate-alerts": {
        "task": "apps.alerts.tasks.alerts_evaluate",
        "every_seconds": 60,
    },
    "prune-old-snapshots": {
        "task": "apps.snapshots.tasks.snapshot_prune",
        "every_seconds": 6 * 3600,
    },
}
