"""The tunables: defaults, settings.TIERSCOPE, then TIERSCOPE_<NAME> environment variables."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.core.config import CONFIG_DEFAULTS, get_config


@pytest.fixture
def fresh_config():
    get_config.cache_clear()
    yield
    get_config.cache_clear()


def test_it_takes_a_tunable_from_the_environment(fresh_config, monkeypatch):
    monkeypatch.setenv("TIERSCOPE_ORACLE_CONNECT_TIMEOUT_S", "3")
    monkeypatch.setenv("TIERSCOPE_STATISTIC", "max")

    config = get_config()

    assert config["ORACLE_CONNECT_TIMEOUT_S"] == 3
    assert config["STATISTIC"] == "max"
    assert config["RUN_DEADLINE_S"] == CONFIG_DEFAULTS["RUN_DEADLINE_S"]


def test_a_bad_value_fails_loudly_naming_the_variable(fresh_config, monkeypatch):
    monkeypatch.setenv("TIERSCOPE_COLLECT_MAX_RETRIES", "three")

    with pytest.raises(ImproperlyConfigured, match="TIERSCOPE_COLLECT_MAX_RETRIES='three' is not an integer"):
        get_config()
