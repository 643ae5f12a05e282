"""Liveness of the two services tierscope cannot work without, and of its worker and beat (their heartbeats)."""

from __future__ import annotations

import redis
from django.conf import settings
from django.db import connection
from django.db.utils import DatabaseError

from apps.core.errors import first_line
from apps.core.heartbeat import heartbeat_read


def health_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError as exc:
        return False, first_line(exc)
    return True, "ok"


def health_broker() -> tuple[bool, str]:
    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        return False, str(exc)
    finally:
        client.close()
    return True, "ok"


def health_heartbeat(*, process: str) -> dict[str, object]:
    """Age of the last heartbeat of ``process`` (worker or beat); not ok when missing or stale."""
    beat = heartbeat_read(process=process, stale_after_s=settings.TIERSCOPE_HEARTBEAT_STALE_S)
    return {"ok": beat.ok, "age_s": beat.age_s, "detail": beat.detail}
