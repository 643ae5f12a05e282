"""Advisory locks: one key space per purpose, a bounded wait that fails with a message naming the lock."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.db import connection, connections, transaction

from apps.core.config import get_config
from apps.core.locks import LockSpace, LockTimeout, lock_session, lock_try, lock_xact

MIGRATIONS = Path(__file__).resolve().parents[2] / "apps" / "snapshots" / "migrations"


@pytest.fixture
def short_wait(settings):
    settings.TIERSCOPE = {**getattr(settings, "TIERSCOPE", {}), "LOCK_TIMEOUT_S": 1}
    get_config.cache_clear()
    yield
    get_config.cache_clear()


@pytest.fixture
def holder():
    """Another session, holding locks as a stuck worker would."""
    other = connections.create_connection("default")
    yield other
    other.close()


def _hold(session, space: LockSpace, key: int) -> int:
    with session.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_lock(%s, %s)", [int(space), key])
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _lock_timeout() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_setting('lock_timeout')")
        return cursor.fetchone()[0]


@pytest.mark.django_db(transaction=True)
class LockTimeoutTests:
    def test_a_stuck_holder_fails_a_transaction_lock_with_a_message_naming_the_lock(self, short_wait, holder):
        pid = _hold(holder, LockSpace.ROLL_UP, 42)

        with pytest.raises(LockTimeout) as raised, transaction.atomic():
            lock_xact(LockSpace.ROLL_UP, 42)

        message = str(raised.value)
        assert "\n" not in message
        assert "roll up lock of 42 after 1 s" in message
        assert f"pg_advisory_lock({int(LockSpace.ROLL_UP)}, 42)" in message
        assert f"backend {pid} (idle" in message

    def test_a_stuck_holder_fails_a_session_lock_too(self, short_wait, holder):
        _hold(holder, LockSpace.RECOMMENDATION_STORE, 7)

        with pytest.raises(LockTimeout, match="recommendation store lock of 7"), \
                lock_session(LockSpace.RECOMMENDATION_STORE, 7):
            pass

    def test_the_transaction_that_waited_goes_on_after_a_timeout(self, short_wait, holder):
        _hold(holder, LockSpace.WINDOW_BASE, 3)

        with transaction.atomic():
            with pytest.raises(LockTimeout):
                lock_xact(LockSpace.WINDOW_BASE, 3)
            # Only the wait was undone: the caller's transaction still answers.
            with connection.cursor() as cursor:
                cursor.execute("SELECT 1")
                assert cursor.fetchone() == (1,)

    def test_the_timeout_is_set_for_the_wait_alone(self, short_wait):
        before = _lock_timeout()

        with transaction.atomic():
            lock_xact(LockSpace.ROLL_UP, 5)
            assert _lock_timeout() == before
        with lock_session(LockSpace.RECOMMENDATION_STORE, 5):
            assert _lock_timeout() == before

    def test_a_lock_free_again_is_granted(self, holder):
        _hold(holder, LockSpace.PARTITION_DDL, 0)
        assert not lock_try(LockSpace.PARTITION_DDL, 0)
        holder.close()

        with transaction.atomic():
            lock_xact(LockSpace.PARTITION_DDL, 0)  # the default wait: the server released the closed session's lock


class LockSpaceTests:
    def test_a_transaction_lock_outside_a_transaction_is_refused(self):
        with pytest.raises(RuntimeError, match="inside transaction.atomic"):
            lock_xact(LockSpace.ROLL_UP, 1)

    def test_every_space_has_a_value_of_its_own(self):
        assert len({int(space) for space in LockSpace}) == len(LockSpace)
        assert all(0 < space < 2 ** 31 for space in LockSpace)  # pg_advisory_lock(int4, int4)

    def test_the_roll_up_trigger_of_the_migrations_takes_the_roll_up_space(self):
        taken = set()
        for path in MIGRATIONS.glob("*.py"):
            taken |= set(re.findall(r"pg_advisory_xact_lock\((\d+),", path.read_text()))

        assert taken == {str(int(LockSpace.ROLL_UP))}


@pytest.mark.django_db
class InstalledTriggerTests:
    def test_the_installed_trigger_function_takes_the_roll_up_space(self):
        with connection.cursor() as cursor:
            cursor.execute("SELECT prosrc FROM pg_proc WHERE proname = 'snapshots_rollups_forget'")
            source = cursor.fetchone()[0]

        assert re.findall(r"pg_advisory_xact_lock\((\d+),", source) == [str(int(LockSpace.ROLL_UP))]
