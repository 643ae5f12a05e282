"""The storage map: a target's data files by disk group or mount point, and the tablespaces' tiers they give.

Writes: :func:`datafiles_store` keeps the newest collection's files and ASM disk groups (next to the room per
tablespace, in ``services.collection_store``); :func:`storage_location_save` records what a DBA says of a location (its
tier, whether its array tiers by itself) and places the files again when a mount point is declared.
Read: :func:`storage_map_read` is the one place a tablespace's effective tier is worked out (the hand map,
else its locations': apps.targets.storage.placements); the refresh, the target page and
``manage.py storage_map`` all read it.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction

from apps.snapshots.models import DataFile
from apps.snapshots.storage_models import DiskGroup
from apps.targets.models import StorageLocation, TablespaceTier, Target
from apps.targets.rows import DataFile as DataFileRow
from apps.targets.rows import DiskGroup as DiskGroupRow
from apps.targets.storage import (
    KIND_ASM,
    RULE_ASM,
    RULE_DECLARED,
    RULE_GUESSED,
    LocationSetting,
    Placement,
    location_name_parse,
    location_of,
    placements,
)


def _declared_mount_points(target_id: int) -> list[str]:
    return list(StorageLocation.objects.filter(target_id=target_id, kind=StorageLocation.Kind.MOUNT)
                .values_list("name", flat=True))


def datafiles_store(*, target_id: int, collected_at: dt.datetime, rows: Sequence[DataFileRow],
                    disk_groups: Sequence[DiskGroupRow] = ()) -> int:
    """Keep a collection's data files and the disk groups read with them as the target's, unless a newer
    collection's are stored (an old extract imported late changes nothing); returns how many files were
    stored. A re-run stores the same rows. Groups not read this time are dropped: stale free space would pass
    for today's."""
    mounts = _declared_mount_points(target_id)
    with transaction.atomic():
        # One writer per target at a time: the collection holds the target's advisory lock (runs.run_lifecycle).
        if DataFile.objects.filter(target_id=target_id, collected_at__gt=collected_at).exists():
            return 0
        DataFile.objects.filter(target_id=target_id).delete()
        DataFile.objects.bulk_create([
            DataFile(target_id=target_id, collected_at=collected_at, file_type=row.file_type, file_id=row.file_id,
                     tablespace_name=row.tablespace_name, file_name=row.file_name, size_bytes=row.size_bytes,
                     max_size_bytes=row.max_size_bytes, autoextensible=row.autoextensible,
                     location=location_of(row.file_name, mount_points=mounts).name)
            for row in rows
        ])
        DiskGroup.objects.filter(target_id=target_id).delete()
        DiskGroup.objects.bulk_create([
            DiskGroup(target_id=target_id, collected_at=collected_at, name=group.name,
                      redundancy=group.redundancy or "", state=group.state or "", total_mb=group.total_mb,
                      free_mb=group.free_mb, required_mirror_free_mb=group.required_mirror_free_mb,
                      usable_file_mb=group.usable_file_mb, offline_disks=group.offline_disks,
                      allocation_unit_bytes=group.allocation_unit_bytes, sector_size_bytes=group.sector_size_bytes,
                      block_size_bytes=group.block_size_bytes, compatibility=group.compatibility or "",
                      database_compatibility=group.database_compatibility or "")
            for group in disk_groups
        ])
    return len(rows)


def disk_groups_read(*, target_id: int) -> dict[str, DiskGroupRow]:
    """The target's disk groups as its newest files' collection read them, by location name ('+DATA')."""
    rows = (DiskGroupRow(name=row.name, redundancy=row.redundancy or None, state=row.state or None,
                         total_mb=row.total_mb, free_mb=row.free_mb, required_mirror_free_mb=row.required_mirror_free_mb,
                         usable_file_mb=row.usable_file_mb, offline_disks=row.offline_disks,
                         allocation_unit_bytes=row.allocation_unit_bytes, sector_size_bytes=row.sector_size_bytes,
                         block_size_bytes=row.block_size_bytes, compatibility=row.compatibility or None,
                         database_compatibility=row.database_compatibility or None)
            for row in DiskGroup.objects.filter(target_id=target_id))
    return {row.location_name: row for row in rows}


@dataclass(frozen=True)
class GrowthRoom:
    """Where each tablespace's files may still grow and how much room those places have, for
    apps.tiering.moves.feasibility: ``headroom`` tablespace -> {location: bytes its autoextensible data files may
    still grow there (None: not known)}; ``location_room`` location -> usable free bytes (disk groups read;
    None: not known, as for every file system)."""

    headroom: dict[str, dict[str, int | None]]
    location_room: dict[str, int | None]
    disk_groups: dict[str, DiskGroupRow]


def growth_room_read(*, target_id: int, disk_groups: dict[str, DiskGroupRow] | None = None) -> GrowthRoom:
    """Two small reads: the target's autoextensible data files, and its disk groups (unless ``disk_groups``
    gives them, read by storage_map_read)."""
    headroom: dict[str, dict[str, int | None]] = defaultdict(dict)
    files = DataFile.objects.filter(target_id=target_id, file_type="DATA").exclude(autoextensible=False)
    for tablespace, location, size, limit, auto in files.values_list(
            "tablespace_name", "location", "size_bytes", "max_size_bytes", "autoextensible"):
        room = None if auto is None or size is None or limit is None else max(0, limit - size)
        known = headroom[tablespace].get(location, 0)
        headroom[tablespace][location] = None if room is None or known is None else known + room
    groups = disk_groups_read(target_id=target_id) if disk_groups is None else disk_groups
    rooms = {name: group.usable_file_bytes for name, group in groups.items()}
    for places in headroom.values():
        for location in places:
            rooms.setdefault(location, None)
    return GrowthRoom(headroom=dict(headroom), location_room=rooms, disk_groups=groups)


