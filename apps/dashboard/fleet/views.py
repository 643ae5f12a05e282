"""The fleet page: every target's row and the fleet's totals, with the budget card."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from apps.dashboard.budget.views import budget_card
from apps.dashboard.fleet import selectors


@require_GET
def fleet(request: HttpRequest) -> HttpResponse:
    rows = selectors.fleet_overview()
    return render(request, "dashboard/fleet.html", {"rows": rows, "totals": selectors.fleet_totals(rows),
                                                    **budget_card(request)})
