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
# Where tasks go unless routed: a worker given its own queue (the tests' worker) keeps what it enqueues.
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_TASK_DEFAULT_QUEUE", "celery")
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
    "prune-old-snapshots": {
        "task": "apps.snapshots.tasks.snapshot_prune",
        "every_seconds": 6 * 3600,
    },
}
