"""Depth of the Celery queues in Redis: the default queue and each target group's (Target.collect_queue)."""

from __future__ import annotations

import logging

import redis
from django.conf import settings

logger = logging.getLogger(__name__)


def queue_depths(*, queues: set[str]) -> dict[str, int | None]:
    """Messages waiting per queue ("" is the default queue); None where Redis did not answer."""
    names = sorted({queue or settings.CELERY_TASK_DEFAULT_QUEUE for queue in queues}
                   | {settings.CELERY_TASK_DEFAULT_QUEUE})
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        with client.pipeline(transaction=False) as pipe:
            for name in names:
                pipe.llen(name)
            return dict(zip(names, pipe.execute(), strict=True))
    except redis.RedisError as exc:
        logger.warning("queue depths not read from Redis: %s", exc)
        return dict.fromkeys(names)
    finally:
        client.close()
