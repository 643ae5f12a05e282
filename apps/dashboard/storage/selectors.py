"""The target page's "Storage map" card: the map (apps.snapshots.storage_map) shaped for its template."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from apps.snapshots.storage_map import LocationRow, StorageMap, storage_map_read
from apps.targets.models import Target
from apps.targets.storage import KIND_ASM, SOURCE_HAND, SOURCE_LOCATION, Placement
from apps.tiering.models import Tier


@dataclass(frozen=True)
class TablespaceOnMap:
    """One tablespace's row: its placement and the flags said in words."""

    placement: Placement
    source_label: str  # "hand map", "location +DATA", "none"
    flags: tuple[str, ...]  # spread over several tiers, double tiering
    notes: tuple[str, ...]  # why no tier came from its locations


@dataclass(frozen=True)
class StorageMapCard:
    collected_at: dt.datetime | None
    locations: tuple[LocationRow, ...]
    tablespaces: tuple[TablespaceOnMap, ...]
    guessed_mounts: tuple[str, ...]
    tiers: tuple[Tier, ...]  # what a location may be mapped to: the target's tier set
    flagged: int  # tablespaces with a flag

    @property
    def unread_groups(self) -> tuple[str, ...]:
        """Disk groups the files name that V$ASM_DISKGROUP_STAT did not list: their free space is unknown."""
        return tuple(row.name for row in self.locations if row.kind == KIND_ASM and row.disk_group is None
                     and row.files)

    @property
    def empty(self) -> bool:
        return not self.locations


def storage_map_card(*, target: Target, storage: StorageMap | None = None) -> StorageMapCard:
    """The card's rows: locations, then tablespaces with their effective tier, its source and their flags
    (``storage``: the target's storage map when the caller has read it already)."""
    storage = storage or storage_map_read(target_id=target.id)
    rows = tuple(_tablespace_row(placed) for placed in storage.placements.values() if placed.locations)
    return StorageMapCard(
        collected_at=storage.collected_at, locations=storage.locations, tablespaces=rows,
        guessed_mounts=storage.guessed_mounts,
        tiers=tuple(Tier.objects.filter(tier_set_id=target.tier_set_id).order_by("name")),
        flagged=sum(1 for row in rows if row.flags),
    )


def _tablespace_row(placed: Placement) -> TablespaceOnMap:
    flags = []
    if placed.spread:
        flags.append(f"spread over several tiers ({', '.join(placed.location_tiers)}): its locations give it no "
                     f"tier{'; the hand map decides' if placed.source == SOURCE_HAND else ''}")
    if placed.array_tiering:
        flags.append(f"double tiering: the array pool behind {', '.join(placed.array_tiering)} tiers by itself; "
                     "moving its segments fights it")
    notes = []
    if placed.unmapped and not placed.spread and placed.source != SOURCE_HAND:
        notes.append(f"{', '.join(placed.unmapped)} not mapped to a tier")
    if placed.source == SOURCE_LOCATION:
        label = f"location{'s' if len(placed.locations) > 1 else ''} {', '.join(placed.locations)}"
    else:
        label = placed.source
    return TablespaceOnMap(placement=placed, source_label=label, flags=tuple(flags), notes=tuple(notes))
