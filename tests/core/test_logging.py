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
