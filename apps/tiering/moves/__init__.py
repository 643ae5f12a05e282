"""Moves: what moving a segment costs and whether it is worth it, whether it can be made, and whether it paid.

Modules by concern: ``payback`` (pure: a move's one-off cost, its redo and its payback days), ``hysteresis``
(pure: no marginal or passing move back to a tier a segment left), ``movability`` (pure: which segments a
move can relocate, and why the others cannot), ``feasibility`` (pure: room in the destination tablespace for
each move, in the order they run), ``sqldrive`` (pure: would tuning the SQL that drives a segment save more
than moving it), ``verdicts`` (did a move pay: the before-window against the after-window), ``selectors``
(the moves worth making in a target's current recommendations).

Importing this package loads nothing (the rules import its pure modules).
"""
