"""Importing AWR reports and offline extracts into the same pipeline as live collection.

Both imports build a :class:`~apps.targets.rows.Collection` with a pure reader, check it
fully, and only then store it with :func:`apps.snapshots.services.collection_store` under
their own snapshot kind ("report" / "extract"), in a run with the same lifecycle as a
collection (apps.snapshots.runs): the recommendations refresh after it as their own task.
A refused import writes nothing; a stored
one writes each snapshot in its own transaction under the natural key
(target, dbid, instance, kind, snap_id), so importing the same file again adds nothing and
a retry after a crash completes what is missing.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO

from django.core.files.uploadedfile import UploadedFile

from apps.core.config import get_config
from apps.snapshots.models import CollectionRun, Segment, Snapshot
from apps.snapshots.runs import CollectionBusy, run_finish, run_lifecycle, run_succeed
from apps.snapshots.selectors import incomplete_intervals
from apps.snapshots.services import collect_state_build, collection_store
from apps.targets import rows
from apps.targets.awr_report import AwrReport, AwrReportError, parse_report
from apps.targets.awr_report.compare import periods_of_database
from apps.targets.awr_report.names import FullName, resolve_truncated_names
from apps.targets.awr_report.source import report_to_collection
from apps.targets.extract import ExtractError, ExtractLimits, read_extract, read_segments_csv
from apps.targets.models import Target
from apps.targets.rows import Collection, DatabaseInfo, SegmentInfo, SegmentKey

TRIGGER = "import"


def upload_bytes(upload: UploadedFile) -> bytearray:
    """An uploaded file's bytes (the import page and the API). Files over FILE_UPLOAD_MAX_MEMORY_SIZE streamed to
    a temp file; each is at most MAX_UPLOAD_BYTES (apps.core.uploads dropped any larger one while it came in).
    Read into one buffer of its size: read() would hold the file twice for a moment."""
    buffer = bytearray(upload.size or 0)
    upload.seek(0)
    upload.readinto(buffer)
    return buffer


def import_outcome(run: CollectionRun, what: str) -> str:
    """An import's result in one line, warnings included (the page's message, the audit entry, the API)."""
    warnings = "".join(f" {warning}" for warning in run.warnings)
    if run.snapshots_added == 0:
        return f"{what}: nothing new{':' + warnings if warnings else ', it was already imported.'}"
    return f"{what}: imported {run.snapshots_added} snapshot(s), {run.rows_added} rows.{warnings}"


class ImportRefused(ValueError):
    """The file cannot be imported into this target; nothing was written. One line for the DBA."""


def report_import(*, target: Target, data: bytes | bytearray | str, filename: str, sizes: bytes | bytearray | None = None,
                  sizes_filename: str = "segments.csv") -> CollectionRun:
    """Import one AWR report (HTML or text, awrrpt, awrgrpt or a compare-period awrddrpt) into ``target``.

    A compare-period report gives a snapshot per period; a period of another database than the target's
    (or than the 1st period's, for a new target) is left out with a warning on the run.

    ``data`` is the file's bytes, or its text when the caller decoded it (``decode_report``).
    ``sizes``, when given, is a DBA_SEGMENTS listing in the extract's segments.csv format:
    segments the report lists get their size from it; segments it does not list are not
    invented, and report segments without a size keep size_bytes NULL. Names a text report cut
    to their column are completed from it and from the target's segments when exactly one full
    name fits (awr_report.names); the others stay marked cut (Segment.name_truncated). Raises
    :class:`ImportRefused` for an oversized, unreadable or foreign report (nothing written).
    """
    _check_size(len(data), filename)
    try:
        report = parse_report(data, filename=filename)
    except AwrReportError as error:
        raise ImportRefused(str(error)) from None
    infos: Sequence[SegmentInfo] | None = None
    if sizes is not None:
        _check_size(len(sizes), sizes_filename)
        try:
            infos = read_segments_csv(sizes, filename=sizes_filename)
        except ExtractError as error:
            raise ImportRefused(str(error)) from None
    if len({period.dbid for period in report.periods}) > 1:
        held = _held_dbids(target)
        report = periods_of_database(report, next((p.dbid for p in report.periods if p.dbid in held),
                                                  report.periods[0].dbid))
    report, _ = resolve_truncated_names(report, _known_full_names(target, report, infos or ()))
    collection = report_to_collection(report)
    if infos is not None:
        collection = dataclasses.replace(collection, segments=report_segment_sizes(collection, infos))
    _check_same_database(target, collection.database, what=f"AWR report {filename}")
    return collection_import(target=target, collection=collection, kind="report", authoritative=False)


def extract_import(*, target: Target, path_or_zip: str | Path | IO[bytes],
                   max_unpacked_bytes: int | None = None) -> CollectionRun:
    """Import one offline extract (a directory, a .zip path or an open .zip file) into ``target``.

    The whole extract is read and checked first; any bad line raises :class:`ImportRefused`
    naming the file, line and column, and nothing is written. ``max_unpacked_bytes`` bounds what
    all its CSV files may unpack to (the import page's bound; the reader's own otherwise).
    """
    limits = ExtractLimits() if max_unpacked_bytes is None else ExtractLimits(unpacked_bytes=max_unpacked_bytes)
    try:
        collection = read_extract(path_or_zip, limits=limits)
    except ExtractError as error:
        hint = ""
        if max_unpacked_bytes is not None and "allowed" in error.problem and "unpack" in error.problem:
            hint = " (the import page's bound: import a larger extract with manage.py import_extract)"
        raise ImportRefused(f"{error}{hint}") from None
    _check_same_database(target, collection.database, what="offline extract")
    return collection_import(target=target, collection=collection, kind="extract", authoritative=True)


def report_segment_sizes(collection: Collection, infos: Iterable[SegmentInfo]) -> tuple[SegmentInfo, ...]:
    """DBA_SEGMENTS rows for the segments the report lists, under the report's own keys.

    A report key matches a listing row with the same (container, owner, object, subobject, type); failing
    that, the one row with the same (owner, object, subobject) whatever its type (reports print some types
    differently), in the key's container. A listing that names no container (one PDB's extract) sizes a CDB
    report's segment only when the report lists that name in one container alone: which PDB the listing came
    from is not known, so twins in two PDBs stay unsized rather than take one's size. Unmatched report
    segments get no row (size stays unknown); listing rows for segments the report does not mention are dropped.
    """
    infos = list(infos)
    exact = {info.key: info for info in infos}
    by_name: dict[tuple[str, str, str], list[SegmentInfo]] = {}
    for info in infos:
        by_name.setdefault((info.key.owner, info.key.object_name, info.key.subobject_name), []).append(info)
    keys = dict.fromkeys(stat.key for snap in collection.snapshots for stat in snap.segment_stats)  # in order
    containers_of: dict[tuple[str, str, str], set[str]] = {}
    for key in keys:
        containers_of.setdefault((key.owner, key.object_name, key.subobject_name), set()).add(key.container)
    matched: dict[SegmentKey, SegmentInfo] = {}
    for key in keys:
        found = exact.get(key)
        if found is None:
            name = (key.owner, key.object_name, key.subobject_name)
            alone = len(containers_of[name]) == 1
            candidates = [candidate for candidate in by_name.get(name, [])
                          if candidate.key.container == key.container or (not candidate.key.container and alone)]
            found = candidates[0] if len(candidates) == 1 else None
        if found is not None:
            matched[key] = dataclasses.replace(found, key=key)
    return tuple(matched.values())


def _known_full_names(target: Target, report: AwrReport, infos: Iterable[SegmentInfo]) -> list[FullName]:
    """The full names a text report's cut names may be completed from: the sizes listing given with it,
    and the target's segments whose names are whole (only read when the report cut some)."""
    segments = [s for period in report.periods for s in period.segments] if report.periods else report.segments
    if not any(segment.truncated_fields for segment in segments):
        return []
    names = [FullName(i.key.owner, i.key.object_name, i.key.subobject_name, i.tablespace_name) for i in infos]
    owners = {segment.owner for segment in segments if "owner" not in segment.truncated_fields}
    held = Segment.objects.filter(target=target, name_truncated=False)
    if all("owner" not in segment.truncated_fields for segment in segments):
        held = held.filter(owner__in=owners)
    names.extend(FullName(*row) for row in held.values_list("owner", "object_name", "subobject_name",
                                                           "tablespace_name").iterator())
    return names


