"""What the snapshots app tells the apps after it (tiering), without importing them."""

from __future__ import annotations

from django.dispatch import Signal

#: Sent once a run (a collection or an import) has succeeded and its rows are committed, with
#: ``target_id`` and ``run_id``. The recommendations refresh listens (apps.tiering.apps): it runs
#: as its own task, so a refresh that fails fails only itself.
run_succeeded = Signal()

#: Sent by a command after a run it made (an import), with ``target_id`` and ``run_id``: each receiver
#: returns lines saying what follows the run (the recommendations: a refresh queued when, how to check),
#: which the command prints.
run_followups = Signal()

#: Sent once a run has ended (succeeded, failed, skipped or reaped) and its row is committed, with
#: ``target_id``, ``run_id`` and ``status``. The alerts listen (a target failing, then collecting again).
run_ended = Signal()