def datafile_locations_update(*, target_id: int) -> int:
    """Place the target's files again with the mount points declared now; returns how many moved."""
    mounts = _declared_mount_points(target_id)
    changed = []
    for row in DataFile.objects.filter(target_id=target_id):
        location = location_of(row.file_name, mount_points=mounts).name
        if location != row.location:
            row.location = location
            changed.append(row)
    DataFile.objects.bulk_update(changed, ["location"])
    return len(changed)


def storage_location_save(*, target: Target, name: str, tier_id: int | None,
                          array_tiering: bool | None = None) -> StorageLocation:
    """Map a location of ``target`` to a tier (None: unmap) and, when given, say whether the array pool behind
    it tiers by itself. The tier must be of the target's tier set (StorageLocation.clean: ValidationError).
    The change is audited (auditlog); declaring a mount point places the files again. The caller queues
    the recompute that brings the change into the recommendations."""
    location_name, kind = location_name_parse(name)
    with transaction.atomic():
        location = (StorageLocation.objects.select_for_update().filter(target=target, name=location_name).first()
                    or StorageLocation(target=target, name=location_name, kind=kind))
        location.tier_id = tier_id
        if array_tiering is not None:
            location.array_tiering = array_tiering
        location.full_clean()
        location.save()
        if kind != KIND_ASM:
            datafile_locations_update(target_id=target.id)
    return location


# --------------------------------------------------------------------------- read


@dataclass(frozen=True)
class LocationRow:
    """One location on the map: its files (data and temp), their size, its tablespaces and what the DBA said."""

    name: str
    kind: str
    rule: str  # how it was found (apps.targets.storage RULE_*)
    files: int
    size_bytes: int
    tablespaces: tuple[str, ...]
    tier_id: int | None
    tier_name: str | None
    array_tiering: bool
    saved: bool  # the DBA saved something about it (a StorageLocation row)
    disk_group: DiskGroupRow | None = None  # an ASM disk group V$ASM_DISKGROUP_STAT listed (None: not read)


@dataclass(frozen=True)
class StorageMap:
    """A target's storage map: its locations, its tablespaces' placements (by name) and the files' date."""

    collected_at: dt.datetime | None
    locations: tuple[LocationRow, ...]
    placements: dict[str, Placement]

    @property
    def guessed_mounts(self) -> tuple[str, ...]:
        """Locations that stand for a mount point nobody declared (a path's first two components)."""
        return tuple(row.name for row in self.locations if row.rule == RULE_GUESSED)


def storage_map_read(*, target_id: int) -> StorageMap:
    """The storage map of a target: three small reads (files, locations, hand map), folded in Python."""
    saved = {row.name: row for row in StorageLocation.objects.filter(target_id=target_id).select_related("tier")}
    mounts = [row.name for row in saved.values() if row.kind == StorageLocation.Kind.MOUNT]
    files = list(DataFile.objects.filter(target_id=target_id).values_list(
        "tablespace_name", "file_name", "size_bytes", "collected_at"))
    hand = {name: (tier_id, tier_name) for name, tier_id, tier_name in TablespaceTier.objects.filter(
        target_id=target_id).values_list("tablespace_name", "tier_id", "tier__name")}
    groups = disk_groups_read(target_id=target_id)
    found: dict[str, tuple[str, str]] = {}
    counts: dict[str, int] = defaultdict(int)
    sizes: dict[str, int] = defaultdict(int)
    tablespaces: dict[str, set[str]] = defaultdict(set)
    pairs = []
    for tablespace, file_name, size_bytes, _at in files:
        location = location_of(file_name, mount_points=mounts)
        found.setdefault(location.name, (location.kind, location.rule))
        counts[location.name] += 1
        sizes[location.name] += size_bytes or 0
        tablespaces[location.name].add(tablespace)
        pairs.append((tablespace, location.name))
    settings = {name: LocationSetting(name, row.tier_id, row.tier.name if row.tier else None, row.array_tiering)
                for name, row in saved.items()}
    rows = []
    for name in groups:  # a disk group without files of this database may still be mapped ahead
        found.setdefault(name, (KIND_ASM, RULE_ASM))
    for name in sorted(set(found) | set(saved)):
        row = saved.get(name)
        kind, rule = found.get(name) or _declared(saved[name])  # saved when not found
        rows.append(LocationRow(
            name=name, kind=kind, rule=rule, files=counts[name], size_bytes=sizes[name],
            tablespaces=tuple(sorted(tablespaces[name])), tier_id=row.tier_id if row else None,
            tier_name=row.tier.name if row and row.tier else None, array_tiering=bool(row and row.array_tiering),
            saved=row is not None, disk_group=groups.get(name)))
    return StorageMap(collected_at=max((at for *_rest, at in files), default=None), locations=tuple(rows),
                      placements=placements(files=pairs, hand_map=hand, settings=settings))


def _declared(row: StorageLocation) -> tuple[str, str]:
    """The kind and rule of a saved location that no data file is in."""
    return row.kind, RULE_ASM if row.kind == KIND_ASM else RULE_DECLARED
