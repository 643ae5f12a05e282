from __future__ import annotations

from django.core.checks import run_checks
from django.test import SimpleTestCase, override_settings


class SystemChecksTests(SimpleTestCase):
    def test_it_passes_with_the_project_settings(self):
        ids = {message.id for message in run_checks()}
        assert "core.E001" not in ids and "core.E002" not in ids

    @override_settings(TIME_ZONE="Europe/Paris")
    def test_it_refuses_a_time_zone_other_than_utc(self):
        assert "core.E001" in {message.id for message in run_checks()}

    @override_settings(TIERSCOPE_FERNET_KEY="not-a-key")
    def test_it_refuses_an_invalid_fernet_key(self):
        assert "core.E002" in {message.id for message in run_checks()}
