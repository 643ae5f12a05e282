"""Lockout of an address that presents bad API keys, as django-axes does for passwords, counted in Redis.

An address (apps.core.clientip) that presents ``TIERSCOPE_API_TOKEN_FAILURE_LIMIT`` bad keys, each within
``TIERSCOPE_API_TOKEN_COOLOFF_S`` of the one before, is locked out for the cool-off: every key it presents,
a valid one too, is refused with 429 until then. Attempts while locked are refused without being counted,
so the lockout ends on time whatever a script keeps sending. A valid key does not clear the count: a host
whose broken job keeps failing is noticed even if another job of it works.

The count lives in Redis, not in a process, so that every web worker sees the same one; keys are scoped by
the database name (as apps.core.heartbeat's), so stacks sharing one Redis never count for each other.

When Redis cannot be reached, keys are still checked (the database decides) but nothing is counted or locked:
the error is logged each time. A 256-bit secret is not guessed in any number of tries, so the lockout is a
brake on noise and on leaked old keys, not what keeps the API safe; refusing every API call while Redis is
down would turn a broker outage into an API outage.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import redis
from django.conf import settings

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Failure:
    """What one more failure did: the address's count so far, and whether it has just been locked out."""

    count: int
    locked_now: bool


def _key(kind: str, address: str) -> str:
    return f"tierscope:{settings.DATABASES['default']['NAME']}:apitokens:{kind}:{address}"


def _client() -> redis.Redis:
    # Short timeouts: an API request waits at most about a second on a Redis that does not answer.
    return redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)


def lockout_remaining_s(address: str) -> int:
    """Seconds left of ``address``'s lockout, 0 when it is not locked out (or Redis cannot say)."""
    try:
        with _client() as client:
            remaining = client.ttl(_key("locked", address))
    except redis.RedisError as exc:
        logger.error("API token lockout not checked for %s: Redis error %s", address, exc)
        return 0
    return max(int(remaining), 0)  # -2: no such key, -1: no expiry (never written so)


def failure_record(address: str) -> Failure | None:
    """Count one bad key from ``address``; lock it out when the count reaches the limit. None: Redis is down."""
    limit = settings.TIERSCOPE_API_TOKEN_FAILURE_LIMIT
    cooloff_s = settings.TIERSCOPE_API_TOKEN_COOLOFF_S
    failures = _key("failures", address)
    try:
        with _client() as client:
            pipe = client.pipeline(transaction=True)
            pipe.incr(failures)
            pipe.expire(failures, cooloff_s)
            count, _ = pipe.execute()
            if count < limit:
                return Failure(count=count, locked_now=False)
            pipe = client.pipeline(transaction=True)
            pipe.set(_key("locked", address), count, ex=cooloff_s)
            pipe.delete(failures)
            pipe.execute()
    except redis.RedisError as exc:
        logger.error("API token failure from %s not counted: Redis error %s", address, exc)
        return None
    # Two workers may both reach the limit at once: only the one that counted exactly to it says so.
    return Failure(count=count, locked_now=count == limit)

