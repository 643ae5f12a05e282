"""A 500 leaves its traceback on stderr, which supervisord (.data/log/web.log), compose and journald capture."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from django.contrib.auth.decorators import login_not_required
from django.urls import path

ROOT = Path(__file__).resolve().parents[2]


@login_not_required
def boom(request):
    return 1 // 0


urlpatterns = [path("boom", boom)]

# Run in a fresh interpreter with production-like settings (DEBUG off), as gunicorn would.
_REQUEST_A_500 = """
import django
django.setup()
from django.test import Client
from django.test.utils import override_settings
with override_settings(ROOT_URLCONF="tests.core.test_logging", ALLOWED_HOSTS=["testserver"]):
    print("status", Client(raise_request_exception=False).get("/boom").status_code)
"""


class LoggingTests:
    def test_a_500_writes_its_traceback_to_stderr(self):
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "0"}
        done = subprocess.run([sys.executable, "-c", _REQUEST_A_500], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)

        assert "status 500" in done.stdout, done.stderr
        # The request logger's record, with the whole traceback, once.
        assert "ERROR django.request Internal Server Error: /boom" in done.stderr
        assert "Traceback (most recent call last)" in done.stderr
        assert "ZeroDivisionError" in done.stderr
        assert done.stderr.count("Internal Server Error: /boom") == 1

    def test_a_quiet_command_writes_nothing_on_stderr(self):
        # django-axes logged its version at INFO on every command; a script reading stderr saw it each time.
        done = _manage("check")

        assert done.returncode == 0, done.stderr
        assert "no issues" in done.stdout
        assert done.stderr == ""

    def test_a_command_shows_the_apps_messages_and_the_libraries_warnings_not_their_info(self):
        done = _manage("shell", "-c", _LOG_LINES)

        assert done.returncode == 0, done.stderr
        assert "WARNING apps.snapshots.runs app warning" in done.stderr
        assert "INFO apps.tiering.tasks app info" in done.stderr
        assert "WARNING kombu library warning" in done.stderr
        assert "library info" not in done.stderr


_LOG_LINES = """
import logging
logging.getLogger("apps.snapshots.runs").warning("app warning")
logging.getLogger("apps.tiering.tasks").info("app info")
logging.getLogger("kombu").warning("library warning")
logging.getLogger("axes.apps").info("library info")
"""


def _manage(*args: str) -> subprocess.CompletedProcess[str]:
    """A real `manage.py` as a DBA runs it (local settings), its stdout and stderr apart."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local"}
    env.pop("LOG_LEVEL", None)
    env.pop("LIBRARY_LOG_LEVEL", None)
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
