"""The words of the storage map's finding: a move onto or off an array pool that tiers by itself.

An array that tiers by itself (automated tiering: EMC FAST VP, NetApp FabricPool, 3PAR Adaptive
Optimization...) already moves a LUN's hot extents to its faster drives and cold ones to slower drives.
tierscope's move of a segment between tablespaces changes what the array sees, and the two fight:
the array's statistics start again for the moved blocks, and the price of the tier the map gives the
location is an average of drives the array chooses. The DBA says which locations have one (the storage
map's "array tiering"); the move is still advised, with this warning. Pure: standard library only.
"""

from __future__ import annotations

from apps.tiering.rules.figures import SegmentFigures
from apps.tiering.rules.in_words import name_list


def array_tiering(figures: SegmentFigures) -> str:
    """'The array pool behind +DATA tiers by itself: moving segments fights it ...'."""
    behind = name_list(figures.array_tiering) if figures.array_tiering else "its storage"
    return (f"The array pool behind {behind} tiers by itself: moving segments fights it. The array already "
            "moves hot extents to its faster drives and cold ones to slower drives; a move to "
            f"{figures.recommended_tier} restarts what the array learnt of these blocks, and the tier's price is "
            "an average of drives the array picks. Agree the move with the storage team first.")
