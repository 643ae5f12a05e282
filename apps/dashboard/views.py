from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from apps.dashboard.selectors import fleet_overview


def fleet(request: HttpRequest) -> HttpResponse:
    return render(request, "dashboard/fleet.html", {"rows": fleet_overview()})
