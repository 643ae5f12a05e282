"""`manage.py check --deploy` under production settings over TLS: not one warning."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def deploy_check(**extra: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECURE_SSL": "1",
        "SECRET_KEY": secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "tierscope.example.com",
        **extra,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests' fixture; async.E001 in a deployment
    return subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


class DeployCheckTests:
    def test_it_is_clean_under_production_settings_over_tls(self):
        done = deploy_check()

        assert done.returncode == 0, done.stdout + done.stderr
        assert "System check identified no issues" in done.stdout
        assert "WARNING" not in done.stderr, done.stderr

    def test_hsts_is_a_year_with_subdomains_and_preload(self):
        code = ("from django.conf import settings as s; print(s.SECURE_HSTS_SECONDS, s.SECURE_HSTS_INCLUDE_SUBDOMAINS,"
                " s.SECURE_HSTS_PRELOAD, s.SECURE_SSL_REDIRECT, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE)")
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.production", "SECURE_SSL": "1"}
        done = subprocess.run([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.stdout.splitlines()[-1].split() == ["31536000", "True", "True", "True", "True", "True"], done.stderr