def _check_size(size_bytes: int, filename: str) -> None:
    limit = get_config()["MAX_UPLOAD_BYTES"]
    if size_bytes > limit:
        raise ImportRefused(f"{filename}: {size_bytes} bytes is more than the {limit} bytes allowed "
                            f"({limit // (1024 * 1024)} MB)")


def _held_dbids(target: Target) -> set[int]:
    """The DBIDs of the database the target holds (its snapshots', and the one its capabilities name)."""
    known = set(Snapshot.objects.filter(target=target).values_list("dbid", flat=True).distinct().order_by())
    if target.capabilities.get("dbid") is not None:
        known.add(int(target.capabilities["dbid"]))
    return known


def _check_same_database(target: Target, database: DatabaseInfo, *, what: str) -> None:
    """A target holds one database: refuse data of another DBID once it has any."""
    known = _held_dbids(target)
    if known and database.dbid not in known:
        held = ", ".join(str(dbid) for dbid in sorted(known))
        name = target.capabilities.get("db_name") or "its database"
        raise ImportRefused(
            f"{what} is from database {database.db_name} (DBID {database.dbid}), but target {target.name} "
            f"holds {name} (DBID {held}): import it into a target of its own"
        )


def collection_import(*, target: Target, collection: Collection, kind: str, authoritative: bool) -> CollectionRun:
    """Store an imported ``collection`` of ``kind`` (report or extract) into ``target`` as one run of the same
    lifecycle as a collection (apps.snapshots.runs: the target's lock first, then the run): snapshots already
    stored or overlapping stored ones are left out (with a warning), a global RAC report replaces its instances'
    reports. What an ``authoritative`` source (an extract) says of the database overwrites the target's
    capabilities; a report only fills in what is missing. Raises :class:`ImportRefused` while a collection or
    import of the target runs (the run is then ended as skipped, as a collection's is)."""
    try:
        with run_lifecycle(target=target, run_id=None, trigger=TRIGGER) as run:
            try:
                assert run.started_at is not None  # run_lifecycle started the run
                state = collect_state_build(target=target, now=run.started_at)
                collection = _without_stored_snapshots(target, collection, kind=kind)
                collection, replaced = _one_figure_per_interval(target, collection, kind=kind)
                collection = _without_overlaps(target, collection, kind=kind, replacing=replaced)
                result = collection_store(target=target, collection=collection, kind=kind, state=state)
                # Only once the global report is stored: a failed import leaves the instance reports.
                Snapshot.objects.filter(id__in=replaced).delete()
                collection = _with_missing_instances_noted(target, collection)
                run.snapshots_added, run.rows_added = result.snapshots_added, result.rows_added
                _capabilities_merge(target, collection.database, authoritative=authoritative)
            except Exception as error:
                # Snapshots already written are whole (one transaction each); a retry adds the rest.
                run_finish(run, status=CollectionRun.Status.FAILED,
                           error=f"Import stopped: {type(error).__name__}: {error}")
                raise
            run_succeed(run, notes="\n".join(collection.notes))
    except CollectionBusy as busy:
        raise ImportRefused(f"target {target.name}: {busy.run.error} Import again in a minute.") from None
    return run


