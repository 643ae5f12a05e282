"""Turn python-oracledb errors into SourceError messages a DBA can act on.

Each mapping says whether retrying can help (``permanent``) and what to do: which grant is
missing, which DSN is unreachable, which mode or tool to use instead.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from apps.targets.base import SourceError
from apps.targets.oracle.connection import CALL_GRACE_S, OracleTimeout

GRANT_SCRIPT = "scripts/oracle/create_monitor_user.sql"
EXTRACT_SCRIPT = "scripts/oracle/tierscope_extract.sql"


@dataclass(frozen=True)
class ErrorInfo:
    """The parts of an oracledb error that the mapping reads (``e.args[0]`` of the exception)."""

    full_code: str  # "ORA-00942", "DPY-6005"
    code: int  # Oracle error number; 0 for pure driver errors
    message: str


class StatementFailed(Exception):
    """A statement raised a driver error; carries which statement and which views it reads.

    queries.py raises it (chained to the driver error) so the mapping can name the statement.
    """

    def __init__(self, statement: str, views: tuple[str, ...]) -> None:
        super().__init__(f"statement {statement} failed")
        self.statement = statement
        self.views = views


def error_info(exc: BaseException) -> ErrorInfo:
    """Read code, full code and message from an oracledb exception (or a faithful fake)."""
    detail = exc.args[0] if exc.args else None
    full_code = str(getattr(detail, "full_code", "") or "")
    code = int(getattr(detail, "code", 0) or 0)
    message = str(getattr(detail, "message", "") or detail or exc)
    if not full_code and message[:4] in ("ORA-", "DPY-", "DPI-") and ":" in message:
        full_code = message.split(":", 1)[0]
    return ErrorInfo(full_code=full_code, code=code, message=message.splitlines()[0] if message else "")


_CODE_PREFIX = re.compile(r"^(?:ORA|DPY|DPI)-\d+:\s*")
_CONNECTION_ID = re.compile(r"\s*\(CONNECTION_ID=[^)]*\)")


def detail_text(info: ErrorInfo) -> str:
    """The driver's message without its code prefix, connection id or trailing dots.

    >>> detail_text(ErrorInfo("DPY-6005", 0, "DPY-6005: cannot connect to database (CONNECTION_ID=x).."))
    'cannot connect to database'
    """
    text = _CONNECTION_ID.sub("", _CODE_PREFIX.sub("", info.message))
    return text.rstrip(". ")


def grant_object(view: str) -> str:
    """The object a GRANT must name for ``view``: SYS.V_$X for V$X (granting on the V$ synonym
    fails with ORA-02030), SYS.DBA_X for DBA_X.

    >>> grant_object("GV$BH")
    'SYS.GV_$BH'
    """
    name = view.upper()
    if name.startswith(("V$", "GV$")):
        name = name.replace("$", "_$", 1)
    return f"SYS.{name}"


#: The causes of a DPY-6005 (cannot connect) that say what is wrong: the exception the driver chains (or the
#: words its message's later lines hold), and what it means.
_CONNECT_FAILURES: tuple[tuple[type[BaseException], str, str], ...] = (
    (ConnectionRefusedError, "connection refused",
     "refused the connection: nothing listens on that host and port. Check host and port, and that the listener "
     "is up"),
    (TimeoutError, "timed out",
     "did not accept a TCP connection within the connect limit — host down, wrong address or a firewall dropping "
     "packets"),
)


def source_error_from(
    exc: BaseException,
    *,
    dsn: str,
    user: str,
    statement: str | None = None,
    views: tuple[str, ...] = (),
) -> SourceError:
    """Map a python-oracledb exception to a SourceError (permanent or transient, with advice)."""
    info = error_info(exc)
    full, code = info.full_code, info.code
    where = f" (statement {statement})" if statement else ""
    if code == 1017 or full == "ORA-01017":
        return SourceError(
            f"ORA-01017 at {dsn}: user {user} or its password was refused. Check the target's "
            "credentials in tierscope, and that the account is not locked or expired.",
            permanent=True,
            code=full or "ORA-01017",
        )
    if code in (942, 1031) or full in ("ORA-00942", "ORA-01031"):
        return SourceError(_grant_message(info, dsn=dsn, user=user, statement=statement, views=views),
                           permanent=True, code=full)
    if code == 904 or full == "ORA-00904":
        return SourceError(
            f"ORA-00904 at {dsn}{where}: {detail_text(info)}. A column the statement reads does not "
            "exist in this Oracle release; report the release (V$INSTANCE.VERSION) and statement "
            "to the tierscope maintainers.",
            permanent=True,
            code=full,
        )
    if full == "DPY-3010":
        return SourceError(
            f"DPY-3010 at {dsn}: the server is older than 12.1 (e.g. 11.2) and python-oracledb "
            f"Thin mode needs 12.1 or later. Have the DBA run {EXTRACT_SCRIPT} in SQL*Plus and "
            "load its CSV files with `manage.py import_extract`.",
            permanent=True,
            code=full,
        )
    if full == "DPY-6005":
        for cause, text, meaning in _CONNECT_FAILURES:
            if _caused_by(exc, cause, text):
                return SourceError(f"DPY-6005: {dsn} {meaning}; tierscope will retry.", permanent=False, code=full)
    if full in ("DPY-6005", "DPY-6001") or code in (12541, 12514):
        return SourceError(
            f"{full or f'ORA-{code:05d}'}: cannot reach the database at {dsn}: {detail_text(info)}. "
            "Check host, port and service name, and that the listener and instance are up; "
            "tierscope will retry.",
            permanent=False,
            code=full or f"ORA-{code:05d}",
        )
    if full == "DPY-4024":
        return SourceError(
            f"DPY-4024 at {dsn}{where}: the database did not answer within the call timeout; "
            "tierscope will retry. If it keeps happening the statement is too slow on this "
            "database (large SGA or AWR) and the timeout needs raising.",
            permanent=False,
            code=full,
        )
    if full == "DPY-4011":
        return SourceError(
            f"DPY-4011 at {dsn}{where}: the database or network closed the connection; "
            "tierscope will retry.",
            permanent=False,
            code=full,
        )
    return SourceError(
        f"{full or 'Oracle error'} at {dsn}{where}: {detail_text(info)}",
        permanent=False,
        code=full,
    )


def _grant_message(info: ErrorInfo, *, dsn: str, user: str, statement: str | None,
                   views: tuple[str, ...]) -> str:
    """ORA-00942/01031 advice: the statement, the views it reads and the grants to give."""
    grants = "; ".join(f"GRANT SELECT ON {grant_object(view)} TO {user}" for view in views)
    reads = ", ".join(views) if views else "Oracle catalog views"
    doing = f"running statement {statement}" if statement else "reading the catalog"
    return (
        f"{info.full_code} at {dsn} {doing}: user {user} cannot read one of {reads}. "
        f"As a DBA run: {grants or 'GRANT SELECT_CATALOG_ROLE TO ' + user}; "
        f"(or GRANT SELECT_CATALOG_ROLE TO {user}, broader). "
        f"{GRANT_SCRIPT} creates a monitoring user with every grant tierscope needs."
    )


def _caused_by(exc: BaseException, kind: type[BaseException], text: str) -> bool:
    """Whether the driver error was caused by ``kind`` (its chained cause, or its message's later lines)."""
    cause = exc.__cause__
    while cause is not None:
        if isinstance(cause, kind):
            return True
        cause = cause.__cause__
    return text in str(exc).lower()


def source_error_from_timeout(exc: OracleTimeout, *, dsn: str, target: str, work: str = "collection") -> SourceError:
    """A limit of ours passed (connect, call or whole run): transient, with what it means for a DBA."""
    limit = f"{exc.limit_s:g} s"
    if exc.phase == "connect":
        message = (f"{dsn} accepted the connection but did not answer within {limit} — listener hung or a "
                   "firewall dropping packets; tierscope will retry.")
    elif exc.phase == "call":
        message = (f"{dsn} stopped answering: a round trip got no answer within {limit} (the call timeout "
                   f"plus {CALL_GRACE_S:g} s for the break) — database hung or the network dropped the "
                   "connection; tierscope will retry.")
    else:
        message = (f"The {work} of {target} stopped: reading {dsn} passed its whole-run limit of {limit} "
                   "(COLLECT_RUN_TIMEOUT_S); tierscope will retry. If it keeps happening the database is too "
                   "slow or too large for the limit and it needs raising.")
    return SourceError(message, permanent=False, code=f"{exc.phase.upper()}-TIMEOUT")
