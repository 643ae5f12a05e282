"""``manage.py import_extract DIR_OR_ZIP --target NAME``: a thin shell over extract_import."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser, OutputWrapper

from apps.core.audit import audit_command, audit_event_record
from apps.core.config import get_config
from apps.snapshots.imports import ImportRefused, extract_import
from apps.snapshots.models import CollectionRun
from apps.snapshots.signals import run_followups
from apps.targets.management.lookups import target_named
from apps.targets.models import Target


def add_target_argument(parser: CommandParser) -> None:
    """The --target option of the import commands, read with ``target_named(..., missing=REPORT_TARGET_MISSING)``."""
    parser.add_argument("--target", required=True, help="target name (create it with add_target --mode report)")


#: The refusal of a --target that names no target (apps.targets.management.lookups.target_named).
REPORT_TARGET_MISSING = "no target named {name!r}: create it with `manage.py add_target --name {name} --mode report`"


def read_bounded(path: Path) -> bytes:
    """The file's bytes, at most one past the upload bound so the import can refuse it by size."""
    try:
        with path.open("rb") as handle:
            return handle.read(get_config()["MAX_UPLOAD_BYTES"] + 1)
    except OSError as error:
        raise CommandError(f"{path}: cannot read ({error.strerror or error})") from None


def report_run(out: OutputWrapper, run: CollectionRun, *, action: str, target: Target, what: str) -> None:
    """Print what the import of ``what`` added and what follows it, and record it in the audit log."""
    _print_run(out, run, what=what)
    _print_followups(out, run)
    audit_event_record(actor=None, action=action, target=target, detail=what,
                       outcome=f"{run.snapshots_added} snapshot(s), {run.rows_added} rows")


def _print_run(out: OutputWrapper, run: CollectionRun, *, what: str) -> None:
    if run.snapshots_added == 0:
        out.write(f"{what}: nothing new (already imported).")
    else:
        out.write(f"{what}: {run.snapshots_added} snapshot(s), {run.rows_added} rows added.")
    for note in filter(None, run.notes.splitlines()):
        out.write(f"  note: {note}")


def _print_followups(out: OutputWrapper, run: CollectionRun) -> None:
    """What follows the run (the apps after this one say: the recommendations' refresh, queued when)."""
    for _receiver, lines in run_followups.send(sender=CollectionRun, target_id=run.target_id, run_id=run.id):
        for line in lines or ():
            out.write(line)


class Command(BaseCommand):
    help = "Import an offline extract (the CSV directory tierscope_extract.sql writes, or a .zip of it)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("path", type=Path, help="directory of CSV files, or a .zip of it")
        add_target_argument(parser)

    @audit_command("import_extract")
    def handle(self, *args: Any, **options: Any) -> None:
        target = target_named(options["target"], missing=REPORT_TARGET_MISSING)
        path: Path = options["path"]
        try:
            run = extract_import(target=target, path_or_zip=path)
        except ImportRefused as error:
            raise CommandError(str(error)) from None
        report_run(self.stdout, run, action="import_extract", target=target, what=path.name)
