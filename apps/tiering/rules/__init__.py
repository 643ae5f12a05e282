"""The seed rules, applied to the figures of many segments at once over a window.

The cost model (``costmodel.py``) picks the cheapest tier from IOPS and GB
alone. These rules add what the seeds say money does not show, and explain
every recommendation in words a DBA reads in the UI, with the numbers:

* write-heavy segments: the flash cache only serves reads, and a buffer cache
  filling with dirty blocks gives free buffer waits -> a flash *tablespace*,
  never FLASH_CACHE KEEP, for them;
* large scans, undo and redo gain little from flash per dollar; TEMP can;
* partitions with very different intensities -> move the hot partitions;
* flash cache residency (V$BH 'flash%' blocks, optimized reads) -> a KEEP
  hint as a cheap alternative to a move, or NONE to stop wasting flash.

Seeds quoted below: "Oracle" = seeds/database-on-flash-oracle-development.txt,
"Harrison" = seeds/flash-tablespace-vs-db-flash-cache-2010.txt, "Flash over
disk" = seeds/flash-over-disk-2012.txt.

Two halves: :func:`decide` (``batch``) takes the decisions (which findings
fire, the flash veto, the hint, the action) with numpy over a :class:`Columns`
batch, a refresh of 100k segments in one go; ``wording`` then words one
segment's share of them. :func:`advise_many` does both for a list of :class:`SegmentFigures`,
:func:`advise` for one. :func:`partition_skew` finds hot partitions. Every
threshold is in :data:`DEFAULT_THRESHOLDS`; callers pass overrides as a mapping.

Modules by concern: ``limits`` (thresholds), ``figures`` (kinds, actions, one
segment's figures and advice, partition skew), ``columns`` (Columns, the batch),
``batch`` (Decisions, decide), ``findings`` (the Reason codes and what the
wording reads), ``wording`` (the sentences; ``payback_words`` those of a move's payback, ``hold_words`` those of
what holds a segment where it is), ``advise`` (both halves together).

Pure: standard library and numpy only, no clock, no settings.
"""
from __future__ import annotations

from apps.tiering.ddl.base import FLASH_CACHE_HINTS
from apps.tiering.moves.movability import LOB_TYPES, TEMP_TYPES, UNDO_TYPES
from apps.tiering.rules.advise import advise, advise_many, finding_codes
from apps.tiering.rules.batch import Columns, Decisions, decide
from apps.tiering.rules.figures import (
    ACTION_FLASH_CACHE_KEEP,
    ACTION_FLASH_CACHE_NONE,
    ACTION_KEEP,
    ACTION_MOVE,
    ACTION_MOVE_PARTITIONS,
    ACTION_NOT_MOVABLE,
    ACTION_NOT_WORTH_MOVING,
    ACTION_PLACE_AHEAD,
    ACTIONS,
    FLASH_CACHE_CODES,
    HINTS,
    MOVING_ACTIONS,
    PARTITION_TYPES,
    Advice,
    MoveFigures,
    PartitionSkew,
    SegmentFigures,
    partition_skew,
)
from apps.tiering.rules.findings import DISPLAY_ORDER, FINDING_CODES, WASTE_CAUSES, Mix, Reason, RowDecision
from apps.tiering.rules.limits import DEFAULT_THRESHOLDS, Limits, RulesError, merge_thresholds

__all__ = [
    "ACTIONS", "ACTION_FLASH_CACHE_KEEP", "ACTION_FLASH_CACHE_NONE", "ACTION_KEEP", "ACTION_MOVE",
    "ACTION_MOVE_PARTITIONS", "ACTION_NOT_MOVABLE", "ACTION_NOT_WORTH_MOVING", "ACTION_PLACE_AHEAD", "DEFAULT_THRESHOLDS", "DISPLAY_ORDER", "FINDING_CODES", "FLASH_CACHE_CODES", "FLASH_CACHE_HINTS",
    "HINTS", "LOB_TYPES", "MOVING_ACTIONS", "PARTITION_TYPES", "TEMP_TYPES", "UNDO_TYPES", "WASTE_CAUSES", "Advice", "Columns",
    "Decisions", "Limits", "Mix", "MoveFigures", "PartitionSkew", "Reason", "RowDecision", "RulesError", "SegmentFigures",
    "advise", "advise_many", "decide", "finding_codes", "merge_thresholds", "partition_skew",
]
