"""The words of a move's payback (apps.tiering.moves.payback): what a move saves and costs once, and why one
is not worth making.

Pure: standard library only; reads a segment's :class:`SegmentFigures` and its move's :class:`MoveFigures`.
"""

from __future__ import annotations

from decimal import Decimal

from apps.tiering.rules.figures import MoveFigures, SegmentFigures
from apps.tiering.rules.in_words import money, name_list, size


def payback(figures: SegmentFigures) -> tuple[str, str] | None:
    """(code, text) of a move made: 'The move saves $X/month, pays back its $Y move in Z days, within the
    N-month horizon', with its duration and redo; None when the figures are not known."""
    move = figures.move
    if move is None or move.saving_per_month is None or move.cost is None or move.payback_days is None:
        return None
    if not move.cost:  # not "pays back its $0.00 move at once": there is no move cost to repay
        return "payback", (
            f"The move saves ${money(move.saving_per_month)}/month; no move cost is set, so there is nothing to "
            f"pay back ({_what_it_costs(move)}). {_duration(figures, move)}"
        )
    return "payback", (
        f"The move saves ${money(move.saving_per_month)}/month and pays back its ${money(move.cost)} move "
        f"in {_days(move.payback_days)}, within the {_months(move.horizon_months)}-month horizon "
        f"({_what_it_costs(move)}). {_duration(figures, move)}"
    )


def not_worth_moving(figures: SegmentFigures) -> tuple[str, str]:
    """(code, text): why the move to the cost model's tier is not made, with its figures."""
    move, here, there = figures.move, figures.current_tier, figures.recommended_tier
    if move is None or move.saving_per_month is None or move.cost is None:
        return "not_worth_moving", (f"Not worth moving: the move to {there} does not repay its one-off cost "
                                    f"soon enough; it stays on {here}.")
    saving, cost = move.saving_per_month, move.cost
    if saving <= 0:
        why = (f"the move to {there} saves nothing a month (${money(saving)}/month), so its ${money(cost)} "
               "one-off cost never pays back")
    else:
        shortfalls = []
        if saving < move.min_saving_per_month:
            shortfalls.append(f"under the minimum of ${money(move.min_saving_per_month)}/month")
        if move.payback_days is not None and cost > saving * move.horizon_months:
            shortfalls.append(f"its ${money(cost)} move would take {_days(move.payback_days)} to pay back, beyond "
                              f"the {_months(move.horizon_months)}-month horizon")
        if not shortfalls:  # the set's terms changed since the refresh weighed it
            shortfalls.append(f"too little or too late to repay its ${money(cost)} move on the terms of the last "
                              "refresh")
        why = f"the move to {there} would save ${money(saving)}/month, " + " and ".join(shortfalls)
    return "not_worth_moving", f"Not worth moving: {why}; it stays on {here}. {_duration(figures, move)}"


def _what_it_costs(move: MoveFigures) -> str:
    if move.cost:
        return "a DBA's cost per move; the copy's IO adds nothing to what the tiers are paid for"
    return "no DBA cost per move is set, and the copy's IO adds nothing to what the tiers are paid for"


def _duration(figures: SegmentFigures, move: MoveFigures) -> str:
    """'It copies 12 GB (about 12 GB of redo) in about 6 min at the tiers' throughput.' or why not known."""
    copied = size(figures.size_bytes) if figures.size_bytes is not None else "its blocks"
    redo = f" (about {size(move.redo_bytes)} of redo, LOGGING)" if move.redo_bytes is not None else ""
    if move.seconds is None:
        tiers = name_list(move.unknown_throughput) if move.unknown_throughput else "a tier"
        return (f"It copies {copied}{redo}; how long that takes is unknown: no throughput is known "
                f"for {tiers}.")
    return f"It copies {copied}{redo} in about {_seconds(move.seconds)} at the tiers' throughput."


def _days(days: float) -> str:
    if days < 1:
        return "less than a day"
    return f"{days:,.0f} days" if days >= 1.5 else "1 day"


def _months(months: Decimal) -> str:
    return f"{Decimal(months).normalize():f}"


def _seconds(seconds: float) -> str:
    if seconds < 90:
        return f"{max(seconds, 1):.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:,.1f} h".replace(".0 h", " h")
