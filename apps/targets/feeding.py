"""How a target's data reaches tierscope, in words for the terminal: add_target says it, collect refuses with it."""

from __future__ import annotations

from django.urls import reverse

from apps.targets.models import Target


def imports_hint(target: Target) -> str:
    """Where a report target's data comes from: the import page and the two import commands."""
    url = reverse("snapshots:import", args=[target.name])
    return (f"upload an AWR report or an offline extract at {url}, or run "
            f"`manage.py import_awr_report FILE --target {target.name}` or "
            f"`manage.py import_extract DIR_OR_ZIP --target {target.name}`")


def feeding_explanation(target: Target) -> str:
    """One line: how the target is fed (beat's collections, or imports)."""
    if not target.is_live:
        return f"{target.name} is a report target, fed by imports only: {imports_hint(target)}."
    if not target.enabled:
        return f"{target.name} is disabled: beat will not collect it until it is enabled in the admin."
    every = f"every {target.interval_minutes} minutes" if target.interval_minutes != 60 else "every hour"
    return (f"beat collects {target.name} {every}, the first time within a minute (with the worker and beat "
            f"running: `make run`); `manage.py collect {target.name}` collects it now.")


def not_collected_message(target: Target) -> str:
    """`manage.py collect` on a target that is not collected."""
    return f"{target.name} is a report target: it is fed by imports, not collected; {imports_hint(target)}."
