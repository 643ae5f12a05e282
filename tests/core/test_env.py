from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_float, env_int, env_secret, env_str


class EnvTests:
    def test_it_reads_booleans_strictly(self, monkeypatch):
        monkeypatch.setenv("X_FLAG", "yes")
        assert env_bool("X_FLAG") is True
        monkeypatch.setenv("X_FLAG", "maybe")
        with pytest.raises(ImproperlyConfigured, match="X_FLAG"):
            env_bool("X_FLAG")

    def test_it_defaults_debug_to_off(self, monkeypatch):
        monkeypatch.delenv("X_UNSET", raising=False)
        assert env_bool("X_UNSET") is False

    def test_it_names_a_missing_required_variable(self, monkeypatch):
        monkeypatch.delenv("X_REQUIRED", raising=False)
        with pytest.raises(ImproperlyConfigured, match="X_REQUIRED"):
            env_str("X_REQUIRED")

    def test_it_rejects_a_non_integer(self, monkeypatch):
        monkeypatch.setenv("X_NUM", "ten")
        with pytest.raises(ImproperlyConfigured, match="X_NUM"):
            env_int("X_NUM", 1)

    @pytest.mark.parametrize(("read", "raw", "value", "bad", "refusal"), [
        (env_int, "12", 12, "1.5", "Environment variable X_NUM='1.5' is not an integer."),
        (env_float, "1.5", 1.5, "1.5x", "Environment variable X_NUM='1.5x' is not a number."),
    ])
    def test_it_reads_a_number_or_says_what_a_bad_one_is_not(self, monkeypatch, read, raw, value, bad, refusal):
        monkeypatch.setenv("X_NUM", "")
        assert read("X_NUM", 7) == 7
        monkeypatch.setenv("X_NUM", raw)
        assert read("X_NUM", 7) == value
        monkeypatch.setenv("X_NUM", bad)
        with pytest.raises(ImproperlyConfigured) as refused:
            read("X_NUM", 7)
        assert str(refused.value) == refusal

    def test_it_reads_a_secret_from_a_file(self, monkeypatch, tmp_path):
        secret = tmp_path / "s"
        secret.write_text("s3cret\n")
        monkeypatch.setenv("X_SECRET_FILE", str(secret))
        assert env_secret("X_SECRET") == "s3cret"
