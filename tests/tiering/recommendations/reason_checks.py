"""What a recommendation's words and DDL must agree with: its action, its tiers and its figures.

:func:`contradictions` lists every disagreement of one stored recommendation
and its explanation (apps.tiering.recommendations.explain); tests run it over whole targets.
"""

from __future__ import annotations

from apps.tiering import rules
from apps.tiering.moves import movability
from apps.tiering.rules.in_words import rate as _rate

_MOVES = rules.MOVING_ACTIONS
_UNMEASURED = 1 << rules.FINDING_CODES.index("unmeasured")
_NOT_WORTH_MOVING = 1 << rules.FINDING_CODES.index("not_worth_moving")
#: Phrases that promise a move to flash.
_FLASH_MOVE_PROMISES = ("moving it to flash would", "move it to a flash tablespace on")


def contradictions(rec, explanation) -> list[str]:
    """Every way ``explanation`` (reasons and DDL) disagrees with ``rec``'s action, tiers or figures."""
    problems: list[str] = []
    seg = rec.segment
    text = " ".join(reason.text for reason in explanation.reasons)
    statements = [line for line in explanation.ddl.splitlines() if line and not line.startswith("--")]
    moves = rec.action in _MOVES
    current = rec.current_tier.name if rec.current_tier else "(unmapped)"
    final = rec.recommended_tier

    def say(problem: str) -> None:
        problems.append(f"{seg} [{rec.action}]: {problem}")

    if explanation.action != rec.action:
        say(f"worded from the action {explanation.action!r}, not the stored one")

    # Only real moves: a move has its statement (or says why none can be written), nothing else moves.
    if rec.action == rules.ACTION_MOVE and not statements and not any(
            why in explanation.ddl for why in ("DDL cannot be generated", "No tablespace of this target")):
        say("a move without DDL")
    if not moves and any(" MOVE " in line or " REBUILD" in line for line in statements):
        say(f"a move statement without a move: {statements}")
    if rec.action in (rules.ACTION_KEEP, rules.ACTION_NOT_MOVABLE, rules.ACTION_NOT_WORTH_MOVING) and statements:
        say(f"statements for {rec.action}: {statements}")
    if not moves and rec.savings_usd not in (None, 0):
        say(f"a saving of {rec.savings_usd} without a move")
    if not moves and rec.recommended_tier_id != rec.current_tier_id:
        say("a new tier without a move")
    code = movability.movability(seg.owner, seg.object_name, seg.object_type, name_truncated=seg.name_truncated)
    if code and rec.action != rules.ACTION_NOT_MOVABLE:
        say(f"not movable ({code}) but its action is {rec.action}")
    if rec.findings & _UNMEASURED and moves:
        say("moved although its IO was not all measured")
    if rec.findings & _NOT_WORTH_MOVING and moves:
        say("moved although the move is not worth making")

    # The words follow the action.
    moves_to_flash = moves and final is not None and final.is_flash
    if not moves_to_flash and any(promise in text for promise in _FLASH_MOVE_PROMISES):
        say("speaks of a move to flash that is not made")
    if "stays on" in text and (moves or f"stays on {current}" not in text):
        say(f"says it stays on a tier while {rec.action} to {final}")
    for hint in ("KEEP", "NONE"):
        advised = f"FLASH_CACHE {hint} hint" in text
        written = f"FLASH_CACHE {hint})" in explanation.ddl
        if advised != written:
            say(f"FLASH_CACHE {hint} {'advised without its DDL' if advised else 'in the DDL without a reason'}")
    if final is not None and final.is_flash and any("FLASH_CACHE KEEP)" in line for line in statements):
        say("a KEEP statement for a segment on flash")

    # The figures quoted are the stored ones.
    for reason in explanation.reasons:
        if reason.code == "cheaper_tier":
            if f"{rec.cost_tier.name} is the cheapest tier for it" not in reason.text:
                say(f"the cheapest tier named is not {rec.cost_tier.name}: {reason.text}")
            if moves == reason.text.startswith("By cost alone"):
                say(f"the verdict's 'by cost alone' does not match the action: {reason.text}")
            if " It would cost " in reason.text and (
                    f"cost ${rec.cost_tier_usd:,.2f} there instead of ${rec.cost_now_usd:,.2f} on {current}"
                    not in reason.text):
                say(f"costs quoted are not {rec.cost_tier_usd} and {rec.cost_now_usd}: {reason.text}")
        quoted = ("" if rec.move_cost_usd is None else "no move cost is set, so there is nothing to pay back"
                  if rec.move_cost_usd == 0 else f"pays back its ${rec.move_cost_usd:,.2f} move")
        if reason.code == "payback" and (rec.action != rules.ACTION_MOVE or rec.move_cost_usd is None
                                         or quoted not in reason.text):
            say(f"a payback for {rec.action} or not of its stored one-off cost {rec.move_cost_usd}: {reason.text}")
        if reason.code == "not_worth_moving" and not rec.findings & _NOT_WORTH_MOVING:
            say(f"'not worth moving' without its finding: {reason.text}")
        if reason.code == "keep_current" and f"{current} is already the cheapest tier" not in reason.text:
            say(f"'already the cheapest' names another tier than {current}: {reason.text}")
        if reason.code in ("cheaper_tier", "keep_current") and rec.iops is not None and rec.measured:
            if f"{_rate(rec.iops)} IO requests/s" not in reason.text:
                say(f"IOPS quoted are not {rec.iops}: {reason.text}")
    return problems
