"""The admin's delete confirmation by counts: what a delete takes with it, counted in the database.

Django's own confirmation loads every row a delete cascades to and lists each one on the page: 21 s for the
demo target's 30,000 segment statistics, and a page that never comes back for a real target's millions. Here the
same deletion collector finds what goes, with those rows only counted; the delete, its permissions and a
protected row's refusal are Django's as before (a target's delete is a worker's: apps.targets.deletion).
"""

from __future__ import annotations

import operator
from collections import Counter, defaultdict
from collections.abc import Iterable
from functools import reduce
from typing import Any

from django.contrib import admin
from django.db import models, router
from django.db.models import QuerySet
from django.db.models.deletion import Collector, ProtectedError, RestrictedError
from django.http import HttpRequest
from django.utils.text import capfirst


class CountedDeleteAdmin(admin.ModelAdmin):
    """A ModelAdmin whose delete pages (one row, or the "delete selected" action) count what goes with it."""

    def get_deleted_objects(self, objs: Iterable[models.Model], request: HttpRequest) -> tuple[list[str], dict[str, int],
                                                                                            set[str], list[str]]:
        """(the rows to delete, the count of each kind that goes with them, the kinds this user may not delete,
        the protected rows that block it), as Django's template shows them."""
        rows = list(objs)
        collector = Collector(using=router.db_for_write(self.model))  # only to find what goes: never deletes
        try:
            collector.collect(rows)
        except (ProtectedError, RestrictedError) as exc:
            blocking = exc.protected_objects if isinstance(exc, ProtectedError) else exc.restricted_objects
            return [], {}, set(), sorted(f"{capfirst(row._meta.verbose_name)}: {row}" for row in blocking)
        counts: Counter[type[models.Model]] = Counter()
        for model, instances in collector.data.items():
            counts[model] += len(instances)
        fast: dict[type[models.Model], list[QuerySet]] = defaultdict(list)
        for query in collector.fast_deletes:  # the rows a statement deletes with no row loaded: counted here
            fast[query.model].append(query)
        for model, queries in fast.items():  # one model reached by two paths (a stat's segment and snapshot): once
            rows_of = reduce(operator.or_, queries).exclude(pk__in=[row.pk for row in collector.data.get(model, ())])
            counts[model] += rows_of.count()
        return self._counted(rows, counts, request)

    def _counted(self, rows: list[models.Model], counts: Counter[type[models.Model]],
                 request: HttpRequest) -> tuple[list[str], dict[str, int], set[str], list[str]]:
        found = sorted(((model, n) for model, n in counts.items() if n), key=lambda pair: pair[0] is not self.model)
        by_name = {str(model._meta.verbose_name_plural): n for model, n in found}
        registry: dict[Any, admin.ModelAdmin] = self.admin_site._registry
        perms_needed = {str(model._meta.verbose_name) for model, _ in found
                        if model in registry and not registry[model].has_delete_permission(request)}
        return [f"{capfirst(row._meta.verbose_name)}: {row}" for row in rows], by_name, perms_needed, []
