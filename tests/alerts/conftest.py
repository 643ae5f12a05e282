"""A real SMTP server (aiosmtpd) on loopback, a target, a rule, and runs ended as the worker ends them."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from email import message_from_bytes
from email.message import Message

import pytest
from aiosmtpd.controller import Controller

from apps.alerts.models import AlertRule
from apps.snapshots.models import CollectionRun
from apps.snapshots.runs import run_finish
from apps.targets.models import Target


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Message] = []

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's hook name)
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"


@pytest.fixture
def smtp(settings) -> Iterator[Inbox]:
    inbox = Inbox()
    controller = Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT, settings.EMAIL_USE_TLS = "127.0.0.1", controller.port, False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture
def target(seed_tiers) -> Target:
    return Target.objects.create(name="prod", mode=Target.Mode.AWR, dsn="db:1521/prod")


@pytest.fixture
def rule(target) -> AlertRule:
    return AlertRule.objects.create(name="dba team", failures_in_a_row=3, missed_intervals=None, heartbeats=False,
                                    email_to="dba@example.com")


@pytest.fixture
def end_run(django_capture_on_commit_callbacks):
    """End a run of ``target`` with ``status`` as a worker does, running what follows its commit (the alerts)."""
    def end(target: Target, status: str) -> CollectionRun:
        from django.utils import timezone

        run = CollectionRun.objects.create(target=target, status=CollectionRun.Status.RUNNING,
                                           queued_at=timezone.now(), started_at=timezone.now())
        with django_capture_on_commit_callbacks(execute=True):
            run_finish(run, status=status, error="ORA-12541: TNS:no listener" if status == "failed" else "")
        return run

    return end


@pytest.fixture
def eager_retries():
    """Retried sends re-applied in-process at once (Celery re-applies a retried eager task unless it propagates)."""
    from config.celery import app

    app.conf.task_eager_propagates = False
    yield
    app.conf.task_eager_propagates = True
