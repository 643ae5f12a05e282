"""Does each move of a plan have room where it goes? Pure: standard library only.

A move needs the segment's size free in its destination tablespace while it runs (Oracle builds
the new copy there before it drops the old one) and frees that size at its source once done. So
moves are checked in the order they run, each against the room the moves before it left:

* room = max size - used (``max_size_bytes``: what the files may grow to, autoextend counted);
* where a move needs the files to grow (more than they hold free now, ``size_bytes - used_bytes``), the
  growth must also fit where its autoextensible files live (``growth``: their headroom per location): an
  ASM disk group's usable free space (``location_room``, V$ASM_DISKGROUP_STAT.USABLE_FILE_MB). Files do
  not shrink, so a move out frees room in its tablespace but none in the disk group. A location whose
  free space is not known (a file system, a disk group not read) leaves that part of the check unknown;
  the tablespace's own verdict then stands alone, as it did before disk groups were read;
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

    @property
    def used_bytes(self) -> int | None: ...
    @property
    def max_size_bytes(self) -> int | None: ...
    @property
    def size_bytes(self) -> int | None: ...


#: tablespace -> {location ('+DATA', '/u03'): headroom of its autoextensible files there, bytes; None unknown}
Growth = Mapping[str, Mapping[str, int | None]]


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
    #: How much its destination's files must grow for it (0: they hold room now; None: not known).
    growth_bytes: int | None = 0
    #: Whether the locations its files grow into have that room: None when no growth is needed or it is not
    #: known (a location whose free space was not read); ``disk_shortfall_bytes`` what they lack.
    disk_fits: bool | None = None
    disk_shortfall_bytes: int | None = None
    disk_locations: tuple[str, ...] = ()  # where the growth goes


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
    in_files: int | None = None  # free in the files as they are now (None: unknown)
    headroom: dict[str, int | None] | None = None  # per location its files may still grow there


def _ledger(space: Room | None, headroom: Mapping[str, int | None] | None) -> _Ledger:
    if space is None or space.used_bytes is None or space.max_size_bytes is None:
        return _Ledger(None)
    size = getattr(space, "size_bytes", None)
    return _Ledger(space.max_size_bytes - space.used_bytes, in_files=None if size is None else size - space.used_bytes,
                   headroom=None if headroom is None else dict(headroom))


def feasibility(moves: Sequence[Move], space: Mapping[str, Room], *, growth: Growth | None = None,
                location_room: Mapping[str, int | None] | None = None) -> Feasibility:
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
    locations: dict[str, int | None] = dict(location_room or {})

    def ledger(name: str) -> _Ledger:
        if name not in ledgers:
            ledgers[name] = _ledger(space.get(name), (growth or {}).get(name))
        return ledgers[name]

    checks = [_apply(move, ledger, locations) for move in moves]
    for name in space:
        ledger(name)
    names = sorted(ledgers)
    return Feasibility(checks=tuple(checks), room_after_bytes={name: ledgers[name].room for name in names},
                       room_after_exact={name: ledgers[name].exact for name in names})


def _apply(move: Move, ledger: Callable[[str], _Ledger], locations: dict[str, int | None]) -> MoveCheck:
    if move.to_tablespace is None:
        # Goes nowhere known: it takes no room anywhere we count, and frees none until it can run.
        return MoveCheck(fits=None, shortfall_bytes=None, room_after_bytes=None, room_exact=False, growth_bytes=None)
    destination, source = ledger(move.to_tablespace), ledger(move.from_tablespace)
    fits, shortfall = _check(move.size_bytes, destination)
    growth = _growth(move.size_bytes, destination)
    disk = _grow(growth, destination, locations) if growth else _Disk(None, None, ())
    if move.size_bytes is None:
        destination.room = destination.in_files = None
        source.exact = False
    else:
        if destination.room is not None:
            destination.room -= move.size_bytes
        if destination.in_files is not None:
            destination.in_files = max(0, destination.in_files - move.size_bytes)
        if source.room is not None:
            source.room += move.size_bytes
        if source.in_files is not None:
            source.in_files += move.size_bytes  # room in its files; the disk group gets nothing back
    if disk.fits is False and fits is not False:
        fits, shortfall = False, disk.shortfall_bytes
    elif disk.fits is False and shortfall is not None and disk.shortfall_bytes is not None:
        shortfall = max(shortfall, disk.shortfall_bytes)
    return MoveCheck(fits=fits, shortfall_bytes=shortfall, room_after_bytes=destination.room,
                     room_exact=destination.exact, growth_bytes=growth, disk_fits=disk.fits,
                     disk_shortfall_bytes=disk.shortfall_bytes, disk_locations=disk.locations)


def _growth(size_bytes: int | None, destination: _Ledger) -> int | None:
    """How much the destination's files must grow to take the move (None: not known)."""
    if size_bytes is None or destination.in_files is None:
        return None
    return max(0, size_bytes - destination.in_files)


@dataclass(frozen=True, slots=True)
class _Disk:
    fits: bool | None
    shortfall_bytes: int | None
    locations: tuple[str, ...]


def _grow(growth: int | None, destination: _Ledger, locations: dict[str, int | None]) -> _Disk:
    """Take ``growth`` from the locations the destination's autoextensible files are in: the ones whose free
    space is known first, the most room first; what they cannot hold is short, unless a location whose free
    space is not known could take it (then not known). Every growth counts, a short one too (the DBA adds
    the space first), so a later move into the same disk group sees what is left."""
    if destination.headroom is None or growth is None:
        return _Disk(None, None, ())
    where = tuple(sorted(name for name, room in destination.headroom.items() if room is None or room > 0))
    known = sorted((name for name in where if locations.get(name) is not None),
                   key=lambda name: (-(locations[name] or 0), name))
    left = growth
    for name in known:
        headroom = destination.headroom[name]
        take = max(0, min(left, locations[name] or 0, left if headroom is None else headroom))
        _spend(destination, locations, name, take)
        left -= take
    if left == 0:
        return _Disk(True if known else None, 0 if known else None, where)
    if any(locations.get(name) is None for name in where):
        return _Disk(None, None, where)  # the rest may go where free space is not known
    if known and destination.exact:
        _spend(destination, locations, known[0], left)  # counted, as the plan runs it anyway
        return _Disk(False, left, where)
    return _Disk(None, None, where)


def _spend(destination: _Ledger, locations: dict[str, int | None], name: str, take: int) -> None:
    if locations.get(name) is not None:
        locations[name] = (locations[name] or 0) - take
    headroom = destination.headroom.get(name) if destination.headroom else None
    if destination.headroom is not None and headroom is not None:
        destination.headroom[name] = headroom - take


def _check(size_bytes: int | None, destination: _Ledger) -> tuple[bool | None, int | None]:
    if size_bytes is None or destination.room is None:
        return None, None
    if size_bytes <= destination.room:
        return True, 0
    if not destination.exact:
        return None, None  # short of a lower bound: the room may be there
    return False, size_bytes - destination.room
