"""Heartbeats of the worker and beat in Redis, read by /healthz; a worker also writes one per queue it consumes.

Each process writes the UTC time of its last sign of life under a key scoped by
the database name, so a test worker on the shared Redis never speaks for the
stack of the same machine. The worker writes from its own timer (a bootstep:
one per worker node, on the loop that also consumes tasks), beat from its
scheduler tick (apps/core/beat.py).
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

import redis
from celery import bootsteps
from django.conf import settings

logger = logging.getLogger(__name__)

PROCESSES = ("worker", "beat")
# A heartbeat key outlives a dead process long enough for /healthz to report its age, then goes.
KEY_TTL_S = 24 * 3600


def heartbeat_key(process: str) -> str:
    return f"tierscope:{settings.DATABASES['default']['NAME']}:heartbeat:{process}"


def queue_process(queue: str) -> str:
    """The heartbeat name of "a worker consuming ``queue``" (each worker writes one per queue it consumes)."""
    return f"queue:{queue}"


def queue_heartbeat_ok(queue: str) -> bool:
    """Whether a worker consuming ``queue`` gave a sign of life within the stale age."""
    return heartbeat_read(process=queue_process(queue), stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S).ok


def worker_queues(worker: Any) -> list[str]:
    """The queues a worker consumes: its -Q list, else the default queue."""
    consume_from = worker.app.amqp.queues.consume_from
    return sorted(consume_from) if consume_from else [worker.app.conf.task_default_queue]


def worker_heartbeat_write(queues: list[str]) -> None:
    heartbeat_write(process="worker")
    for queue in queues:
        heartbeat_write(process=queue_process(queue))


def _client() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def heartbeat_write(*, process: str, at_s: float | None = None) -> bool:
    """Record that ``process`` is alive now (epoch seconds, UTC); False when Redis did not take it."""
    client = _client()
    try:
        client.set(heartbeat_key(process), f"{time.time() if at_s is None else at_s:.3f}", ex=KEY_TTL_S)
    except redis.RedisError as exc:
        logger.debug("heartbeat of %s not written: %s", process, exc)
        return False
    finally:
        client.close()
    return True


@dataclass(frozen=True)
class Heartbeat:
    process: str
    age_s: float | None  # None: never written (or expired)
    ok: bool
    detail: str


def heartbeat_read(*, process: str, stale_after_s: float, now_s: float | None = None) -> Heartbeat:
    client = _client()
    try:
        raw = client.get(heartbeat_key(process))
    except redis.RedisError as exc:
        return Heartbeat(process=process, age_s=None, ok=False, detail=f"heartbeat unreadable: {exc}")
    finally:
        client.close()
    if raw is None:
        return Heartbeat(process=process, age_s=None, ok=False, detail="no heartbeat")
    age_s = max(0.0, (time.time() if now_s is None else now_s) - float(raw))
    if age_s > stale_after_s:
        return Heartbeat(process=process, age_s=round(age_s, 1), ok=False,
                         detail=f"last heartbeat {age_s:.0f} s ago (stale after {stale_after_s:.0f} s)")
    return Heartbeat(process=process, age_s=round(age_s, 1), ok=True, detail="ok")


class WorkerHeartbeat(bootsteps.StartStopStep):
    """Worker bootstep: a heartbeat on the worker's timer, once per node (the pool children write none)."""

    requires = ("celery.worker.components:Timer",)

    def __init__(self, worker: Any, **kwargs: Any) -> None:
        super().__init__(worker, **kwargs)
        self.tref = None

    def start(self, worker: Any) -> None:
        queues = worker_queues(worker)
        worker_heartbeat_write(queues)
        self.tref = worker.timer.call_repeatedly(
            settings.TIERSCOPE_HEARTBEAT_EVERY_S, worker_heartbeat_write, args=(queues,), priority=10,
        )

    def stop(self, worker: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
