"""What most tests share: their "now" (where stored figures end and refreshes run) and the units of their figures.

The named actors (a viewer, an admin, the demo target on the seed tiers) are fixtures in tests/conftest.py;
targets with stored figures are built by the helper modules beside the tests that read them (for example
tests/tiering/stored_targets.py, tests/snapshots/stored_series.py).

New tests take one style: pytest, in ``tests/<app>/test_<module>.py`` mirroring apps/, classes ``<Thing>Tests``
with ``test_it_<does_what>`` methods (or plain test functions), actors and stored targets from fixtures, helpers
imported from helper modules (never from another ``test_*`` module: tests/test_layout_rules.py checks it), no
wall-clock bounds (timings go to bench/).
"""

from __future__ import annotations

import datetime as dt

#: The tests' "now": the end of the last hourly snapshot a stored target holds, and when its refresh runs.
NOW = dt.datetime(2026, 11, 20, 12, 0, tzinfo=dt.timezone.utc)
GB = 1024**3
