"""A move applied to the demo database: its built-in segment (KEY) moved to FLASH_DATA 84 snapshots before
the last full one at NOW (LATEST). Pure: no database."""

from __future__ import annotations

import datetime as dt

from apps.targets.demo import moves
from apps.targets.demo.moves import DemoMove
from apps.targets.demo.schema import last_full_snap_id

NOW = dt.datetime(2026, 11, 25, 13, 20, tzinfo=dt.timezone.utc)
LATEST = last_full_snap_id(NOW)
KEY = moves.BUILTIN_SEGMENT
MOVE = DemoMove(LATEST - 84, KEY, "FLASH_DATA")
