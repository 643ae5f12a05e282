"""'Test connection' as a task with progress: the service/task against fakes at the Oracle boundary,
the admin action, the page and its JSON endpoint, and a broker that is down."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from oracledb import errors as oracledb_errors

from apps.targets import services
from apps.targets.models import Target, TargetCheck
from apps.targets.oracle.source import OracleSource
from tests.targets.live_target import live_target_create
from tests.targets.oracle.fakes import FakeConnect, load_recording
from tests.waiting import wait_for

pytestmark = pytest.mark.django_db


def ora(code: int, text: str) -> Exception:
    error = oracledb_errors._Error(f"ORA-{code:05d}: {text}", code=code)
    return error.exc_type(error)


@pytest.fixture
def live_target(db) -> Target:
    return live_target_create("s3cret")


def fake_oracle(connect: FakeConnect):
    """source_for with the recorded fake connection in place of the driver."""
    def source_for(target: Target, **_limits: object) -> OracleSource:
        return OracleSource(dsn=target.dsn, user=target.username, password="s3cret", mode=target.mode,
                            connect=connect, name=target.name)
    return mock.patch.object(services, "source_for", source_for)


def queued(target: Target) -> TargetCheck:
    from django.utils import timezone

    return TargetCheck.objects.create(target=target, requested_by="ada", queued_at=timezone.now())


def run_task(check: TargetCheck) -> str:
    from apps.targets.tasks import target_check as target_check_task

    return target_check_task.delay(check.pk).get()


class TestTargetCheckTask:
    def test_it_passes_step_by_step(self, live_target):
        check = queued(live_target)
        with fake_oracle(FakeConnect(load_recording("single_nopack"))):
            assert run_task(check) == "passed"

        check.refresh_from_db()
        assert check.status == TargetCheck.Status.PASSED
        assert [(s["step"], s["ok"]) for s in check.steps] == [
            ("connect", True), ("release", True), ("grants", True), ("pack", True)]
        assert "connected to dbhost1:1521/PROD as TIERSCOPE" in check.steps[0]["detail"]
        assert check.started_at and check.finished_at and check.error == ""

    def test_it_saves_each_step_before_the_next_one_runs(self, live_target):
        check = queued(live_target)
        seen_by_parameters: list[list[str]] = []
        connect = FakeConnect(load_recording("single_nopack"))
        execute = connect.cursor.execute

        def spying_execute(statement, parameters=None):
            if "V$PARAMETER" in statement.upper() and not seen_by_parameters:
                seen_by_parameters.append([s["step"] for s in TargetCheck.objects.get(pk=check.pk).steps])
            return execute(statement, parameters)

        connect.cursor.execute = spying_execute
        with fake_oracle(connect):
            run_task(check)
        # While the grants step ran, the page could already show connect and release.
        assert seen_by_parameters == [["connect", "release"]]

    def test_it_stops_at_the_failed_step_with_the_grant_to_give(self, live_target):
        check = queued(live_target)
        connect = FakeConnect(load_recording("single_nopack"),
                              failures={"parameters": ora(942, "table or view does not exist")})
        with fake_oracle(connect):
            assert run_task(check) == "failed"

        check.refresh_from_db()
        assert [(s["step"], s["ok"]) for s in check.steps] == [("connect", True), ("release", True), ("grants", False)]
        assert "GRANT SELECT ON SYS.V_$PARAMETER TO TIERSCOPE" in check.steps[-1]["detail"]
        assert check.error == check.steps[-1]["detail"]

    def test_it_reports_a_refused_connect_as_the_connect_step(self, live_target):
        check = queued(live_target)
        refused = oracledb_errors._create_exception(oracledb_errors.ERR_CONNECTION_FAILED, connection_id="x")
        refused.__cause__ = ConnectionRefusedError(111, "Connection refused")
        with fake_oracle(FakeConnect(load_recording("single_nopack"), connect_error=refused)):
            run_task(check)

        check.refresh_from_db()
        assert check.status == TargetCheck.Status.FAILED
        assert [(s["step"], s["ok"]) for s in check.steps] == [("connect", False)]
        assert "refused the connection" in check.steps[0]["detail"]

    def test_it_is_idempotent(self, live_target):
        check = queued(live_target)
        connect = FakeConnect(load_recording("single_nopack"))
        with fake_oracle(connect):
            run_task(check)
            check.refresh_from_db()
            first = (check.status, check.steps, check.started_at, check.finished_at)
            run_task(check)  # a redelivered message
        check.refresh_from_db()

        # The second run claimed nothing and talked to no database.
        assert (check.status, check.steps, check.started_at, check.finished_at) == first
        assert len(connect.calls) == 1
        assert TargetCheck.objects.count() == 1

    def test_it_checks_the_demo_target_without_connecting(self, demo_target):
        check = queued(demo_target)
        assert run_task(check) == "passed"
        check.refresh_from_db()
        assert [(s["step"], s["ok"]) for s in check.steps] == [("source", True)]

    def test_it_fails_a_report_only_target(self, db):
        target = Target.objects.create(name="reports", mode=Target.Mode.REPORT)
        check = queued(target)
        assert run_task(check) == "failed"
        check.refresh_from_db()
        assert "report-only target" in check.error

    def test_the_task_has_its_own_time_limits(self):
        from apps.core.config import get_config
        from apps.targets.tasks import target_check as target_check_task

        assert get_config()["TARGET_CHECK_TIMEOUT_S"] < target_check_task.soft_time_limit < target_check_task.time_limit


class TestTargetCheckPage:
    def test_it_shows_the_steps_and_verdict_to_an_admin(self, admin_client, live_target):
        check = queued(live_target)
        with fake_oracle(FakeConnect(load_recording("single_nopack"))):
            run_task(check)
        response = admin_client.get(f"/targets/prod/check/{check.pk}/")
        assert response.status_code == 200
        page = response.content.decode()
        assert "Connection check of prod" in page
        assert 'data-status="passed"' in page and "catalog views readable" in page
        assert "js/target_check.js" in page and "<script>" not in page  # no inline script

    def test_it_refuses_a_viewer(self, viewer_client, live_target):
        check = queued(live_target)
        assert viewer_client.get(f"/targets/prod/check/{check.pk}/").status_code == 403
        assert viewer_client.get(f"/targets/prod/check/{check.pk}/status/").status_code == 403

    def test_it_sends_an_anonymous_visitor_to_log_in(self, client, live_target):
        check = queued(live_target)
        response = client.get(f"/targets/prod/check/{check.pk}/status/")
        assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")

    def test_it_answers_404_for_a_check_of_another_target(self, admin_client, live_target, demo_target):
        check = queued(live_target)
        assert admin_client.get(f"/targets/demo/check/{check.pk}/").status_code == 404

    def test_the_json_endpoint_follows_the_check(self, admin_client, live_target):
        check = queued(live_target)
        url = f"/targets/prod/check/{check.pk}/status/"
        before = admin_client.get(url).json()
        assert (before["status"], before["done"], before["steps"]) == ("queued", False, [])

        connect = FakeConnect(load_recording("single_nopack"),
                              failures={"parameters": ora(942, "table or view does not exist")})
        with fake_oracle(connect):
            run_task(check)
        after = admin_client.get(url).json()
        assert (after["status"], after["badge"], after["done"]) == ("failed", "failed", True)
        assert [s["step"] for s in after["steps"]] == ["connect", "release", "grants"]
        assert after["requested_by"] == "ada" and after["finished_at"]


def forget_broker_connections(app) -> None:
    """Make the next publish connect to app.conf.broker_url (Celery caches its pools per app; kombu's
    registry keeps one per URL, so they are dropped here, not closed)."""
    app._pool = None
    app.amqp._producer_pool = None


@pytest.mark.django_db(transaction=True)
class TestTestConnectionAction:
    def post_action(self, client, *targets: Target):
        return client.post("/admin/targets/target/", {
            "action": "test_connection", "_selected_action": [t.pk for t in targets]})

    def test_it_queues_a_check_and_redirects_to_its_page(self, admin_client, live_target):
        with fake_oracle(FakeConnect(load_recording("single_nopack"))):
            response = self.post_action(admin_client, live_target)
        check = TargetCheck.objects.get()
        assert response.status_code == 302
        assert response["Location"] == f"/targets/prod/check/{check.pk}/"
        # Tests run tasks eagerly: the check ran once the row was committed.
        assert check.status == TargetCheck.Status.PASSED and check.requested_by == "ada"

    def test_it_shows_the_broker_error_at_once_when_the_broker_is_down(self, admin_client, live_target):
        from config.celery import app

        from .oracle.listeners import closed_port

        previous = (app.conf.task_always_eager, app.conf.broker_url)
        app.conf.task_always_eager = False
        app.conf.broker_url = f"redis://127.0.0.1:{closed_port()}/0"
        forget_broker_connections(app)
        try:
            started = time.monotonic()
            response = self.post_action(admin_client, live_target)
            elapsed = time.monotonic() - started
        finally:
            app.conf.task_always_eager, app.conf.broker_url = previous
            forget_broker_connections(app)

        check = TargetCheck.objects.get()
        assert response.status_code == 302  # back to the changelist, with the message (no 500)
        assert response["Location"] == "/admin/targets/target/"
        assert elapsed < 5
        # The row is failed with the reason, never left queued.
        assert check.status == TargetCheck.Status.FAILED and check.finished_at
        assert "Could not queue the check: the task broker did not answer" in check.error
        page = admin_client.get(response["Location"]).content.decode()
        assert "Could not queue the check" in page


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_runs_the_queued_check(admin_client, demo_target, celery_worker):
    response = admin_client.post("/admin/targets/target/", {
        "action": "test_connection", "_selected_action": [demo_target.pk]})
    check = TargetCheck.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/targets/demo/check/{check.pk}/"

    # The page's endpoint follows the worker until the verdict.
    def verdict():
        state = admin_client.get(f"/targets/demo/check/{check.pk}/status/").json()
        return state if state["done"] else None

    state = wait_for(verdict, timeout_s=30, what="the check's verdict")
    assert (state["status"], [s["step"] for s in state["steps"]]) == ("passed", ["source"])


@pytest.mark.django_db
class TargetChecksReapTests:
    def test_it_fails_checks_left_running_or_never_started_and_keeps_the_others(self, demo_target):
        import datetime as dt

        from django.utils import timezone

        from apps.targets.models import TargetCheck
        from apps.targets.services import target_checks_reap

        now = timezone.now()
        dead = TargetCheck.objects.create(target=demo_target, status=TargetCheck.Status.RUNNING,
                                          queued_at=now - dt.timedelta(minutes=10),
                                          started_at=now - dt.timedelta(minutes=10))
        lost = TargetCheck.objects.create(target=demo_target, queued_at=now - dt.timedelta(minutes=11))
        live = TargetCheck.objects.create(target=demo_target, status=TargetCheck.Status.RUNNING,
                                          queued_at=now - dt.timedelta(seconds=30), started_at=now)

        assert target_checks_reap(now=now) == 2

        for check in (dead, lost, live):
            check.refresh_from_db()
        assert dead.status == lost.status == TargetCheck.Status.FAILED
        assert "stopped before it finished" in dead.error and "Never started" in lost.error
        assert live.status == TargetCheck.Status.RUNNING
