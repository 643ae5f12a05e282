"""The steps of a move plan in a safe order, each with its DDL, and the plan's totals.

The order, in phases:

1. ``table``: whole tables, each followed at once by its LOB segments (a LOB moves with its table:
   ``ALTER TABLE .. MOVE LOB`` rebuilds the table segment too);
2. ``partition``: table and LOB partitions, one partition per step (``move_partitions`` advice is
   split into one step per partition), so each step locks and copies one partition only;
3. ``index``: index and index partition rebuilds, one per step. Every table comes before every index:
   the segments do not say which table an index belongs to, and a table moved offline (before 12.2)
   leaves its indexes UNUSABLE, so a rebuild before the table's move would be undone by it;
4. ``other``: segments DDL cannot move (undo, temp): the comment steps saying what to do instead;
5. ``hint``: flash cache hints last, once every segment is where it will stay (a hint set on a segment
   still to move would apply to blocks about to be rewritten).

Within a phase steps follow owner and name, so a plan reads in the order a DBA expects. Each step
carries the estimate of its recommendation: duration (``move_seconds``), redo (``move_redo_bytes``),
unknown (None) where not estimated, never 0. Hint steps move no data: their duration and redo are
not estimates and stay out of the totals.

Pure: standard library and apps.tiering.ddl only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import partial
from typing import TypedDict

from apps.targets.rows import segment_name
from apps.tiering import ddl
from apps.tiering.rules import MOVING_ACTIONS

PHASES = ("table", "partition", "index", "other", "hint")

MOVE_ACTIONS = MOVING_ACTIONS
HINT_ACTIONS = {"flash_cache_keep": "KEEP", "flash_cache_none": "NONE"}
#: Actions a plan can carry out; every other one (keep, not_movable, not_worth_moving, ...) is refused.
PLANNABLE_ACTIONS = MOVE_ACTIONS | frozenset(HINT_ACTIONS)

#: A month in days, for payback (365.25 / 12).
DAYS_PER_MONTH = 30.4375

_TABLE_TYPES = frozenset({"TABLE"})
_LOB_TYPES = frozenset({"LOBSEGMENT"})
_PARTITION_TYPES = frozenset({"TABLE PARTITION", "TABLE SUBPARTITION", "LOB PARTITION", "LOB SUBPARTITION"})
_INDEX_TYPES = frozenset({"INDEX", "INDEX PARTITION", "INDEX SUBPARTITION"})


def segment_label(owner: str, object_name: str, subobject_name: str, object_type: str, container: str = "") -> str:
    """``[PDB:]OWNER.NAME.PARTITION (TYPE)``, as steps and scripts name a segment."""
    return f"{segment_name(owner, object_name, subobject_name, container)} ({object_type})"


class PlanError(ValueError):
    """A plan cannot be made as asked (nothing to plan, an action no plan carries out); one line."""


@dataclass(frozen=True)
class PlanItem:
    """One recommendation chosen for a plan, as the planner reads it.

    ``to_tablespace`` is the tablespace mapped to the recommended tier (None: none mapped);
    ``flash_cache_hint`` the advice's KEEP/NONE beside a move; ``hot_partitions`` the partitions a
    ``move_partitions`` advice names; ``note`` a line written as a comment above its move (why a fleet
    budget moves it). Money per month; ``move_cost_usd`` is one-off.
    """

    segment_id: int | None
    owner: str
    object_name: str
    object_type: str
    action: str
    subobject_name: str = ""
    #: The PDB of a CDB's segment ("" for a non-CDB): every statement of its steps runs there.
    container: str = ""
    partitioned_parent: str = ""
    lob_column: str = ""
    name_truncated: bool = False
    #: A LOB (sub)partition's table (sub)partition: its MOVE names it.
    table_partition_name: str = ""
    from_tablespace: str = ""
    to_tablespace: str | None = None
    to_tier: str = ""
    onto_flash: bool = False
    hot_partitions: tuple[str, ...] = ()
    flash_cache_hint: str | None = None
    size_bytes: int | None = None
    move_seconds: float | None = None
    move_redo_bytes: int | None = None
    saving_usd_per_month: Decimal | None = None
    move_cost_usd: Decimal | None = None
    payback_days: float | None = None
    note: str = ""

    @property
    def label(self) -> str:
        return segment_label(self.owner, self.object_name, self.subobject_name, self.object_type, self.container)


@dataclass
class PlannedStep:
    """One step: the statements it runs (``ddl``: lines, statements end with ';', comments '-- ').
    Numbered by plan_steps; not changed after.

    ``subobject_name`` is the partition the step moves (a ``move_partitions`` item's one partition).
    ``runnable``: the step has a statement (else its lines say why not, and what to do by hand).
    Money sits on the item's first step only, so the steps add up to the plan.
    """

    position: int
    phase: str
    kind: str  # "move" or "hint"
    item: PlanItem
    object_type: str  # the item's, or TABLE/INDEX PARTITION for one partition of a move_partitions advice
    subobject_name: str
    ddl: tuple[str, ...]
    runnable: bool
    seconds: float | None
    redo_bytes: int | None
    size_bytes: int | None
    saving_usd_per_month: Decimal | None
    move_cost_usd: Decimal | None
    payback_days: float | None

    @property
    def label(self) -> str:
        return segment_label(self.item.owner, self.item.object_name, self.subobject_name, self.object_type,
                             self.item.container)


@dataclass(frozen=True)
class PlanTotals:
    """What a plan adds up to. A total is None (unknown) when a move step lacks its figure; the
    ``unknown_*`` counts say how many, so the page can say so instead of adding a 0."""

    steps: int
    moves: int
    size_bytes: int | None
    seconds: float | None
    redo_bytes: int | None
    saving_usd_per_month: Decimal | None
    move_cost_usd: Decimal | None
    payback_days: float | None
    unknown_seconds: int
    unknown_redo: int
    unknown_cost: int


#: A step's sort key (:func:`_order_key`): its phase's index, then names and positions.
_Key = tuple[object, ...]


class _Money(TypedDict, total=False):
    """A recommendation's money figures, carried by the first of the steps it becomes."""

    saving_usd_per_month: Decimal | None
    move_cost_usd: Decimal | None
    payback_days: float | None


def plan_steps(items: Iterable[PlanItem], *, release: ddl.ReleaseLike) -> list[PlannedStep]:
    """The steps of ``items`` in the safe order (module doc), numbered from 1, with their DDL."""
    chosen: dict[tuple[str, ...], tuple[_Key, PlannedStep]] = {}
    for item in items:
        if item.action not in PLANNABLE_ACTIONS:
            raise PlanError(f"{item.label}: action {item.action!r} is not carried out by a plan "
                            f"(only {', '.join(sorted(PLANNABLE_ACTIONS))})")
        for key, step in _item_steps(item, release):
            identity = (item.container, item.owner, item.object_name, step.object_type, step.subobject_name, step.kind)
            # A partition both named by a move_partitions advice and recommended on its own moves once, as its
            # own recommendation (which has its estimates).
            if identity not in chosen or step.item.subobject_name == step.subobject_name:
                chosen[identity] = (key, step)
    steps = [step for _, step in sorted(chosen.values(), key=lambda pair: pair[0])]
    for number, step in enumerate(steps, start=1):
        step.position = number  # numbered once in order (a copy per step was a sixth of a 10k-step plan)
    return steps


def _item_steps(item: PlanItem, release: ddl.ReleaseLike) -> list[tuple[_Key, PlannedStep]]:
    kind = " ".join(item.object_type.upper().split())
    request = ddl.DdlRequest(
        owner=item.owner, object_name=item.object_name, object_type=kind, release=release,
        subobject_name=item.subobject_name or None, target_tablespace=item.to_tablespace,
        partitioned_parent=item.partitioned_parent or None, lob_column=item.lob_column or None,
        table_partition_name=item.table_partition_name or None, name_truncated=item.name_truncated,
    )
    money: _Money = {"saving_usd_per_month": item.saving_usd_per_month, "move_cost_usd": item.move_cost_usd,
             "payback_days": item.payback_days}
    steps: list[tuple[_Key, PlannedStep]] = []
    if item.action in HINT_ACTIONS:
        return [_hint_step(item, request, HINT_ACTIONS[item.action], money)]
    if item.action == "move_partitions" and item.hot_partitions:
        for number, partition in enumerate(item.hot_partitions):
            one = replace(request, subobject_name=partition,
                          object_type="INDEX PARTITION" if kind.startswith("INDEX") else "TABLE PARTITION")
            lines = _lines(partial(ddl.move_partitions_ddl, request, [partition]), item)
            # The item's estimate is of its own segment, not of each partition it names: unknown per partition.
            steps.append((_order_key(item, one.object_type, partition), _step(
                item, "move", partition, lines, None, None, None, money if number == 0 else {},
                object_type=one.object_type)))
        steps += _follow_hint(item, request)
        return steps
    lines = _lines(lambda: ddl.move_ddl(request), item)
    if item.note:
        lines = (f"-- {_safe_words(item.note)}", *lines)
    steps.append((_order_key(item, kind, item.subobject_name),
                  _step(item, "move", item.subobject_name, lines, item.move_seconds, item.move_redo_bytes,
                        item.size_bytes, money)))
    return steps + _follow_hint(item, request)


def _follow_hint(item: PlanItem, request: ddl.DdlRequest) -> list[tuple[_Key, PlannedStep]]:
    """The KEEP/NONE beside a move, as its own step in the hint phase. A KEEP beside a move onto flash is
    the cheap alternative to that move (not both): the plan makes the move, so no hint step."""
    if item.flash_cache_hint is None or (item.flash_cache_hint == "KEEP" and item.onto_flash):
        return []
    return [_hint_step(item, request, item.flash_cache_hint, {})]


def _hint_step(item: PlanItem, request: ddl.DdlRequest, hint: str, money: _Money) -> tuple[_Key, PlannedStep]:
    lines = _lines(lambda: ddl.flash_cache_ddl(request, hint), item)
    key = (PHASES.index("hint"), item.container, item.owner, item.object_name, item.subobject_name, item.object_type)
    return key, _step(item, "hint", item.subobject_name, lines, None, None, None, money, phase="hint")


def _lines(build: Callable[[], ddl.DdlScript], item: PlanItem) -> tuple[str, ...]:
    if item.action != "flash_cache_keep" and item.action != "flash_cache_none" and not item.to_tablespace:
        return (f"-- no tablespace of this target is mapped to tier {_safe_words(item.to_tier)}: "
                "map one (Admin > Targets > tablespace tiers) and make the plan again",)
    try:
        return ddl.in_container(build(), item.container).lines
    except ddl.DdlError as exc:
        return (f"-- DDL cannot be generated: {_safe_words(str(exc))}",)


def _safe_words(text: str) -> str:
    """Text for one comment line: control characters (a name's newline) cannot end the comment early."""
    return "".join(ch if ch.isprintable() else "?" for ch in text)


def _step(item: PlanItem, kind: str, subobject: str, lines: tuple[str, ...], seconds: float | None,
          redo: int | None, size: int | None, money: _Money, *, phase: str | None = None,
          object_type: str | None = None) -> PlannedStep:
    runnable = any(not line.startswith("--") for line in lines)
    object_type = object_type or item.object_type
    return PlannedStep(
        position=0, phase=phase or _phase(object_type), kind=kind, item=item, object_type=object_type,
        subobject_name=subobject,
        ddl=lines, runnable=runnable, seconds=seconds, redo_bytes=redo, size_bytes=size,
        saving_usd_per_month=money.get("saving_usd_per_month"), move_cost_usd=money.get("move_cost_usd"),
        payback_days=money.get("payback_days"),
    )


def _phase(object_type: str) -> str:
    kind = " ".join(object_type.upper().split())
    if kind in _TABLE_TYPES or kind in _LOB_TYPES:
        return "table"
    if kind in _PARTITION_TYPES:
        return "partition"
    if kind in _INDEX_TYPES:
        return "index"
    return "other"


def _order_key(item: PlanItem, object_type: str, subobject: str) -> _Key:
    """Sort key: phase, then the table a step belongs to (a LOB's is its parent), the table itself before
    its LOBs, then the partition (a LOB (sub)partition's: its table (sub)partition's)."""
    kind = " ".join(object_type.upper().split())
    phase = _phase(kind)
    table = item.partitioned_parent if kind.startswith("LOB") and item.partitioned_parent else item.object_name
    lob_last = 1 if kind.startswith("LOB") else 0
    if lob_last and item.table_partition_name:
        subobject = item.table_partition_name  # a LOB (sub)partition right after its table (sub)partition
    return (PHASES.index(phase), item.container, item.owner, table, subobject, lob_last, item.object_name,
            item.lob_column)


_PARTITION_NAMED = re.compile(r'\b(?:MOVE|REBUILD) PARTITION "([^"]+)"')


def advised_hint(reason_codes: Iterable[str]) -> str | None:
    """The flash cache hint an advice gives beside its action, from its reasons' codes (the rules' order:
    KEEP before NONE).

    >>> advised_hint(["partition_skew", "flash_cache_none"]), advised_hint(["write_heavy"])
    ('NONE', None)
    """
    codes = set(reason_codes)
    return "KEEP" if "flash_cache_keep" in codes else "NONE" if "flash_cache_none" in codes else None


def advised_partitions(ddl_text: str) -> tuple[str, ...]:
    """The partitions a move_partitions advice's statements move, in their order.

    >>> advised_partitions('ALTER TABLE "A"."T" MOVE PARTITION "P2" TABLESPACE "F" UPDATE INDEXES ONLINE;')
    ('P2',)
    """
    return tuple(match[1] for line in ddl_text.splitlines() if not line.startswith("--")
                 for match in _PARTITION_NAMED.finditer(line))


def plan_totals(steps: Sequence[PlannedStep]) -> PlanTotals:
    """The plan's totals (None where a move step's figure is unknown) and its payback in days.

    >>> item = PlanItem(1, "A", "T", "TABLE", "move", to_tablespace="X", size_bytes=10, move_seconds=5.0,
    ...                 move_redo_bytes=100, saving_usd_per_month=Decimal("10"), move_cost_usd=Decimal("5"))
    >>> totals = plan_totals(plan_steps([item], release="19.0"))
    >>> totals.seconds, totals.redo_bytes, totals.saving_usd_per_month, round(totals.payback_days, 2)
    (5.0, 100, Decimal('10'), 15.22)
    """
    moves = [step for step in steps if step.kind == "move"]
    seconds = [step.seconds for step in moves if step.seconds is not None]
    redo = [step.redo_bytes for step in moves if step.redo_bytes is not None]
    unknown_seconds, unknown_redo = len(moves) - len(seconds), len(moves) - len(redo)
    sizes = [step.size_bytes for step in moves if step.size_bytes is not None]
    saving = _sum_known([step.saving_usd_per_month for step in steps if step.saving_usd_per_month is not None])
    costs = [step.move_cost_usd for step in moves if step.saving_usd_per_month is not None]
    known_costs = [cost for cost in costs if cost is not None]
    unknown_cost = len(costs) - len(known_costs)
    move_cost = None if unknown_cost or not costs else sum(known_costs, Decimal(0))
    payback = None
    if move_cost is not None and saving is not None and saving > 0:
        payback = float(move_cost / saving) * DAYS_PER_MONTH
    return PlanTotals(
        steps=len(steps), moves=len(moves),
        size_bytes=None if len(sizes) < len(moves) else sum(sizes),
        seconds=None if unknown_seconds else sum(seconds),
        redo_bytes=None if unknown_redo else sum(redo),
        saving_usd_per_month=saving, move_cost_usd=move_cost, payback_days=payback,
        unknown_seconds=unknown_seconds, unknown_redo=unknown_redo, unknown_cost=unknown_cost,
    )


def _sum_known(values: list[Decimal]) -> Decimal | None:
    return sum(values, Decimal(0)) if values else None
