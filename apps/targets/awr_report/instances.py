"""How many instances a RAC database had, as an instance report states it (pure).

An AWR instance report (awrrpt.sql / awrrpti.sql) of a RAC database measures one
instance; its "RAC Statistics" section prints ``Number of Instances:`` at the
begin and end snapshots. The database's figure for the interval is the sum over
that many instance reports (or one global report, awrgrpt.sql): with fewer, every
figure is a lower bound.

>>> database_instances("Number of Instances:     2     3")
3
>>> database_instances("<td>Number of Instances:</td><td align='right'>    2</td><td>    2</td>")
2
>>> database_instances("no such line") is None
True
"""

from __future__ import annotations

import re

_LABEL_RE = re.compile(r"Number of Instances:", re.IGNORECASE)
_TAG_RE = re.compile(r"<[^>]*>")
_NUMBERS_RE = re.compile(r"^\s*(\d{1,3})(?:\s+(\d{1,3}))?")

#: Characters after the label read for its values (the rest of its table row, in HTML).
_WINDOW = 400


def database_instances(document: str) -> int | None:
    """The instances at the end snapshot (the begin one when only one value is printed); None when the report
    does not say (a single-instance database, or a report without the RAC Statistics section)."""
    found = _LABEL_RE.search(document)
    if found is None:
        return None
    after = _TAG_RE.sub(" ", document[found.end():found.end() + _WINDOW])
    numbers = _NUMBERS_RE.match(after)
    if numbers is None:
        return None
    value = int(numbers.group(2) or numbers.group(1))
    return value if value > 0 else None
