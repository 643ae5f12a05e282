"""Real python-oracledb exceptions, built as the driver raises them: ORA- errors from the server and DPY-
errors of the driver (its private constructors: the public ones need a live connection)."""

from __future__ import annotations

from oracledb import errors as oracledb_errors


def ora(code: int, text: str) -> Exception:
    """The ORA-``code`` error python-oracledb raises when the server answers with it."""
    error = oracledb_errors._Error(f"ORA-{code:05d}: {text}", code=code)
    return error.exc_type(error)


def dpy(number: int, **args: object) -> Exception:
    """The DPY-``number`` error the driver itself raises (``args`` fill its message)."""
    return oracledb_errors._create_exception(number, **args)
