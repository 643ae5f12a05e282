"""What the commands look up by the name a DBA typed, or a one-line CommandError naming it."""

from __future__ import annotations

from django.core.management.base import CommandError
from django.db.models import QuerySet

from apps.targets.models import Target


def target_named(name: str, targets: QuerySet[Target] | None = None, *,
                 missing: str = "No target named {name!r}.") -> Target:
    """The target named ``name`` among ``targets`` (all of them unless given, e.g. with their set joined); when
    there is none, a CommandError saying ``missing`` (formatted with ``name``)."""
    try:
        return (Target.objects.all() if targets is None else targets).get(name=name)
    except Target.DoesNotExist:
        raise CommandError(missing.format(name=name)) from None
