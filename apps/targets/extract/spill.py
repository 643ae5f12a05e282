"""Rows too many to hold in memory, kept in an anonymous temporary file and read back a part at a time.

An extract's seg_stat.csv holds a row per segment per snapshot: weeks of AWR history of a large database
are tens of millions of rows, gigabytes of CSV. The reader types and checks them as they stream by and
spills them here in parts of :data:`PART_ROWS`; each snapshot's segment statistics are then a
:class:`Spilled` sequence that loads its parts when iterated, so storage writes one snapshot's rows at a
time and the import's memory does not grow with the extract. The file is unlinked at once (it
disappears with the process, whatever happens) and closed when the last sequence reading it is
collected. Pure: standard library only.
"""

from __future__ import annotations

import itertools
import os
import pickle
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

#: Rows per part: large enough that a part's pickle is cheap, small enough to stay a few MB in memory.
PART_ROWS = 20_000

#: Where a part lies in the spill file: (offset, length in bytes, rows).
Part = tuple[int, int, int]


class Spill:
    """An append-only anonymous temporary file of pickled lists (only this process writes and reads it)."""

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="tierscope-extract-")
        self._end = 0

    def put(self, items: list[Any]) -> Part:
        data = pickle.dumps(items, protocol=pickle.HIGHEST_PROTOCOL)
        offset = self._end
        view = memoryview(data)
        while view:
            written = os.pwrite(self._file.fileno(), view, self._end)
            view, self._end = view[written:], self._end + written
        return offset, len(data), len(items)

    def get(self, part: Part) -> list[Any]:
        offset, length, _rows = part
        return pickle.loads(os.pread(self._file.fileno(), length, offset))


class Spilled(Sequence):
    """A sequence whose items lie in a :class:`Spill`, loaded a part at a time when iterated."""

    def __init__(self, spill: Spill, parts: Sequence[Part]) -> None:
        self._spill = spill
        self._parts = tuple(parts)
        self._len = sum(part[2] for part in self._parts)

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Any]:
        for part in self._parts:
            yield from self._spill.get(part)

    def parts(self) -> Iterator[list[Any]]:
        """The items, one loaded part (a list) at a time."""
        return (self._spill.get(part) for part in self._parts)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._len
        for part in self._parts:
            if 0 <= index < part[2]:
                return self._spill.get(part)[index]
            index -= part[2]
        raise IndexError("spilled sequence index out of range")

    # Equal to any sequence of the same items, as the tuple it stands for (a Snapshot compares its stats).
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (Sequence, Spilled)) or isinstance(other, (str, bytes)):
            return NotImplemented
        return len(self) == len(other) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"<Spilled: {self._len} items in {len(self._parts)} parts>"


def spilled(items: Iterable[Any], *, part_rows: int = PART_ROWS) -> Spilled:
    """``items`` (consumed as they come) in a new spill file."""
    spill = Spill()
    iterator = iter(items)
    parts = []
    while part := list(itertools.islice(iterator, part_rows)):
        parts.append(spill.put(part))
    return Spilled(spill, parts)


_Key = TypeVar("_Key", bound=Hashable)


def spilled_groups(items: Spilled, group: Callable[[list[Any]], Iterable[tuple[_Key, list[Any]]]]
                   ) -> dict[_Key, Spilled]:
    """The items regrouped: ``group`` maps one loaded part to (key, items) runs; each key's items, in the
    order they come, become one :class:`Spilled` sequence in a new spill file (runs of one key that lie in
    several parts are joined)."""
    spill = Spill()
    parts: dict[_Key, list[Part]] = {}
    for part in items.parts():
        for key, run in group(part):
            parts.setdefault(key, []).append(spill.put(run))
    return {key: Spilled(spill, key_parts) for key, key_parts in parts.items()}
