"""Beat's scheduler: django-celery-beat's DatabaseScheduler that outlives PostgreSQL outages.

The stock scheduler re-reads every periodic task every 5 minutes and lets the
OperationalError of that read (and of its start-up read) escape from tick(),
so beat exits on any outage that spans a re-read. This one catches database
errors wherever the scheduler touches the database, closes the broken
connection, keeps the last schedule it read (due entries keep going to the
broker, which does not need PostgreSQL), logs the outage once and its end,
and retries at the next tick. It also writes beat's heartbeat
(apps/core/heartbeat.py) and makes the forced re-read interval a setting
(TIERSCOPE_BEAT_RESYNC_S), which the fault suite shortens.
"""

from __future__ import annotations

import datetime
import logging
import time
from typing import Any

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import close_old_connections, connection
from django.db.utils import DatabaseError, InterfaceError
from django_celery_beat.schedulers import DatabaseScheduler

from apps.core.errors import first_line
from apps.core.heartbeat import heartbeat_write

logger = logging.getLogger(__name__)

# OperationalError is a DatabaseError; InterfaceError (connection already closed) is not.
DATABASE_ERRORS = (DatabaseError, InterfaceError)


class ResilientDatabaseScheduler(DatabaseScheduler):
    _outage_since: float | None = None
    _last_heartbeat: float = 0.0
    # DatabaseScheduler's own state, which this class reads and sets (django-celery-beat ships no types).
    _initial_read: bool
    _heap: list[Any]
    _last_timestamp: datetime.datetime | None

    @property
    def schedule(self) -> dict[str, Any]:
        now_at = datetime.datetime.now()  # naive local clock, as the stock scheduler's _last_full_sync
        try:
            update = (
                self._initial_read
                or self._full_sync_due(now_at)
                or self.schedule_changed()
            )
            if update:
                self._read_all(now_at)
        except DATABASE_ERRORS as exc:
            self._database_unavailable(exc)
        else:
            self._database_available()
        return self._schedule if self._schedule is not None else {}

    def _full_sync_due(self, now_at: datetime.datetime) -> bool:
        resync_s = settings.TIERSCOPE_BEAT_RESYNC_S
        return self._last_full_sync is None or (now_at - self._last_full_sync).total_seconds() >= resync_s

    def _read_all(self, now_at: datetime.datetime) -> None:
        initial = self._initial_read
        self._sync_dirty()
        fresh = self.all_as_schedule()
        # Only a read that worked moves the clock and clears the first-read flag: a failed one is retried next tick.
        self._schedule, self._last_full_sync, self._initial_read = fresh, now_at, False
        if not initial:
            self._heap = []
            self._heap_invalidated = True  # the schedule changed: Scheduler.tick rebuilds its heap

    def schedule_changed(self) -> bool:
        """The stock check without its own error handling (which logs a traceback every 5 s of an outage).

        PostgreSQL runs in autocommit, so the stock commit before the read (for MySQL's REPEATABLE READ) is left out.
        """
        close_old_connections()
        last, ts = self._last_timestamp, self.Changes.last_change()
        self._last_timestamp = ts
        return bool(ts and ts > (last or ts))

    def sync(self) -> None:
        try:
            self._sync_dirty()
        except DATABASE_ERRORS as exc:
            self._database_unavailable(exc)

    def _sync_dirty(self) -> None:
        """Save the entries that ran (last_run_at, total_run_count); the ones not saved stay dirty."""
        close_old_connections()
        while self._dirty:
            name = self._dirty.pop()
            try:
                self._schedule[name].save()
            except (KeyError, TypeError, ObjectDoesNotExist):
                continue  # gone from the schedule since it ran: nothing to save
            except DATABASE_ERRORS:
                self._dirty.add(name)
                raise

    def tick(self, *args: Any, **kwargs: Any) -> float:
        try:
            interval = super().tick(*args, **kwargs)
        except DATABASE_ERRORS as exc:  # anything the scheduler reads outside schedule/sync
            self._database_unavailable(exc)
            interval = self.max_interval
        self._heartbeat()
        return interval

    def _heartbeat(self) -> None:
        now_s = time.monotonic()
        if now_s - self._last_heartbeat >= settings.TIERSCOPE_HEARTBEAT_EVERY_S:
            self._last_heartbeat = now_s
            heartbeat_write(process="beat")

    def _database_unavailable(self, exc: BaseException) -> None:
        # A connection that failed once is not reused: the next tick opens a new one.
        try:
            connection.close()
        except DATABASE_ERRORS:
            pass  # closing a dead connection may fail the same way; it is dropped either way
        if self._outage_since is None:
            self._outage_since = time.monotonic()
            logger.warning("beat: database unavailable, keeping the last schedule and retrying each tick: %s",
                           first_line(exc))

    def _database_available(self) -> None:
        if self._outage_since is not None:
            logger.warning("beat: database recovered after %.0f s", time.monotonic() - self._outage_since)
            self._outage_since = None
