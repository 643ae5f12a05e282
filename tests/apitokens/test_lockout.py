"""An address that presents too many bad keys is locked out with 429 and Retry-After, a good key included."""

from __future__ import annotations

import logging

import pytest
import redis
from django.test import Client

from apps.core.models import AuditLogEntry
from tests.waiting import wait_for

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("api")]

WHOAMI = "/test-api/whoami/"
BAD = "tsk_00000000_" + "A" * 43


def _redis(settings) -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _prefix(settings) -> str:
    """Where the lockout keeps its counts in Redis (apps.apitokens.throttle), for this test database."""
    return f"tierscope:{settings.DATABASES['default']['NAME']}:apitokens"


def call(key: str, address: str):
    return Client(REMOTE_ADDR=address).get(WHOAMI, HTTP_AUTHORIZATION=f"Bearer {key}")


@pytest.fixture
def limit(settings):
    settings.TIERSCOPE_API_TOKEN_FAILURE_LIMIT = 3
    settings.TIERSCOPE_API_TOKEN_COOLOFF_S = 600
    return 3


class LockoutTests:
    def test_it_locks_an_address_out_after_the_limit_with_429_and_retry_after(self, limit):
        answers = [call(BAD, "203.0.113.5").status_code for _ in range(limit)]
        locked = call(BAD, "203.0.113.5")

        assert answers == [401] * limit
        assert locked.status_code == 429
        assert 590 <= int(locked["Retry-After"]) <= 600
        assert "Too many bad API tokens from 203.0.113.5" in locked.json()["detail"]

    def test_a_valid_key_from_a_locked_address_is_refused_while_locked(self, limit, viewer, make_token):
        good = make_token(viewer).key
        for _ in range(limit):
            call(BAD, "203.0.113.5")

        assert call(good, "203.0.113.5").status_code == 429
        assert call(good, "203.0.113.6").status_code == 200  # another address is not locked out

    def test_it_counts_the_address_the_proxies_say_when_told_how_many_there_are(self, limit, settings):
        settings.TIERSCOPE_PROXY_COUNT = 1
        for _ in range(limit):
            Client(REMOTE_ADDR="10.0.0.1").get(WHOAMI, HTTP_AUTHORIZATION=f"Bearer {BAD}",
                                               HTTP_X_FORWARDED_FOR="203.0.113.7")

        assert Client(REMOTE_ADDR="10.0.0.1").get(WHOAMI, HTTP_AUTHORIZATION=f"Bearer {BAD}",
                                                  HTTP_X_FORWARDED_FOR="203.0.113.7").status_code == 429
        # The proxy itself, for another client, is not.
        assert Client(REMOTE_ADDR="10.0.0.1").get(WHOAMI, HTTP_AUTHORIZATION=f"Bearer {BAD}",
                                                  HTTP_X_FORWARDED_FOR="203.0.113.8").status_code == 401

    def test_it_ends_the_lockout_after_the_cool_off(self, limit, settings, viewer, make_token):
        good = make_token(viewer).key
        for _ in range(limit):
            call(BAD, "203.0.113.5")
        assert call(good, "203.0.113.5").status_code == 429
        client, locked = _redis(settings), f"{_prefix(settings)}:locked:203.0.113.5"
        assert 590 <= client.ttl(locked) <= 600  # the lockout lasts the cool-off, whatever the machine's speed

        client.pexpire(locked, 1)  # the cool-off over, without waiting it out

        wait_for(lambda: call(good, "203.0.113.5").status_code == 200, timeout_s=10,
                 what="the lockout to end with its cool-off")
        client.close()

    def test_attempts_while_locked_are_not_counted_and_do_not_extend_it(self, limit, settings):
        for _ in range(limit):
            call(BAD, "203.0.113.5")
        for _ in range(5):
            assert call(BAD, "203.0.113.5").status_code == 429
        client, prefix = _redis(settings), _prefix(settings)
        assert client.get(f"{prefix}:locked:203.0.113.5") == b"3"
        assert client.get(f"{prefix}:failures:203.0.113.5") is None
        client.close()

    def test_it_logs_and_audits_the_lockout_once(self, limit, caplog):
        with caplog.at_level(logging.WARNING, logger="apps.apitokens"):
            for _ in range(limit + 2):
                call(BAD, "203.0.113.5")

        messages = [r.getMessage() for r in caplog.records if r.name == "apps.apitokens.authentication"]
        assert sum("locked out for 600 s after 3 bad tokens" in m for m in messages) == 1
        assert sum("locked out for another" in m for m in messages) == 2
        lockouts = AuditLogEntry.objects.filter(additional_data__action="api token lockout")
        assert [(e.additional_data["detail"], e.additional_data["outcome"]) for e in lockouts] == [
            ("203.0.113.5", "locked out for 600 s after 3 bad tokens")]
        assert AuditLogEntry.objects.filter(additional_data__action="api token refused").count() == limit


class RedisDownTests:
    def test_keys_are_still_checked_and_the_miss_is_logged_when_redis_is_down(self, settings, viewer, make_token,
                                                                              caplog):
        good = make_token(viewer).key
        settings.REDIS_URL = "redis://127.0.0.1:9/0"  # nothing listens on the discard port

        with caplog.at_level(logging.ERROR, logger="apps.apitokens"):
            assert call(good, "203.0.113.9").status_code == 200
            assert call(BAD, "203.0.113.9").status_code == 401

        errors = [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR]
        assert any("lockout not checked for 203.0.113.9: Redis error" in m for m in errors)
        assert any("failure from 203.0.113.9 not counted: Redis error" in m for m in errors)
