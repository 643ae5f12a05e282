"""The fleet page's "Flash budget" card (apps.tiering.budget.services): N GB or USD a month of one tier split
across the targets, what each eviction costs against what its replacement earns, why the segments holding a
place keep it, and (admins) the draft plans it implies, which also remember the split for the next one.

The card's form is a GET on the fleet page itself (``?budget_tier=flash&budget_amount=500&budget_unit=gb``),
so a split is a link that can be shared; "make the plans" is a POST here that redirects back to it with the
plans made (``budget_made``).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from apps.core.form_fields import form_field
from apps.tiering.budget.services import (
    BudgetError,
    FleetBudget,
    budget_tier_names,
    fleet_budget,
    fleet_budget_plans,
)
from apps.tiering.plans.models import Plan

#: Segments listed per split on the card (the command lists them all).
LISTED = 50
UNITS = [("gb", "GB"), ("usd", "USD/month")]


class BudgetForm(forms.Form):
    budget_tier = forms.ChoiceField(label="Tier")
    budget_amount = forms.FloatField(min_value=0.001, label="Budget",
                                     widget=forms.NumberInput(attrs={"step": "any", "placeholder": "500"}))
    budget_unit = forms.ChoiceField(choices=UNITS, initial="gb", label="in")

    def __init__(self, *args: Any, tier_names: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        form_field(self, "budget_tier", forms.ChoiceField).choices = [(name, name) for name in tier_names]
        flash = [name for name in tier_names if "flash" in name.lower()]
        if flash:
            self.fields["budget_tier"].initial = flash[0]

    def split(self) -> FleetBudget:
        """The split the valid form asks for (raises BudgetError)."""
        data = self.cleaned_data
        amount = {"gb": data["budget_amount"]} if data["budget_unit"] == "gb" else {
            "usd_per_month": data["budget_amount"]}
        return fleet_budget(tier_name=data["budget_tier"], **amount)


def budget_card(request: HttpRequest) -> dict[str, Any]:
    """The card's context on the fleet page: its form, and the split when the form was sent."""
    asked = "budget_tier" in request.GET
    form = BudgetForm(request.GET if asked else None, tier_names=budget_tier_names())
    context: dict[str, Any] = {"budget_form": form, "budget": None, "budget_error": None}
    if not (asked and form.is_valid()):
        return context
    try:
        budget = form.split()
    except BudgetError as exc:
        context["budget_error"] = str(exc)
        return context
    made = [int(pk) for pk in request.GET.get("budget_made", "").split(",") if pk.isdigit()]
    context.update({
        "budget": budget, "budget_rows": _rows(budget),
        "budget_segments": budget.segments(limit=LISTED),
        "budget_evictions": budget.evictions(limit=LISTED),
        "budget_kept": budget.kept(limit=LISTED),
        "budget_explained": budget.explained,
        "budget_plans": Plan.objects.filter(pk__in=made).select_related("target").order_by("target__name"),
        "budget_query": urlencode({name: request.GET[name] for name in BudgetForm.base_fields}),
    })
    return context


def _rows(budget: FleetBudget) -> list[dict[str, Any]]:
    """The card's table: each target's result, then the fleet's (the totals)."""
    split = budget.split
    rows = [{"name": result.name, "result": result, "total": False} for result in split.targets]
    fields = ("gb_now", "gb_after", "moves_in", "moves_in_gb", "moves_out", "moves_out_gb", "evicted", "evicted_gb",
              "kept", "kept_not_repaying", "unknown", "saving_usd_per_month", "recommended_saving_usd_per_month",
              "one_off_usd", "evicted_one_off_usd")
    totals = {field: split.total(field) for field in fields}
    totals["vs_recommendations_usd_per_month"] = (totals["saving_usd_per_month"]
                                                   - totals["recommended_saving_usd_per_month"])
    rows.append({"name": "Fleet", "result": totals, "total": True})
    return rows


@require_POST
def budget_plans(request: HttpRequest) -> HttpResponse:
    """Make the draft plan of each target's share (admins, as plans are), then show the split with them."""
    if not request.user.is_staff:
        raise PermissionDenied("This needs the admin role.")
    form = BudgetForm(request.POST, tier_names=budget_tier_names())
    fleet_url = reverse("dashboard:fleet")
    if not form.is_valid():
        messages.error(request, "The budget to plan was not valid: split it again.")
        return redirect(fleet_url)
    query = {name: request.POST[name] for name in BudgetForm.base_fields}
    try:
        made = fleet_budget_plans(budget=form.split(), author=request.user, author_name=request.user.get_username())
    except BudgetError as exc:
        messages.error(request, str(exc))
        return redirect(f"{fleet_url}?{urlencode(query)}#budget")
    for name, why in made.refused:
        messages.error(request, f"No plan for {name}: {why}")
    if made.plans:
        messages.success(request, f"{len(made.plans)} draft plan{'s' if len(made.plans) != 1 else ''} made: "
                                  "each a draft until an admin other than you approves it. The budget is "
                                  "remembered: its segments hold their places in the next one.")
    elif not made.refused:
        messages.info(request, "The budget moves nothing: no plan made. It is remembered: its segments hold "
                               "their places in the next one.")
    query["budget_made"] = ",".join(str(plan.pk) for plan in made.plans)
    return redirect(f"{fleet_url}?{urlencode(query)}#budget")
