"""An OracleSource over a recording (tests/targets/oracle/recorded/) and the collect states the recordings were
made for: rac_awr (two instances of database RAC_DBID) and the single-instance ones (SINGLE_DBID)."""

from __future__ import annotations

import datetime as dt

from apps.targets.base import CollectState
from apps.targets.oracle.source import OracleSource

from .fakes import FakeConnect, load_recording

UTC = dt.timezone.utc
RAC_DBID = 1234567890
SINGLE_DBID = 987654321


def rac_state() -> CollectState:
    """The state of a collection of the rac_awr recording: after snapshot 100 of both instances."""
    return CollectState(
        now=dt.datetime(2024, 5, 6, 11, 6, tzinfo=UTC),
        history_start_at=dt.datetime(2024, 4, 28, tzinfo=UTC),
        last_snap_ids={(RAC_DBID, 1): 100, (RAC_DBID, 2): 100},
    )


def single_state() -> CollectState:
    """The state of a first collection of the single-instance recordings."""
    return CollectState(now=dt.datetime(2024, 5, 21, 3, 11, tzinfo=UTC),
                        history_start_at=dt.datetime(2024, 5, 13, 3, 0, tzinfo=UTC))


def source(recording: str, mode: str, **fake: object) -> tuple[OracleSource, FakeConnect]:
    """An OracleSource in ``mode`` over ``recording`` (FakeConnect options ``fake``), and its connection."""
    connect = FakeConnect(load_recording(recording), **fake)  # type: ignore[arg-type]
    return OracleSource(dsn="dbhost1:1521/PROD", user="TIERSCOPE", password="s3cret", mode=mode,
                        connect=connect), connect
