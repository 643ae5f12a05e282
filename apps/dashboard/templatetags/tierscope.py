"""Template filters: numbers with units (see apps/dashboard/formatting.py)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from django import template
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html

from apps.dashboard import formatting
from apps.tiering.moves.movability import LOB_INDEX_TYPES, LOB_TYPES
from apps.tiering.recommendations.lobfold import LOB_SEGMENT_TYPES
from apps.tiering.recommendations.selectors import lob_indexes_of

register = template.Library()

_STORES_A_LOB = LOB_TYPES | LOB_INDEX_TYPES  # a LOB's segments and its index: the table and column they serve


# Money per month (issue 15): figures are stored in their tier set's unit (a purchase, or per month);
# ``basis`` (costmodel.BillingBasis, the target's tier_set.basis) turns them into the page's one unit.


def _amount(value: Any) -> Decimal | None:
    return None if value is None or value == "" else Decimal(str(value))


@register.filter
def usd_month(amount: Any) -> str:
    """``{{ amount|usd_month }}``: an amount that is per month already, with its unit."""
    return formatting.fmt_usd_per_month(_amount(amount))


@register.filter
def per_month(amount: Any, basis: Any, *, unit: bool = True) -> str:
    """``{{ amount|per_month:basis }}``: "$300.00/month" for $18,000 of devices over 60 months."""
    figure = _amount(amount)
    return formatting.fmt_usd_per_month(None if figure is None or not basis else basis.per_month(figure), unit=unit)


@register.filter
def in_own_unit(amount: Any, basis: Any) -> str:
    """``{{ amount|in_own_unit:basis }}``: the figure as billed, "$18,000 purchase" or "$12.00/month"."""
    figure = _amount(amount)
    if basis and basis.purchase:
        return formatting.fmt_usd_purchase(figure)
    return formatting.fmt_usd_per_month(figure)


@register.simple_tag
def rec_money(rec: Any, field: str, basis: Any, unit: bool = True) -> str:
    """A recommendation's cost field per month; "≥ " before it where the IOPS were not all measured (the
    cost counts GB and the measured IOPS only: a lower bound). ``unit=False`` in a table whose header says
    "$/month"."""
    value = getattr(rec, field, None)
    text = per_month(value, basis, unit=unit)
    if getattr(rec, "measured", True) or value is None or field == "savings_usd":
        return text
    return f"≥ {text}"


def _missing_is_none(fmt: Callable[[Any], str]) -> Callable[[Any], str]:
    """A missing attribute reaches a filter as "" (string_if_invalid): format it as no value."""

    @functools.wraps(fmt)
    def wrapper(value: Any) -> str:
        return fmt(None if value == "" else value)

    return wrapper


for _name, _fmt in (
    ("gb", formatting.fmt_gb), ("bytes_h", formatting.fmt_bytes), ("mib_h", formatting.fmt_mib), ("iops", formatting.fmt_iops),
    ("intensity", formatting.fmt_intensity), ("usd", formatting.fmt_usd), ("price", formatting.fmt_price),
    ("pct", formatting.fmt_pct), ("duration", formatting.fmt_duration), ("payback", formatting.fmt_payback),
):
    register.filter(_name, _missing_is_none(_fmt))


@register.simple_tag(takes_context=True)
def query_with(context: template.Context, **changes: object) -> str:
    """The current GET query string with some parameters replaced (for paging and sort links)."""
    params = context["request"].GET.copy()
    for key, value in changes.items():
        if value in (None, ""):
            params.pop(key, None)
        else:
            params[key] = str(value)
    if "sort" in changes:  # a new order starts on page one
        for cursor in ("page", "after", "before"):
            params.pop(cursor, None)
    encoded = params.urlencode()
    return f"?{encoded}" if encoded else "?"


@register.simple_tag(takes_context=True)
def sort_header(context: template.Context, key: str, label: str, numeric: bool = False, unit: str = "") -> str:
    """A <th> whose link sorts the table by ``key`` (descending first; a second click flips it); ``unit``, when
    given, on a line of its own under the label: the unit the column's cells leave out."""
    current = context.get("sort", "")
    if current == f"-{key}":
        new, aria = key, "descending"
    elif current == key:
        new, aria = f"-{key}", "ascending"
    else:
        new, aria = f"-{key}", "none"
    href = query_with(context, sort=new)
    # The arrow comes from CSS on aria-sort.
    if unit:
        return format_html('<th class="{}" aria-sort="{}"><a href="{}">{}</a><span class="unit">{}</span></th>',
                           "num" if numeric else "", aria, href, label, unit)
    return format_html('<th class="{}" aria-sort="{}"><a href="{}">{}</a></th>',
                       "num" if numeric else "", aria, href, label)


@register.filter
def ago(moment: Any) -> str:
    """``{{ when|ago }}``: "12 min ago" from now, "never" for no moment."""
    if moment is None or moment == "":
        return formatting.fmt_ago(None)
    return formatting.fmt_ago((timezone.now() - moment).total_seconds())


