"""Does each move of a plan have room where it goes? Pure: standard library only.

A move needs the segment's size free in its destination tablespace while it runs (Oracle builds
the new copy there before it drops the old one) and frees that size at its source once done. So
moves are checked in the order they run, each against the room the moves before it left:

* room = max size - used (``max_size_bytes``: what the files may grow to, autoextend counted;
  whether the file system under an autoextensible file has that room is not known here);
* every move before it counts, those that did not fit too: the plan runs them all (the DBA adds
  the space they lack first), so a shortfall is what the destination lacks for the plan up to
  and including that move.

Unknown stays unknown, never 0: a move of a segment whose size is not known, into a tablespace
whose room is not known (not collected, size or max unknown), or to no tablespace at all (none
mapped to its tier) gets ``fits=None`` and ``shortfall_bytes=None``; after a move of unknown
size into a tablespace its room is unknown, and after one out of it its room is only a lower
bound (a move that fits in it still fits; one that does not is then unknown).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol


class Room(Protocol):
    """What feasibility reads of a tablespace (apps.targets.rows.TablespaceSpace has it)."""

    used_bytes: int | None
    max_size_bytes: int | None


@dataclass(frozen=True, slots=True)
class Move:
    """One move in the order it runs: the segment's size, where it is and where it goes (None: nowhere
    known, e.g. no tablespace mapped to its tier)."""

    size_bytes: int | None
    from_tablespace: str
    to_tablespace: str | None


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Whether a move's destination has room for it, counting the moves before it.

    ``fits`` None: not known. ``shortfall_bytes``: 0 when it fits, what the destination lacks when
    it does not, None when not known. ``room_after_bytes``: the destination's room once the move
    is done (negative: short by that much; None: not known; a lower bound when ``room_exact`` is
    False).
    """

    fits: bool | None
    shortfall_bytes: int | None
    room_after_bytes: int | None
    room_exact: bool = True


@dataclass(frozen=True)
class Feasibility:
    """Each move's check, in the moves' order, and every tablespace's room once all have run (exact, or a
    lower bound where a move of unknown size went out of it)."""

    checks: tuple[MoveCheck, ...]
    room_after_bytes: dict[str, int | None]
    room_after_exact: dict[str, bool]

    @property
    def short(self) -> tuple[int, ...]:
        """Indexes of the moves that lack room."""
        return tuple(index for index, check in enumerate(self.checks) if check.fits is False)


@dataclass(slots=True)
class _Ledger:
    room: int | None  # None: unknown
    exact: bool = True  # False: room is a lower bound (moves of unknown size went out)


def _ledger(space: Room | None) -> _Ledger:
    if space is None or space.used_bytes is None or space.max_size_bytes is None:
        return _Ledger(None)
    return _Ledger(space.max_size_bytes - space.used_bytes)


def feasibility(moves: Sequence[Move], space: Mapping[str, Room]) -> Feasibility:
    """Check ``moves`` in order against ``space`` (room per tablespace, by name).

    >>> from apps.targets.rows import TablespaceSpace
    >>> space = {"FLASH": TablespaceSpace("FLASH", 100, 90, 100), "DISK": TablespaceSpace("DISK", 500, 200, 1000)}
    >>> result = feasibility([Move(30, "FLASH", "DISK"), Move(25, "DISK", "FLASH"), Move(20, "DISK", "FLASH")], space)
    >>> [(c.fits, c.shortfall_bytes, c.room_after_bytes) for c in result.checks]
    [(True, 0, 770), (True, 0, 15), (False, 5, -5)]
    >>> result.room_after_bytes
    {'DISK': 815, 'FLASH': -5}
    """
    ledgers: dict[str, _Ledger] = {}

    def ledger(name: str) -> _Ledger:
        if name not in ledgers:
            ledgers[name] = _ledger(space.get(name))
        return ledgers[name]

    checks = [_apply(move, ledger) for move in moves]
    for name in space:
        ledger(name)
    names = sorted(ledgers)
    return Feasibility(checks=tuple(checks), room_after_bytes={name: ledgers[name].room for name in names},
                       room_after_exact={name: ledgers[name].exact for name in names})


def _apply(move: Move, ledger: Callable[[str], _Ledger]) -> MoveCheck:
    if move.to_tablespace is None:
        # Goes nowhere known: it takes no room anywhere we count, and frees none until it can run.
        return MoveCheck(fits=None, shortfall_bytes=None, room_after_bytes=None, room_exact=False)
    destination, source = ledger(move.to_tablespace), ledger(move.from_tablespace)
    check = _check(move.size_bytes, destination)
    if move.size_bytes is None:
        destination.room = None
        source.exact = False
    else:
        if destination.room is not None:
            destination.room -= move.size_bytes
        if source.room is not None:
            source.room += move.size_bytes
    return MoveCheck(fits=check[0], shortfall_bytes=check[1],
                     room_after_bytes=destination.room, room_exact=destination.exact)


def _check(size_bytes: int | None, destination: _Ledger) -> tuple[bool | None, int | None]:
    if size_bytes is None or destination.room is None:
        return None, None
    if size_bytes <= destination.room:
        return True, 0
    if not destination.exact:
        return None, None  # short of a lower bound: the room may be there
    return False, size_bytes - destination.room
