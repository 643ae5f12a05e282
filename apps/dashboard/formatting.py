"""Number formatting with units for the dashboard (pure; used by the template filters)."""

from __future__ import annotations

from decimal import Decimal
from typing import Literal

from apps.tiering.rules import in_words

DASH = "—"


def _sig(number: float, digits: int = 3) -> str:
    """A number with about ``digits`` significant digits, thousands separated.

    >>> _sig(0.052148), _sig(12.345), _sig(1234.6)
    ('0.0521', '12.3', '1,235')
    """
    magnitude = abs(number)
    if magnitude == 0:
        return "0"
    if magnitude >= 10 ** (digits - 1):
        return f"{number:,.0f}"
    decimals = digits - 1
    while magnitude >= 10 and decimals > 0:
        magnitude /= 10
        decimals -= 1
    while magnitude < 1 and decimals < 8:
        magnitude *= 10
        decimals += 1
    return f"{number:,.{decimals}f}"


def fmt_gb(size_gb: float | None) -> str:
    """Sizes in MB, GB or TB (binary units, as Oracle reports them)."""
    if size_gb is None:
        return "size unknown"
    if size_gb >= 1024:
        return f"{_sig(size_gb / 1024)} TB"
    if size_gb < 1:
        return f"{_sig(size_gb * 1024)} MB"
    return f"{_sig(size_gb)} GB"


def fmt_bytes(size_bytes: int | None) -> str:
    return fmt_gb(None if size_bytes is None else size_bytes / 1024**3)


def fmt_mib(size_mb: int | None) -> str:
    """MiB as V$ASM_DISKGROUP gives them; negative where ASM says so (USABLE_FILE_MB).

    >>> fmt_mib(825344), fmt_mib(-5120), fmt_mib(None)
    ('806 GB', '-5.00 GB', 'size unknown')
    """
    if size_mb is not None and size_mb < 0:
        return "-" + fmt_gb(-size_mb / 1024)
    return fmt_gb(None if size_mb is None else size_mb / 1024)


def fmt_iops(iops: float | None, *, unit: bool = True) -> str:
    """"542 IOPS"; without the unit where a table's header names it: "542"."""
    if iops is None:
        return DASH
    return f"{_sig(iops)} IOPS" if unit else _sig(iops)


def fmt_intensity(intensity: float | None, *, unit: bool = True) -> str:
    """IO intensity, one spelling on every page (docs/glossary.md): "0.0521 IO/s per GB"; without the unit where
    a table's header names it: "0.0521"."""
    if intensity is None:
        return DASH
    return f"{_sig(intensity)} IO/s per GB" if unit else _sig(intensity)


def fmt_usd(amount: Decimal | float | None) -> str:
    """Dollars with cents below $1,000 and whole dollars above.

    >>> fmt_usd(Decimal("1234.6")), fmt_usd(-3.5), fmt_usd(None)
    ('$1,235', '−$3.50', '—')
    """
    if amount is None:
        return DASH
    number = float(amount)
    sign = "−" if number < 0 else ""
    body = f"{abs(number):,.0f}" if abs(number) >= 1000 else f"{abs(number):,.2f}"
    return f"{sign}${body}"


def fmt_usd_per_month(amount: Decimal | float | None, *, unit: bool = True) -> str:
    """A monthly figure with its unit: the unit every page compares money in; without it where a table's header
    names it ("$/month").

    >>> fmt_usd_per_month(Decimal("312")), fmt_usd_per_month(Decimal("0.0125")), fmt_usd_per_month(None)
    ('$312.00/month', '$0.01/month', '—')
    >>> fmt_usd_per_month(Decimal("312"), unit=False)
    '$312.00'
    """
    if amount is None:
        return DASH
    return f"{fmt_usd(amount)}/month" if unit else fmt_usd(amount)


def fmt_usd_purchase(amount: Decimal | float | None) -> str:
    """A purchase figure (bought devices, paid once) with its unit.

    >>> fmt_usd_purchase(Decimal(18000))
    '$18,000 purchase'
    """
    return DASH if amount is None else f"{fmt_usd(amount)} purchase"


def fmt_pct(ratio: float | None) -> str:
    """A 0..1 ratio as a percentage."""
    return DASH if ratio is None else f"{ratio * 100:.1f}%"


def fmt_duration(seconds: float | Literal[""] | None) -> str:
    """
    >>> fmt_duration(8.24), fmt_duration(184), fmt_duration(7300)
    ('8.2 s', '3 min 4 s', '2 h 1 min')

    A missing attribute reaches a template filter as "" (e.g. the duration of
    a run that does not exist yet): that is no value, not an error.

    >>> fmt_duration(""), fmt_duration(None)
    ('—', '—')
    """
    if seconds is None or seconds == "":
        return DASH
    return in_words.duration(seconds)


def fmt_ago(seconds: float | None) -> str:
    """How long ago something happened, to the minute: "never" when it did not.

    >>> fmt_ago(20), fmt_ago(125), fmt_ago(3 * 3600 + 7 * 60), fmt_ago(3 * 86400 + 5), fmt_ago(None)
    ('just now', '2 min ago', '3 h 7 min ago', '3 days ago', 'never')
    """
    if seconds is None:
        return "never"
    minutes = int(max(seconds, 0) // 60)
    if minutes < 1:
        return "just now"
    if minutes < 60:
        return f"{minutes} min ago"
    if minutes < 48 * 60:
        hours, rest = divmod(minutes, 60)
        return f"{hours} h {rest} min ago" if rest else f"{hours} h ago"
    return f"{minutes // (24 * 60)} days ago"


NO_MOVE_COST = "no move cost set"


def fmt_payback(days: float | None) -> str:
    """Days a move's saving takes to repay its one-off cost, in one format on every page: whole days, "< 1 day",
    and "no move cost set" for 0 (the tier set's move cost is $0: nothing to repay, not an instant payback).

    >>> fmt_payback(96.4), fmt_payback(1), fmt_payback(0.4), fmt_payback(0), fmt_payback(None)
    ('96 days', '1 day', '< 1 day', 'no move cost set', '—')
    """
    if days is None:
        return DASH
    if days == 0:
        return NO_MOVE_COST
    if days < 1:
        return "< 1 day"
    whole = round(days)
    return "1 day" if whole == 1 else f"{whole:,} days"


def fmt_price(amount: Decimal | float | None) -> str:
    """A unit price with enough digits to compare tiers ($0.0800, $12.50).

    >>> fmt_price(Decimal("0.08")), fmt_price(12.5), fmt_price(None)
    ('$0.0800', '$12.50', '—')
    """
    if amount is None:
        return DASH
    number = float(amount)
    return f"${number:,.2f}" if abs(number) >= 1 else f"${number:.4f}"