@register.filter
def spaced(code: str) -> str:
    """``not_worth_moving`` -> ``not worth moving``; a hint's action in its DDL's words: ``flash_cache_none`` ->
    ``FLASH_CACHE NONE`` (the Database Smart Flash Cache hint, never to be read as Exadata's cell flash cache)."""
    if code in ("flash_cache_keep", "flash_cache_none"):
        return "FLASH_CACHE " + code.rsplit("_", 1)[1].upper()
    return (code or "").replace("_", " ")


# A recommendation's figures where a top-N gap left them unmeasured (Recommendation.measured False):
# said so, with the bound the source gave, never shown as 0.
NOT_MEASURED = "not measured"


@register.filter
def rec_iops(rec: Any, unit: bool = True) -> str:
    """The recommendation's IOPS, or "not measured (≤ N IOPS)"; ``{{ rec|rec_iops:False }}`` without the unit,
    in a table whose header names it."""
    if getattr(rec, "measured", True):
        return formatting.fmt_iops(rec.iops, unit=unit)
    bound = getattr(rec, "iops_bound", None)
    return NOT_MEASURED if bound is None else f"{NOT_MEASURED} (≤ {formatting.fmt_iops(bound, unit=unit)})"


@register.filter
def rec_intensity(rec: Any, unit: bool = True) -> str:
    """The recommendation's intensity, or "not measured (≤ N)" (the IOPS bound over its size); ``unit`` as
    ``rec_iops``'s."""
    if getattr(rec, "measured", True):
        return formatting.fmt_intensity(rec.intensity, unit=unit)
    bound, size_gb = getattr(rec, "iops_bound", None), getattr(rec, "size_gb", None)
    if bound is None or not size_gb:
        return NOT_MEASURED
    return f"{NOT_MEASURED} (≤ {formatting.fmt_intensity(bound / size_gb, unit=unit)})"


@register.filter
def rec_payback(rec: Any) -> str:
    """Days a move's saving takes to repay its one-off cost (apps.tiering.moves.payback): "12 days", "no move cost set"
    (no one-off cost), "never" for a move not worth making that saves nothing, "—" where no move is weighed."""
    days = getattr(rec, "payback_days", None)
    if days is None:
        return "never" if getattr(rec, "action", "") == "not_worth_moving" else "—"
    return formatting.fmt_payback(days)


@register.simple_tag
def lob_indexes(rec: Any) -> list:
    """The rows of the LOB indexes counted in a LOB's row (apps.tiering.recommendations.lobfold), each with its own figures;
    one query, for a LOB segment's row only, none when the table page read them all at once."""
    if rec is None or rec.segment.object_type not in LOB_SEGMENT_TYPES:
        return []
    if hasattr(rec, "lob_index_rows"):  # read for the whole table page (recommendations.selectors.lob_indexes_attach)
        return rec.lob_index_rows
    return lob_indexes_of(run_id=rec.run_id, lob_ids=[rec.segment_id]).get(rec.segment_id, [])


def seg_name(seg: Any) -> str:
    """A segment's whole name as its cell spells it, ``[CONTAINER:]OWNER.NAME[.PARTITION][.SUBPARTITION]``: the
    ``title`` of a name the cell may end with an ellipsis (a segment, a plan step: anything with those fields)."""
    container = getattr(seg, "container", "") or ""
    parts = [getattr(seg, "owner", "") or "", getattr(seg, "object_name", "") or "",
             getattr(seg, "parent_partition", "") or "", getattr(seg, "subobject_name", "") or ""]
    return (f"{container}:" if container else "") + ".".join(p for p in parts[:2]) + "".join(f".{p}" for p in parts[2:] if p)


@register.inclusion_tag("dashboard/includes/segment_name.html")
def segment_name(seg: Any, target_name: str = "", segment_id: int | None = None, wide: bool = False) -> dict[str, Any]:
    """A segment's name in a table cell: ``[CONTAINER:]OWNER.NAME`` on one line, and on a line of its own, where
    rows of one table would otherwise read alike, its ``[PARTITION.]SUBPARTITION`` or, for a LOB, the
    ``TABLE.COLUMN`` it stores. Each line ends in an ellipsis when too long, the whole name in ``title``. Linked
    to the segment's page when its target and id are given (a plan step's segment may be gone). ``seg``: a
    segment, a plan step, anything with those fields."""
    part = ".".join(p for p in (getattr(seg, "parent_partition", ""), getattr(seg, "subobject_name", "")) if p)
    lob_of = ""
    if not part and getattr(seg, "object_type", "") in _STORES_A_LOB:
        table, column = getattr(seg, "partitioned_parent", ""), getattr(seg, "lob_column", "")
        lob_of = f"{table}.{column}" if table and column else ""
    href = reverse("dashboard:segment", args=[target_name, segment_id]) if target_name and segment_id else ""
    return {"seg": seg, "href": href, "wide": wide, "whole": seg_name(seg), "part": part, "lob_of": lob_of}
