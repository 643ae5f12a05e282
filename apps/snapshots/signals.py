"""What the snapshots app tells the apps after it (tiering), without importing them."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once a run (a collection or an import) has succeeded and its rows are committed, with
#: ``target_id`` and ``run_id``. The recommendations refresh listens (apps.tiering.apps): it runs
#: as its own task, so a refresh that fails fails only itself.
run_succeeded = Signal()
