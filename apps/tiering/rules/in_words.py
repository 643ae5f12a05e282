"""Figures as the reasons print them: rates, shares, sizes, money, lists of names (pure, standard library).

>>> rate(1234.5), rate(12.0), rate(0.0123)
('1,234', '12', '0.012')
>>> size(3 * 1024**3), money(Decimal("1195.28"))
('3 GB', '1,195.28')
"""

from __future__ import annotations

from decimal import Decimal

BYTES_PER_GIB = 1024**3


def name_list(names: tuple[str, ...], limit: int = 5) -> str:
    shown = ", ".join(names[:limit])
    more = len(names) - limit
    return f"{shown} and {more} more" if more > 0 else shown


def pct(share: float) -> str:
    return f"{share * 100:.0f}%"


def rate(per_s: float) -> str:
    if per_s >= 100:
        return f"{per_s:,.0f}"
    if per_s >= 1:
        return f"{per_s:.1f}".removesuffix(".0")
    return f"{per_s:.2g}"


def intensity(per_gb: float | None) -> str:
    if per_gb is None:
        return "unknown IO/s per GB"
    return f"{rate(per_gb)} IO/s per GB"


def size(size_bytes: int) -> str:
    if size_bytes >= BYTES_PER_GIB:
        return f"{size_bytes / BYTES_PER_GIB:,.1f} GB".replace(".0 GB", " GB")
    if size_bytes >= 1024**2:
        return f"{size_bytes / 1024**2:,.0f} MB"
    return f"{size_bytes / 1024:,.0f} KB"


def money(amount: Decimal) -> str:
    return f"{amount:,.2f}"


def duration(seconds: float) -> str:
    """A duration as the pages and reasons write it.

    >>> duration(8.24), duration(184), duration(7300)
    ('8.2 s', '3 min 4 s', '2 h 1 min')
    """
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(int(round(seconds)), 60)
    if minutes < 60:
        return f"{minutes} min {secs} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes} min"
