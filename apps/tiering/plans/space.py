"""Free space after each step of a plan: apps.tiering.moves.feasibility over the target's latest tablespace room.

Free space is "room": what the destination's files may still take (max size, autoextend counted, less
what segments use), once the step and every move before it have run; a step whose files must grow into an ASM
disk group with too little usable free space lacks room too (what it lacks there is its shortfall). Unknown stays unknown (None, never
0): where the target's tablespace room was never collected (AWR reports), for a destination whose room
is not known or only a lower bound, and for a step of unknown size. Hint steps move nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from apps.snapshots.selectors import tablespace_space_latest
from apps.snapshots.storage_map import growth_room_read
from apps.targets.models import Target
from apps.tiering.moves.feasibility import Move, feasibility
from apps.tiering.plans.steps import PlannedStep

#: position -> (destination's room after the step, what it lacks: None when it has room or is not known)
Room = dict[int, tuple[int | None, int | None]]


def free_space_after(*, target: Target, steps: Sequence[PlannedStep]) -> Room | None:
    """Each move step's room after it, or None when the target's tablespace room is not known at all."""
    space = tablespace_space_latest(target_id=target.id)
    if not space:
        return None
    moves = [step for step in steps if step.kind == "move"]
    grows = growth_room_read(target_id=target.id)
    checks = feasibility([Move(step.size_bytes, step.item.from_tablespace, step.item.to_tablespace or None)
                          for step in moves], space, growth=grows.headroom, location_room=grows.location_room).checks
    return {
        # A step short of room leaves none: it has its shortfall, not a negative room.
        step.position: (check.room_after_bytes if check.fits and check.room_exact else None,
                        check.shortfall_bytes if check.fits is False else None)
        for step, check in zip(moves, checks)
    }
