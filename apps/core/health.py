"""Liveness of the two services tierscope cannot work without, and of its worker and beat (their heartbeats)."""

from __future__ import annotations

from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connection
from django.db.utils import DatabaseError

from apps.core import sql as core_sql
from apps.core.errors import first_line
from apps.core.heartbeat import heartbeat_read
from apps.core.replica import replica_state


def health_database() -> tuple[bool, str]:
    try:
        with connection.cursor() as cursor:
            cursor.execute(core_sql.ALIVE)
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



# Checks the apps add (name -> check returning {"ok": bool, "detail": str, ...}), run when the database answers;
# their "ok" counts for /healthz's status like the ones above.
_APP_CHECKS: dict[str, Callable[[], dict[str, object]]] = {}


def health_register(name: str, check: Callable[[], dict[str, object]]) -> None:
    _APP_CHECKS[name] = check


def health_app_checks(*, database_ok: bool) -> dict[str, dict[str, object]]:
    if not database_ok:
        return {name: {"ok": True, "detail": "not checked: no database"} for name in _APP_CHECKS}
    return {name: check() for name, check in _APP_CHECKS.items()}

def health_replica() -> dict[str, object]:
    """The read replica's state (ok / lagging / down / not configured) and lag; reported, never a failure."""
    state = replica_state()
    return {"state": state.state, "lag_s": state.lag_s, "detail": state.detail}
