"""The fault suite's private stack keeps to its own data directory, whatever the test run's environment holds."""

from __future__ import annotations

from tests.faults.conftest import DATA_DIR
from tests.faults.stack import ROOT, PrivateStack


def test_its_static_files_are_its_own_not_those_the_tests_beside_it_read(monkeypatch):
    # make test exports the checkout's STATIC_ROOT (scripts/dev/stack.sh load_env); inherited, the stack's
    # collectstatic rewrote the files the tests beside it were reading (a CI's FileNotFoundError in WhiteNoise).
    monkeypatch.setenv("STATIC_ROOT", str(ROOT / ".data" / "staticfiles"))

    env = PrivateStack(DATA_DIR).env()

    assert "STATIC_ROOT" not in env  # stack.sh then puts it under the stack's TIERSCOPE_DATA_DIR
    assert env["TIERSCOPE_DATA_DIR"] == str(DATA_DIR)