def _without_stored_snapshots(target: Target, collection: Collection, *, kind: str) -> Collection:
    """Drop snapshots already stored, so their segments are not upserted again.

    Storage would skip them anyway (natural key), but it upserts every segment the collection
    names first: the text form of an imported HTML report would otherwise add its truncated
    names as segments without figures.
    """
    stored = set(
        Snapshot.objects.filter(target=target, kind=kind, dbid=collection.database.dbid)
        .values_list("instance_number", "snap_id")
    )
    fresh = tuple(snap for snap in collection.snapshots if (snap.instance_number, snap.snap_id) not in stored)
    return dataclasses.replace(collection, snapshots=fresh)


#: A global report prints its snapshot times to the minute: an instance report of the same interval begins
#: within this of it.
_SAME_INTERVAL = dt.timedelta(minutes=2)


def _one_figure_per_interval(target: Target, collection: Collection, *, kind: str) -> tuple[Collection, list[int]]:
    """A global RAC report (instance 0: all instances summed) and instance reports of the same DBID and
    snapshot pair never count twice, whatever order they arrive in: the global one wins. An instance report
    of an interval whose global report is stored adds nothing; a global report replaces the instance reports'
    snapshots of its interval: their ids are returned for the caller to delete once the global one is stored
    (deleting a snapshot drops its days' rollups, rebuilt at the next roll-up). The run's notes say which
    (Warning: lines, shown after the import)."""
    if not collection.snapshots:
        return collection, []
    stored = list(Snapshot.objects.filter(target=target, kind=kind, dbid=collection.database.dbid,
                                          snap_id__in=[snap.snap_id for snap in collection.snapshots])
                  .values_list("id", "instance_number", "snap_id", "begin_at"))
    kept: list[rows.Snapshot] = []
    notes: list[str] = []
    replaced_ids: list[int] = []
    for snap in collection.snapshots:
        same = [row for row in stored if row[2] == snap.snap_id and abs(row[3] - snap.begin_at) <= _SAME_INTERVAL]
        if snap.instance_number != 0 and any(row[1] == 0 for row in same):
            notes.append(f"Warning: instance {snap.instance_number}'s figures of snapshot {snap.snap_id} were not "
                         "stored: the global RAC report of the same interval, imported already, covers every "
                         "instance (both would count the interval twice)")
            continue
        replaced = [row for row in same if snap.instance_number == 0 and row[1] != 0]
        if replaced:
            replaced_ids.extend(row[0] for row in replaced)
            listed = ", ".join(str(row[1]) for row in sorted(replaced, key=lambda row: row[1]))
            notes.append(f"Warning: the global RAC report of snapshot {snap.snap_id} covers every instance: it "
                         f"replaced the instance reports' figures of the same interval (instance {listed}), so "
                         "the interval counts once")
        kept.append(snap)
    if not notes:
        return collection, []
    return dataclasses.replace(collection, snapshots=tuple(kept), notes=(*collection.notes, *notes)), replaced_ids


