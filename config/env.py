"""Typed readers for configuration from the environment.

Every setting that differs between machines comes from here. Each helper
raises ImproperlyConfigured on a bad value instead of guessing; secrets may
also come from a file named by ``<NAME>_FILE`` (Docker/Kubernetes secrets).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}
_Number = TypeVar("_Number", int, float)


def env_str(name: str, default: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    value = environ.get(name)
    if value is None or value == "":
        if default is None:
            raise ImproperlyConfigured(
                f"Environment variable {name} is required (see .env.example; `make run` writes .env for development)."
            )
        return default
    return value


def env_bool(name: str, default: bool = False, environ: Mapping[str, str] = os.environ) -> bool:
    """``name`` of ``environ`` (the process's environment unless given) as a boolean; other words refused."""
    raw = environ.get(name)
    if raw is None:
        return default
    lowered = raw.strip().lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(f"Environment variable {name}={raw!r} is not a boolean (use 1/0, true/false).")


def env_int(name: str, default: int, environ: Mapping[str, str] = os.environ) -> int:
    return _env_number(name, default, int, "an integer", environ)


def env_float(name: str, default: float, environ: Mapping[str, str] = os.environ) -> float:
    return _env_number(name, default, float, "a number", environ)


def _env_number(name: str, default: _Number, parse: Callable[[str], _Number], what: str,
                environ: Mapping[str, str]) -> _Number:
    """``name`` of ``environ`` read by ``parse`` (``default`` when unset or empty); refused when it is not ``what``."""
    raw = environ.get(name)
    if raw is None or raw == "":
        return default
    try:
        return parse(raw)
    except ValueError:
        raise ImproperlyConfigured(f"Environment variable {name}={raw!r} is not {what}.") from None


def env_like(name: str, default: object, environ: Mapping[str, str] = os.environ) -> object:
    """``name`` read as the type of ``default`` (bool, int, float or str)."""
    if isinstance(default, bool):
        return env_bool(name, default, environ)
    if isinstance(default, int):
        return env_int(name, default, environ)
    if isinstance(default, float):
        return env_float(name, default, environ)
    return env_str(name, str(default), environ)


def env_list(name: str, default: str = "") -> list[str]:
    raw = os.environ.get(name, default)
    return [part.strip() for part in raw.split(",") if part.strip()]


def env_secret(name: str, default: str | None = None, environ: Mapping[str, str] = os.environ) -> str:
    """A secret, from ``NAME`` or from the file named by ``NAME_FILE``; required unless ``default`` is given."""
    file_name = environ.get(f"{name}_FILE")
    if file_name:
        try:
            with open(file_name, encoding="utf-8") as handle:
                return handle.read().strip()
        except OSError as exc:
            raise ImproperlyConfigured(f"{name}_FILE={file_name!r} cannot be read: {exc.strerror}.") from None
    return env_str(name, default, environ)
