"""Every URL the project serves, read from the URL conf, with real ids in its converters.

The security tests walk this list instead of a hand-written one, so a view added later is
checked (and has to be classified in ``ACCESS`` of test_urls.py) without anyone remembering to.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from django.apps import apps
from django.urls import URLPattern, URLResolver, get_resolver, reverse


@dataclass(frozen=True)
class Url:
    name: str  # namespaced, e.g. "dashboard:target", "admin:targets_target_change"
    path: str  # reversed with real ids


@dataclass(frozen=True)
class _Pattern:
    name: str
    params: tuple[str, ...]
    regex: str  # the full pattern text, for the admin's app_label alternatives


def _walk(patterns: list, prefix: str = "", namespace: str | None = None) -> Iterator[_Pattern]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = namespace
            if pattern.namespace:
                inner = f"{namespace}:{pattern.namespace}" if namespace else pattern.namespace
            yield from _walk(pattern.url_patterns, prefix + str(pattern.pattern), inner)
        elif isinstance(pattern, URLPattern) and pattern.name:
            # Unnamed patterns are the admin's catch-all only (it redirects or answers 404).
            full = f"{namespace}:{pattern.name}" if namespace else pattern.name
            text = prefix + str(pattern.pattern)
            found = re.findall(r"\(\?P<(\w+)>", text) + re.findall(r"<(?:\w+:)?(\w+)>", text)
            params = tuple(dict.fromkeys(found))  # (?P<x>...) also looks like <x> to the second pattern
            yield _Pattern(name=full, params=params, regex=text)


def pattern_names() -> set[str]:
    return {p.name for p in _walk(get_resolver().url_patterns)}


def _admin_model_pk(name: str) -> object | None:
    """The pk of a row of the model an admin URL such as ``admin:targets_target_change`` edits."""
    match = re.fullmatch(r"admin:(\w+?)_(\w+?)_(change|delete|history|password_change)", name)
    if not match:
        return None
    for model in apps.get_models():
        if f"{model._meta.app_label}_{model._meta.model_name}" == f"{match[1]}_{match[2]}":
            row = model._default_manager.order_by("pk").first()
            return row.pk if row else None
    return None


def urls(ids: dict[str, object]) -> tuple[list[Url], list[str]]:
    """(every URL reversed with real ids, the names that could not be filled: no such row).

    ``ids`` gives values by converter name (name, segment_id, run_id, tier_id, check_id,
    content_type_id); admin object ids are looked up per model.
    """
    found: list[Url] = []
    skipped: list[str] = []
    for pattern in _walk(get_resolver().url_patterns):
        if pattern.params == ("app_label",):  # the admin's app index: one URL per app
            labels = re.search(r"\(\?P<app_label>([^)]*)\)", pattern.regex)[1].split("|")
            found += [Url(pattern.name, reverse(pattern.name, kwargs={"app_label": a})) for a in labels]
            continue
        kwargs = {}
        for param in pattern.params:
            value = _admin_model_pk(pattern.name) if param in ("object_id", "id") else ids.get(param)
            if param == "object_id" and pattern.name == "admin:view_on_site":
                value = ids.get("view_on_site_object_id")
            if value is None:
                break
            kwargs[param] = value
        else:
            found.append(Url(pattern.name, reverse(pattern.name, kwargs=kwargs)))
            continue
        skipped.append(pattern.name)
    return found, skipped
