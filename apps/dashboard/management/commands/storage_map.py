"""``manage.py storage_map TARGET [--location NAME (--tier TIER | --no-tier) [--array-tiering | --no-array-tiering]]``.

Prints the target's storage map (locations, then tablespaces with their effective tier, where it comes from
and their flags); with ``--location``, first saves what is said of that location (apps.snapshots.storage_map
.storage_location_save, audited as this command) and queues a recompute of the recommendations.
"""

from __future__ import annotations

from argparse import BooleanOptionalAction
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from apps.core.audit import audit_command, audit_event_record
from apps.snapshots.management.commands.import_extract import REPORT_TARGET_MISSING
from apps.snapshots.storage_map import LocationRow, StorageMap, storage_location_save, storage_map_read
from apps.targets.management.lookups import target_named
from apps.targets.models import Target
from apps.targets.storage import LocationError, location_name_parse
from apps.tiering.models import Refresh, Tier
from apps.tiering.recommendations.refreshes import refresh_enqueue


def _disk_group_text(loc: LocationRow) -> str:
    """'  [NORMAL, usable 26.0 GiB, free 152.0 GiB of 400.0 GiB raw]' for a disk group; unknowns said."""
    if loc.kind != "asm":
        return ""
    group = loc.disk_group
    if group is None:
        return "  [free space unknown: not listed by V$ASM_DISKGROUP_STAT]"

    def gib(mb: int | None) -> str:
        return "unknown" if mb is None else f"{mb / 1024:.1f} GiB"

    return (f"  [{group.redundancy or 'redundancy unknown'}, usable {gib(group.usable_file_mb)}, "
            f"free {gib(group.free_mb)} of {gib(group.total_mb)} raw]")


def map_lines(storage: StorageMap) -> list[str]:
    """The map as text: one line per location, then one per tablespace with its flags."""
    if not storage.locations:
        return ["no data files collected (AWR reports do not list them; an older extract has no datafiles.csv)"]
    lines = [f"files as of {storage.collected_at:%Y-%m-%d %H:%M} UTC" if storage.collected_at else "files", "",
             "locations:"]
    for loc in storage.locations:
        tier = loc.tier_name or "not mapped"
        array = ", array tiers by itself" if loc.array_tiering else ""
        lines.append(f"  {loc.name:<24} {loc.kind:<5} {loc.files:>4} files {loc.size_bytes / 1024**3:>10.1f} GiB  "
                     f"tier: {tier}{array}  ({loc.rule}; {', '.join(loc.tablespaces) or 'no files'})"
                     f"{_disk_group_text(loc)}")
    lines += ["", "tablespaces:"]
    for placed in storage.placements.values():
        flags = []
        if placed.spread:
            flags.append(f"SPREAD over tiers {', '.join(placed.location_tiers)}")
        if placed.array_tiering:
            flags.append(f"DOUBLE TIERING ({', '.join(placed.array_tiering)} tiers by itself)")
        if placed.unmapped and placed.source != "hand map" and not placed.spread:
            flags.append(f"not mapped: {', '.join(placed.unmapped)}")
        lines.append(f"  {placed.tablespace_name:<24} tier: {placed.tier_name or 'none'} (from {placed.source})  "
                     f"on {', '.join(placed.locations) or 'no files'}" + (f"  [{'; '.join(flags)}]" if flags else ""))
    return lines


def _tier_named(target: Target, name: str) -> Tier:
    tiers = {tier.name.lower(): tier for tier in Tier.objects.filter(tier_set_id=target.tier_set_id)}
    if name.lower() not in tiers:
        raise CommandError(f"no tier {name!r} in {target.name}'s tier set {target.tier_set_id!r}; "
                           f"its tiers are: {', '.join(sorted(t.name for t in tiers.values()))}")
    return tiers[name.lower()]


class Command(BaseCommand):
    help = "Print a target's storage map; with --location, map a disk group or mount point to a tier first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("target", help="target name")
        parser.add_argument("--location", help="disk group (+DATA) or mount point (/u03) to map or declare")
        tier = parser.add_mutually_exclusive_group()
        tier.add_argument("--tier", help="a tier of the target's tier set (names compared case-insensitively)")
        tier.add_argument("--no-tier", action="store_true", help="unmap the location")
        parser.add_argument("--array-tiering", action=BooleanOptionalAction, default=None,
                            help="the array pool behind the location tiers by itself (or not)")

    @audit_command("storage_map")
    def handle(self, *args: Any, **options: Any) -> None:
        target = target_named(options["target"], missing=REPORT_TARGET_MISSING)
        if options["location"]:
            self._save(target, options)
        elif options["tier"] or options["no_tier"] or options["array_tiering"] is not None:
            raise CommandError("--tier, --no-tier and --array-tiering need --location")
        for line in map_lines(storage_map_read(target_id=target.id)):
            self.stdout.write(line)

    def _save(self, target: Target, options: dict[str, Any]) -> None:
        try:
            name = location_name_parse(options["location"])[0]
        except LocationError as error:
            raise CommandError(str(error)) from None
        existing = None
        if not (options["tier"] or options["no_tier"]):
            existing = storage_map_read(target_id=target.id)
        tier = _tier_named(target, options["tier"]) if options["tier"] else None
        try:
            with transaction.atomic():
                if existing is not None:  # only --array-tiering: the tier stays as it is
                    row = next((loc for loc in existing.locations if loc.name == name), None)
                    tier_id = row.tier_id if row else None
                else:
                    tier_id = tier.id if tier else None
                location = storage_location_save(target=target, name=name, tier_id=tier_id,
                                                 array_tiering=options["array_tiering"])
                refresh = refresh_enqueue(target_id=target.id)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        refresh.refresh_from_db()
        said = f"{location.name} → {location.tier.name if location.tier else 'not mapped'}" + (
            ", array tiers by itself" if location.array_tiering else "")
        queued = (f"recompute not queued: {refresh.error}" if refresh.status == Refresh.Status.FAILED
                  else f"recompute queued (refresh {refresh.id})")
        audit_event_record(actor=None, action="storage_map", target=target, detail=said, outcome=queued)
        self.stdout.write(f"{target.name}: {said}; {queued}")
        self.stdout.write("")
