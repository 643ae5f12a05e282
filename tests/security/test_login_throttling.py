"""Password guessing: locked out per user and address after a few failures, logged, unlockable."""

from __future__ import annotations

import datetime as dt
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
LOGIN = "/accounts/login/"
ATTACKER = "203.0.113.66"
LIMIT = 5  # AXES_FAILURE_LIMIT, as docs/security.md says


def attempt(client: Client, username: str, password: str, address: str = ATTACKER, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=address, **extra)


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def guess(username: str, times: int, address: str = ATTACKER, **extra) -> Client:
    client = Client()
    for n in range(times):
        attempt(client, username, f"guess-{n}", address, **extra)
    return client


class LockoutTests:
    @pytest.mark.parametrize("wrong", [50, 30, LIMIT])
    def test_it_refuses_the_right_password_after_wrong_ones(self, viewer, wrong):
        client = guess("vera", wrong)

        response = attempt(client, "vera", "vera-pass-1")
        assert not logged_in(client)
        assert response.status_code == 429
        # The lockout page: our template, with what happened and when to come back.
        page = response.content.decode()
        assert "Too many failed logins" in page and "15 minutes" in page
        assert 'class="topbar"' in page

    def test_it_lets_the_user_in_before_the_limit(self, viewer):
        client = guess("vera", LIMIT - 1)
        assert attempt(client, "vera", "vera-pass-1").status_code == 302
        assert logged_in(client)

    def test_it_lets_the_user_in_again_after_the_cool_off(self, viewer):
        with time_machine.travel(dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC), tick=False) as clock:
            client = guess("vera", 50)
            clock.shift(dt.timedelta(minutes=14))
            assert attempt(client, "vera", "vera-pass-1").status_code == 429
            clock.shift(dt.timedelta(minutes=16))  # the refused attempt above started the cool-off again
            assert attempt(client, "vera", "vera-pass-1").status_code == 302
            assert logged_in(client)

    def test_a_viewers_lockout_does_not_lock_the_admin_out(self, viewer, admin_user):
        guess("vera", 50)

        # The admin from another address, and even from the same one, logs in.
        for address in ("192.0.2.10", ATTACKER):
            client = Client()
            assert attempt(client, "ada", "ada-pass-1", address).status_code == 302
            assert logged_in(client)

    def test_it_locks_the_user_out_from_that_address_only(self, viewer):
        guess("vera", 50)

        client = Client()
        assert attempt(client, "vera", "vera-pass-1", "192.0.2.10").status_code == 302

    def test_a_forged_forwarded_for_header_does_not_dodge_the_lockout(self, viewer):
        client = Client()
        for n in range(20):
            attempt(client, "vera", f"guess-{n}", HTTP_X_FORWARDED_FOR=f"10.9.{n}.1")
        assert attempt(client, "vera", "vera-pass-1", HTTP_X_FORWARDED_FOR="10.9.99.1").status_code == 429

    def test_behind_a_configured_proxy_it_counts_the_forwarded_address(self, viewer, settings):
        settings.TIERSCOPE_PROXY_COUNT = 1  # one reverse proxy appends the client's address
        proxy = "10.0.0.2"
        guess("vera", 50, proxy, HTTP_X_FORWARDED_FOR=ATTACKER)

        from axes.models import AccessAttempt
        assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {ATTACKER}
        # Another client behind the same proxy is not locked out.
        client = Client()
        assert attempt(client, "vera", "vera-pass-1", proxy, HTTP_X_FORWARDED_FOR="192.0.2.10").status_code == 302


class AuditTrailTests:
    def test_every_failure_is_logged_with_address_and_user(self, viewer, caplog):
        with caplog.at_level(logging.INFO, logger="axes"):
            guess("vera", 7)

        failures = [r for r in caplog.records if r.name.startswith("axes") and "login failure by" in r.getMessage()]
        assert len(failures) == 7
        assert all(ATTACKER in r.getMessage() and "vera" in r.getMessage() for r in failures)
        assert all(r.levelno == logging.WARNING for r in failures)
        assert any("Locking out" in r.getMessage() for r in caplog.records)

    def test_every_failure_is_kept_in_the_database_with_its_time(self, viewer):
        from axes.models import AccessAttempt, AccessFailureLog

        guess("vera", 50)

        attempt_row = AccessAttempt.objects.get(username="vera", ip_address=ATTACKER)
        assert attempt_row.failures_since_start == 50
        assert AccessFailureLog.objects.filter(username="vera", ip_address=ATTACKER).count() == 50
        assert AccessFailureLog.objects.filter(locked_out=True).count() == 50 - LIMIT + 1
        # No password in what is kept.
        assert "guess-" not in attempt_row.post_data

    def test_the_log_line_reaches_stderr(self):
        from django.db import connection

        db = connection.settings_dict
        env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.local", "DEBUG": "0",
               "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}
        done = subprocess.run([sys.executable, "-c", _FAIL_ONCE], cwd=ROOT, env=env,
                              capture_output=True, text=True, timeout=60)
        assert "done" in done.stdout, done.stderr
        assert "WARNING axes.handlers.database AXES: New login failure by" in done.stderr
        assert "mallory" in done.stderr and "198.51.100.23" in done.stderr


# A failed login as gunicorn would see it, rolled back so the test database is left as it was. The page's static
# files are named as they are (not by the manifest collectstatic writes): the log line needs no collected files.
_FAIL_ONCE = """
import django
django.setup()
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.test.utils import override_settings
class Undo(Exception):
    pass
plain = {**settings.STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}
try:
    with override_settings(ALLOWED_HOSTS=["testserver"], STORAGES=plain), transaction.atomic():
        Client(REMOTE_ADDR="198.51.100.23").post("/accounts/login/", {"username": "mallory", "password": "x"})
        raise Undo
except Undo:
    print("done")
"""


class UnlockTests:
    def test_axes_reset_username_unlocks(self, viewer):
        client = guess("vera", 50)

        call_command("axes_reset_username", "vera")

        assert attempt(client, "vera", "vera-pass-1").status_code == 302

    def test_axes_reset_ip_unlocks(self, viewer):
        client = guess("vera", 50)

        call_command("axes_reset_ip", ATTACKER)

        assert attempt(client, "vera", "vera-pass-1").status_code == 302

    def test_an_admin_unlocks_in_the_admin(self, viewer, admin_client):
        from axes.models import AccessAttempt

        client = guess("vera", 50)
        row = AccessAttempt.objects.get(username="vera")

        assert admin_client.get("/admin/axes/accessattempt/").status_code == 200
        response = admin_client.post(f"/admin/axes/accessattempt/{row.pk}/delete/", {"post": "yes"})
        assert response.status_code == 302

        assert attempt(client, "vera", "vera-pass-1").status_code == 302

    def test_a_success_before_the_limit_starts_the_count_again(self, viewer):
        from axes.models import AccessAttempt

        client = guess("vera", LIMIT - 1)
        assert attempt(client, "vera", "vera-pass-1").status_code == 302
        assert not AccessAttempt.objects.filter(username="vera").exists()


class LoginPageTests:
    def test_the_documented_limits_are_the_settings(self):
        assert settings.AXES_FAILURE_LIMIT == LIMIT
        assert settings.AXES_COOLOFF_TIME == dt.timedelta(minutes=15)
        assert settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"

    def test_the_browser_login_form_still_works(self, viewer):
        client = Client()
        response = client.post(LOGIN, {"username": "vera", "password": "vera-pass-1"})
        assert response.status_code == 302 and logged_in(client)

    def test_force_login_is_unaffected(self, viewer_client):
        assert viewer_client.get("/").status_code == 200
