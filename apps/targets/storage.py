"""The storage map, pure: a data file's name -> where it lives, and a tablespace's tier from where its files live.

A file's location is an ASM disk group or a file system's mount point, read from DBA_DATA_FILES.FILE_NAME
alone (V$ASM_DISKGROUP is not read: it is not in the catalog the statements are checked against):

* ``+DATA/PROD/DATAFILE/users.259.1150000001`` (an OMF name), ``+data/prod/users01.dbf`` (an alias) and
  ``+DATA`` alone are disk group ``+DATA``: ASM names are case-insensitive, so they are upper-cased.
* ``/u03/oradata/PROD/users01.dbf`` is on the longest mount point the DBA declared that holds it
  (``/u03``); where none is declared, its first two path components (``/u03/oradata``) stand for it: the
  name does not say where the file system is mounted, and a page says so.
* ``D:\\oradata\\PROD\\USERS01.DBF`` is on drive ``D:``; ``\\\\nas1\\ora\\...`` on share ``\\\\nas1\\ora``.
* A relative name (Oracle resolves it against the server's working directory) has no location it can tell.

Then :func:`placements` gives each tablespace its tier: the DBA's hand map (TablespaceTier) wins; else the
tier its locations are mapped to, when every one is mapped and all to one tier; else none (a tablespace
spread over locations of several tiers is flagged, never guessed). Standard library only: no Django.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

KIND_ASM = "asm"
KIND_MOUNT = "mount"

#: How a location was found (the page says which): a disk group, a declared mount point, the path's first two
#: components standing for an undeclared one, a Windows drive or share, or nothing (a relative name).
RULE_ASM = "disk group"
RULE_DECLARED = "declared mount point"
RULE_GUESSED = "first two path components"
RULE_DRIVE = "drive"
RULE_RELATIVE = "relative name"

#: The location of a relative file name: nothing in it says where it is.
RELATIVE_LOCATION = "(relative name)"

#: Where a tablespace's effective tier comes from.
SOURCE_HAND = "hand map"
SOURCE_LOCATION = "location"
SOURCE_NONE = "none"

_DRIVE = re.compile(r"^([A-Za-z]):(?:[\\/]|$)")
_UNC = re.compile(r"^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)")


class LocationError(ValueError):
    """A location name the map cannot hold (empty, or neither a disk group nor an absolute path)."""


@dataclass(frozen=True)
class Location:
    """Where a file lives: ``name`` as the map keys it ('+DATA', '/u03/oradata', 'D:'), its kind, and how it
    was found (one of the RULE_* texts)."""

    name: str
    kind: str
    rule: str


def location_of(file_name: str, *, mount_points: Iterable[str] = ()) -> Location:
    """The disk group or mount point of a data file, by its name.

    ``mount_points`` are the ones the DBA declared (the longest that holds the file wins).

    >>> location_of("+data/PROD/DATAFILE/users.259.1150000001")
    Location(name='+DATA', kind='asm', rule='disk group')
    >>> location_of("/u03/oradata/PROD/users01.dbf").name, location_of("/u03/oradata/x.dbf", mount_points=["/u03"]).name
    ('/u03/oradata', '/u03')
    >>> location_of(r"D:\\oradata\\PROD\\USERS01.DBF").name
    'D:'
    """
    text = file_name.strip()
    if text.startswith("+"):
        group = text[1:].split("/", 1)[0].strip().upper()
        if not group:
            raise LocationError(f"{file_name!r} names no disk group after '+'")
        return Location(f"+{group}", KIND_ASM, RULE_ASM)
    if drive := _DRIVE.match(text):
        return Location(f"{drive.group(1).upper()}:", KIND_MOUNT, RULE_DRIVE)
    if share := _UNC.match(text):
        return Location(f"\\\\{share.group(1)}\\{share.group(2)}", KIND_MOUNT, RULE_DRIVE)
    if not text.startswith("/"):
        return Location(RELATIVE_LOCATION, KIND_MOUNT, RULE_RELATIVE)
    path = _normal_path(text)
    declared = [mount for mount in map(_normal_path, mount_points) if _holds(mount, path)]
    if declared:
        return Location(max(declared, key=len), KIND_MOUNT, RULE_DECLARED)
    parts = [part for part in path.split("/") if part]
    # The file's own name is not a directory: '/u03/x.dbf' is on '/u03', '/x.dbf' on '/'.
    return Location("/" + "/".join(parts[:-1][:2]), KIND_MOUNT, RULE_GUESSED)


def location_name_parse(text: str) -> tuple[str, str]:
    """A location as a DBA types it -> (name as the map keys it, kind).

    >>> location_name_parse("+data"), location_name_parse("DATA"), location_name_parse("/u03/oradata/")
    (('+DATA', 'asm'), ('+DATA', 'asm'), ('/u03/oradata', 'mount'))
    """
    name = text.strip()
    if not name:
        raise LocationError("a location needs a name: a disk group (+DATA) or a mount point (/u03)")
    if name.startswith("/") or _DRIVE.match(name) or _UNC.match(name):
        location = location_of(name.rstrip("/\\") + "/x", mount_points=[name] if name.startswith("/") else ())
        return location.name, location.kind
    if re.fullmatch(r"\+?[A-Za-z][A-Za-z0-9_$#]*", name):
        return location_of("+" + name.lstrip("+")).name, KIND_ASM
    raise LocationError(f"{text!r} is neither a disk group (+DATA) nor an absolute mount point (/u03, D:)")


def _normal_path(path: str) -> str:
    """'/u03//oradata/' -> '/u03/oradata'; '/' stays '/'."""
    collapsed = re.sub(r"/+", "/", path.strip())
    return collapsed.rstrip("/") or "/"


def _holds(mount: str, path: str) -> bool:
    return mount == "/" or path == mount or path.startswith(mount + "/")


# --------------------------------------------------------------------------- tablespaces' tiers


@dataclass(frozen=True)
class LocationSetting:
    """What the DBA said of a location: its tier (None: not mapped) and whether the array pool behind it
    tiers by itself (moving segments then fights the array)."""

    name: str
    tier_id: int | None = None
    tier_name: str | None = None
    array_tiering: bool = False


@dataclass(frozen=True)
class Placement:
    """One tablespace on the storage map: its locations, its effective tier and where that comes from.

    ``spread``: its locations are mapped to several tiers (no tier is taken from them); ``unmapped``: its
    locations without a tier (none taken either, unless the hand map gives one); ``array_tiering``: its
    locations on an array pool that tiers by itself.
    """

    tablespace_name: str
    locations: tuple[str, ...]
    tier_id: int | None
    tier_name: str | None
    source: str  # SOURCE_*
    location_tiers: tuple[str, ...]
    unmapped: tuple[str, ...]
    spread: bool
    array_tiering: tuple[str, ...]


def placements(*, files: Iterable[tuple[str, str]], hand_map: Mapping[str, tuple[int, str]],
               settings: Mapping[str, LocationSetting]) -> dict[str, Placement]:
    """Each tablespace's placement, by name: the ones with files (``files``: (tablespace, location name)
    pairs) and the ones the hand map names (tablespace -> (tier id, tier name)).

    >>> fast = LocationSetting("+DATA", 1, "fast disk")
    >>> placed = placements(files=[("USERS", "+DATA"), ("SOE", "+DATA"), ("SOE", "+FLASH")],
    ...                     hand_map={"SOE": (2, "flash")}, settings={"+DATA": fast})
    >>> placed["USERS"].tier_name, placed["USERS"].source, placed["SOE"].source, placed["SOE"].unmapped
    ('fast disk', 'location', 'hand map', ('+FLASH',))
    """
    where: dict[str, set[str]] = {}
    for tablespace, location in files:
        where.setdefault(tablespace, set()).add(location)
    for tablespace in hand_map:
        where.setdefault(tablespace, set())
    return {name: _placement(name, tuple(sorted(where[name])), hand_map.get(name), settings)
            for name in sorted(where)}


def _placement(name: str, locations: tuple[str, ...], hand: tuple[int, str] | None,
               settings: Mapping[str, LocationSetting]) -> Placement:
    mapped = [settings[loc] for loc in locations if loc in settings and settings[loc].tier_id is not None]
    tiers = {setting.tier_id: setting.tier_name or "" for setting in mapped}
    unmapped = tuple(loc for loc in locations if loc not in settings or settings[loc].tier_id is None)
    tier_id: int | None = None
    tier_name: str | None = None
    source = SOURCE_NONE
    if hand is not None:
        (tier_id, tier_name), source = hand, SOURCE_HAND
    elif locations and not unmapped and len(tiers) == 1:
        (tier_id, tier_name), = tiers.items()
        source = SOURCE_LOCATION
    return Placement(
        tablespace_name=name, locations=locations, tier_id=tier_id, tier_name=tier_name, source=source,
        location_tiers=tuple(sorted(set(tiers.values()))), unmapped=unmapped, spread=len(tiers) > 1,
        array_tiering=tuple(loc for loc in locations if loc in settings and settings[loc].array_tiering),
    )