def _with_missing_instances_noted(target: Target, collection: Collection) -> Collection:
    """A warning for each interval of the import that now holds some of its RAC instances only."""
    snap_ids = {snap.snap_id for snap in collection.snapshots}
    notes = [
        f"Warning: snapshot {i.snap_id} of this RAC database of {i.instances_expected} instances holds instance"
        f"{'s' if len(i.instances_stored) > 1 else ''} {', '.join(map(str, i.instances_stored))} only: its figures "
        "are lower bounds, shown as not measured and never moved, until the other instances' reports "
        "(awrrpti.sql) or the global report (awrgrpt.sql) of the same snapshots are imported"
        for i in incomplete_intervals(target_id=target.id, snap_ids=sorted(snap_ids), limit=None)
    ]
    return dataclasses.replace(collection, notes=(*collection.notes, *notes)) if notes else collection


#: Intervals of two sources overlap when they share more than this (report times are printed to the minute).
_OVERLAP_SLACK = dt.timedelta(minutes=2)

#: The kinds that hold AWR intervals (a V$ sample measures the same time on purpose; windows prefer AWR's).
_AWR_KINDS = ("awr", "report", "extract")


def _without_overlaps(target: Target, collection: Collection, *, kind: str, replacing: Sequence[int] = ()
                      ) -> Collection:
    """Leave out the collection's AWR intervals that overlap one stored already for the same database and
    instance (a global report, instance 0, overlaps every instance): from another source (an extract and a
    report of the same snapshots) or another range (a report of snapshots 100-110 and one of 105-106), both
    would count the time twice. The one stored first stays (but for ``replacing``: instance reports a global
    report replaces, see _one_figure_per_interval); the run's notes say which were left out."""
    if kind not in _AWR_KINDS or not collection.snapshots:
        return collection
    begin = min(snap.begin_at for snap in collection.snapshots)
    end = max(snap.end_at for snap in collection.snapshots)
    stored = list(Snapshot.objects.filter(
        target=target, kind__in=_AWR_KINDS, dbid=collection.database.dbid,
        begin_at__lt=end - _OVERLAP_SLACK, end_at__gt=begin + _OVERLAP_SLACK,
    ).exclude(id__in=list(replacing)).values_list("kind", "instance_number", "snap_id", "begin_at", "end_at"))
    if not stored:
        return collection
    kept, notes = [], []
    for snap in collection.snapshots:
        clash = next((row for row in stored
                      if (row[0], row[1], row[2]) != (kind, snap.instance_number, snap.snap_id)
                      and (row[1] == snap.instance_number or 0 in (row[1], snap.instance_number))
                      and min(row[4], snap.end_at) - max(row[3], snap.begin_at) > _OVERLAP_SLACK), None)
        if clash is None:
            kept.append(snap)
            continue
        other_kind, instance, snap_id, other_begin, other_end = clash
        notes.append(
            f"Warning: instance {snap.instance_number}'s interval ending at snapshot {snap.snap_id} "
            f"({snap.begin_at:%Y-%m-%d %H:%M}-{snap.end_at:%H:%M} UTC) was not stored: it overlaps snapshot "
            f"{snap_id} of instance {instance} stored from {_SOURCE_WORDS.get(other_kind, other_kind)} "
            f"({other_begin:%Y-%m-%d %H:%M}-{other_end:%H:%M} UTC), and both would count that time twice")
    if not notes:
        return collection
    return dataclasses.replace(collection, snapshots=tuple(kept), notes=(*collection.notes, *notes))


_SOURCE_WORDS = {"awr": "live AWR collection", "report": "an imported AWR report", "extract": "an offline extract"}


def _capabilities_merge(target: Target, database: DatabaseInfo, *, authoritative: bool) -> None:
    """Record what the import says about the database.

    An extract reads the same catalog a live collection does, so it overwrites; a report
    knows less (no block size, no pack switch), so it only fills in what is missing.
    """
    learned = {"dbid": database.dbid, "db_name": database.db_name, "release": database.release,
               "rac": database.is_rac}
    if authoritative:
        learned |= {"pack_access": database.pack_access, "block_size_bytes": database.block_size_bytes}
        merged = {**target.capabilities, **learned}
    else:
        merged = {**learned, **target.capabilities}
    # A global RAC report is instance 0 (cluster totals); it adds no real instance number.
    instances = set(target.capabilities.get("instances", [])) | {n for n in database.instances if n}
    merged["instances"] = sorted(instances)
    target.capabilities = merged
    target.save(update_fields=["capabilities"])
