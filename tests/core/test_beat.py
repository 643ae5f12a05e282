"""Beat's scheduler against a PostgreSQL that goes away: django-celery-beat's stock scheduler dies, ours keeps ticking."""

from __future__ import annotations

import datetime
import logging

import pytest
from django.db import connection
from django.db.utils import OperationalError
from django_celery_beat.models import IntervalSchedule, PeriodicTask
from django_celery_beat.schedulers import DatabaseScheduler

from apps.core.beat import ResilientDatabaseScheduler
from config.celery import app


def _refused(*args, **kwargs):
    raise OperationalError('connection to server at "127.0.0.1", port 55432 failed: Connection refused')


class _Outage:
    """PostgreSQL down: the open connection is gone and every new one is refused."""

    def __init__(self, monkeypatch):
        self.monkeypatch = monkeypatch

    def __enter__(self):
        connection.close()
        self.monkeypatch.setattr(connection, "get_new_connection", _refused)
        return self

    def __exit__(self, *exc):
        self.monkeypatch.undo()
        return False


def _scheduler(cls, sent: list[str]):
    scheduler = cls(app=app, max_interval=1)
    scheduler.apply_async = lambda entry, **kwargs: sent.append(entry.name)  # no broker, no eager run
    return scheduler


def _force_full_reread(scheduler) -> None:
    # The forced re-read django-celery-beat does every 5 minutes, due now.
    scheduler._last_full_sync = datetime.datetime.now() - datetime.timedelta(seconds=3600)


@pytest.fixture
def every_second(db):
    every, _ = IntervalSchedule.objects.get_or_create(every=1, period=IntervalSchedule.SECONDS)
    return PeriodicTask.objects.create(name="tick-test", task="celery.backend_cleanup", interval=every)


@pytest.mark.django_db(transaction=True)
class ResilientDatabaseSchedulerTests:
    def test_the_stock_scheduler_dies_when_the_reread_meets_an_outage(self, every_second, monkeypatch):
        scheduler = _scheduler(DatabaseScheduler, [])

        # The failure this module exists for: the forced re-read raises out of tick().
        with _Outage(monkeypatch), pytest.raises(OperationalError):
            _force_full_reread(scheduler)
            scheduler.tick()

    def test_it_keeps_ticking_on_the_last_good_schedule_and_recovers(self, every_second, monkeypatch, caplog):
        sent: list[str] = []
        scheduler = _scheduler(ResilientDatabaseScheduler, sent)
        assert "tick-test" in scheduler.schedule

        caplog.set_level(logging.INFO, logger="apps.core.beat")
        with _Outage(monkeypatch):
            _force_full_reread(scheduler)
            for _ in range(4):
                interval = scheduler.tick()
                assert 0 <= interval <= 5
                scheduler._heap = None  # as if time passed: re-heap and find the entry due again
                for entry in scheduler.schedule.values():
                    entry.last_run_at = entry.last_run_at - datetime.timedelta(seconds=5)
            scheduler.sync()  # the periodic save of last_run_at meets the outage too

        # The last good schedule kept sending, and the outage was logged once.
        assert "tick-test" in sent
        warnings = [r for r in caplog.records if "database unavailable" in r.getMessage()]
        assert len(warnings) == 1

        # PostgreSQL is back: a new task is read at the next tick, and the recovery is logged.
        every = every_second.interval
        PeriodicTask.objects.create(name="after-outage", task="celery.backend_cleanup", interval=every)
        _force_full_reread(scheduler)
        scheduler.tick()
        assert "after-outage" in scheduler.schedule
        assert any("recovered after" in r.getMessage() for r in caplog.records)

    def test_it_starts_while_the_database_is_down_and_reads_it_once_back(self, every_second, monkeypatch):
        sent: list[str] = []
        with _Outage(monkeypatch):
            scheduler = _scheduler(ResilientDatabaseScheduler, sent)
            assert scheduler.tick() <= 5

        scheduler.tick()
        assert "tick-test" in scheduler.schedule

    def test_it_rereads_at_the_configured_interval(self, every_second, settings):
        settings.TIERSCOPE_BEAT_RESYNC_S = 7
        scheduler = _scheduler(ResilientDatabaseScheduler, [])
        assert "tick-test" in scheduler.schedule

        PeriodicTask.objects.filter(pk=every_second.pk).update(name="renamed")  # no change signal: only a re-read sees it
        scheduler._last_full_sync = datetime.datetime.now() - datetime.timedelta(seconds=8)
        assert "renamed" in scheduler.schedule
