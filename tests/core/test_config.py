"""The tunables: defaults, then settings.TIERSCOPE, which the settings fill from TIERSCOPE_<NAME> variables."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from apps.core.config import CONFIG_DEFAULTS, get_config, tunables_from_env

APPS = Path(__file__).resolve().parents[2] / "apps"


@pytest.fixture
def fresh_config():
    get_config.cache_clear()
    yield
    get_config.cache_clear()


def test_it_takes_a_tunable_from_the_environment(fresh_config, settings):
    settings.TIERSCOPE = tunables_from_env({"TIERSCOPE_ORACLE_CONNECT_TIMEOUT_S": "3", "TIERSCOPE_STATISTIC": "max"})

    config = get_config()

    assert config["ORACLE_CONNECT_TIMEOUT_S"] == 3
    assert config["STATISTIC"] == "max"
    assert config["RUN_DEADLINE_S"] == CONFIG_DEFAULTS["RUN_DEADLINE_S"]


def test_a_bad_value_fails_loudly_naming_the_variable(fresh_config):
    with pytest.raises(ImproperlyConfigured, match="TIERSCOPE_COLLECT_MAX_RETRIES='three' is not an integer"):
        tunables_from_env({"TIERSCOPE_COLLECT_MAX_RETRIES": "three"})


def test_a_fractional_tunable_is_read_as_a_number(fresh_config, settings):
    settings.TIERSCOPE = tunables_from_env({"TIERSCOPE_VERDICT_MIN_SHARE": "0.5"})

    assert get_config()["VERDICT_MIN_SHARE"] == 0.5
    with pytest.raises(ImproperlyConfigured, match="TIERSCOPE_VERDICT_MIN_SHARE='half' is not a number"):
        tunables_from_env({"TIERSCOPE_VERDICT_MIN_SHARE": "half"})


def test_an_unset_or_empty_variable_leaves_the_default(fresh_config):
    assert tunables_from_env({"TIERSCOPE_RETENTION_DAYS": "", "TIERSCOPE_NOT_A_TUNABLE": "1"}) == {}


def test_the_settings_read_the_tunables_and_the_admin_from_the_environment():
    # config/settings/base.py is where the environment is read, once, at start-up.
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test", "TIERSCOPE_STATISTIC": "max",
           "TIERSCOPE_VERDICT_MIN_SHARE": "0.5", "TIERSCOPE_ADMIN_USER": "dba", "TIERSCOPE_DATA_DIR": "/srv/ts"}
    script = ("import django; django.setup(); from django.conf import settings; "
              "from apps.core.config import get_config; c = get_config(); "
              "print(c['STATISTIC'], c['VERDICT_MIN_SHARE'], settings.TIERSCOPE_ADMIN_USER, settings.TIERSCOPE_DATA_DIR)")
    result = subprocess.run([sys.executable, "-c", script], cwd=APPS.parent, env=env, capture_output=True, text=True,
                            timeout=120)

    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["max", "0.5", "dba", "/srv/ts"]


def test_no_app_reads_the_environment_itself():
    """The settings read the environment (config/env.py); the apps read the settings. The demo source is the
    one exception: a Django-free simulator whose latency knob the benchmarks set per process."""
    readers = set()
    for path in APPS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "os" \
                    and node.attr in ("environ", "getenv"):
                readers.add(str(path.relative_to(APPS)))

    assert readers == {"targets/demo/source.py"}


def test_every_tunable_is_documented_with_its_default():
    guide = (APPS.parent / "docs" / "configuration.md").read_text()
    rows = dict(re.findall(r"^\| `TIERSCOPE_([A-Z0-9_]+)` \| `([^`]*)` \|$", guide, flags=re.MULTILINE))

    assert set(rows) >= set(CONFIG_DEFAULTS)
    for name, default in CONFIG_DEFAULTS.items():
        written = eval(rows[name], {"__builtins__": {}})  # the guide writes some as the source does: `15 * 60`
        assert written == default, name
