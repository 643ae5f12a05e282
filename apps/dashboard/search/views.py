"""The search page: segments and targets by part of their name, from the navbar's search box."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.dashboard.search.selectors import SEARCH_LIMIT, search_segments, search_targets


@require_GET
def search(request: HttpRequest) -> HttpResponse:
    """Segments and targets by part of their name (the navbar's search box); at least 2 characters."""
    text = request.GET.get("q", "").strip()[:128]
    ready = len(text) >= 2
    return render(request, "dashboard/search.html", {
        "q": text, "too_short": bool(text) and not ready, "limit": SEARCH_LIMIT,
        "segments": search_segments(text) if ready else [], "targets": search_targets(text) if ready else [],
    })
