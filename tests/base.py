"""What most tests share: the clock they are frozen at and the units their figures are written in.

The named actors (a viewer, an admin, the demo target on the seed tiers) are fixtures in tests/conftest.py;
targets with stored figures are built by the helper modules beside the tests that read them (for example
tests/tiering/stored_targets.py, tests/snapshots/stored_series.py).
"""

from __future__ import annotations

import datetime as dt

#: The tests' "now": the end of the last hourly snapshot a stored target holds, and when its refresh runs.
NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
GB = 1024**3
