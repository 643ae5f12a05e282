"""Which reads may go to the standby: a GET page's reads of the data apps, until it writes, outside transactions;
never the admin, login pages, /healthz, other methods, sessions and users, tasks and commands."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.http import HttpResponse
from django.test import RequestFactory

import apps.core.dbrouter as dbrouter
import apps.core.middleware as middleware
import apps.core.replica as replica
from apps.core.dbrouter import ReplicaRouter, read_alias, replica_reads
from apps.core.middleware import ReplicaReadsMiddleware


@pytest.fixture
def standby_fit(monkeypatch):
    """A configured standby judged fit (the real one is started in test_replica.py)."""
    monkeypatch.setattr(dbrouter, "replica_configured", lambda: True)
    monkeypatch.setattr(middleware, "replica_configured", lambda: True)  # the middleware's name for it
    monkeypatch.setattr(replica, "replica_usable", lambda: True)


def _marked(method: str, path: str) -> bool:
    seen = []
    middleware = ReplicaReadsMiddleware(lambda request: seen.append(read_alias("targets")) or HttpResponse())
    middleware(getattr(RequestFactory(), method)(path))
    return seen == ["replica"]


class ReplicaReadsMiddlewareTests:
    def test_a_get_or_head_of_a_page_may_read_the_standby(self, standby_fit):
        assert _marked("get", "/") and _marked("head", "/targets/demo/") and _marked("get", "/runs/1.json")

    def test_other_methods_the_admin_login_pages_and_healthz_read_the_primary(self, standby_fit):
        assert not _marked("post", "/targets/demo/collect/")
        assert not _marked("get", "/admin/targets/target/")
        assert not _marked("get", "/accounts/login/")
        assert not _marked("get", "/healthz")

    def test_without_a_replica_configured_nothing_reads_it(self, monkeypatch):
        monkeypatch.setattr(replica, "replica_usable", lambda: True)

        assert not _marked("get", "/")


class ReadAliasTests:
    def test_outside_a_request_tasks_and_commands_read_the_primary(self, standby_fit):
        assert read_alias("targets") == "default"

    def test_sessions_users_and_the_audit_log_are_read_from_the_primary(self, standby_fit):
        # No database: a test transaction around it would send every read to the primary.
        with replica_reads():
            assert [read_alias(app) for app in ("sessions", "auth", "axes", "core")] == ["default"] * 4
            assert [read_alias(app) for app in ("targets", "snapshots", "tiering")] == ["replica"] * 3

    def test_after_a_write_the_request_reads_its_own_writes_from_the_primary(self, standby_fit):
        from apps.targets.models import Target

        with replica_reads():
            assert ReplicaRouter().db_for_write(Target) == "default"
            assert read_alias("targets") == "default"

    @pytest.mark.django_db(transaction=True)
    def test_inside_a_transaction_reads_go_to_the_primary(self, standby_fit):
        with replica_reads(), transaction.atomic():
            assert read_alias("targets") == "default"

    def test_a_standby_unfit_to_serve_leaves_reads_to_the_primary(self, monkeypatch):
        monkeypatch.setattr(dbrouter, "replica_configured", lambda: True)
        monkeypatch.setattr(replica, "replica_usable", lambda: False)

        with replica_reads():
            assert read_alias("targets") == "default"


class ReplicaVerdictTests:
    def test_the_verdict_is_measured_once_per_check_interval_unless_asked_fresh(self, monkeypatch, settings):
        settings.DATABASE_REPLICA_CHECK_EVERY_S = 3600
        measured = []
        monkeypatch.setattr(replica, "_cached", None)
        monkeypatch.setattr(replica, "replica_state_measure",
                            lambda: measured.append(1) or replica.ReplicaState(replica.OK, 0.0, "ok"))

        replica.replica_state()
        replica.replica_state()
        assert len(measured) == 1
        replica.replica_state(fresh=True)
        assert len(measured) == 2
