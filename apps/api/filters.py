"""Query filters (django-filter): a value that is not one of the choices, or a target that does not exist, is
a 400 naming the parameter."""

from __future__ import annotations

import django_filters

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target
from apps.tiering.plans.models import Plan


class RunFilter(django_filters.FilterSet):
    target = django_filters.ModelChoiceFilter(field_name="target", to_field_name="name",
                                              queryset=Target.objects.all(), help_text="a target's name")
    outcome = django_filters.ChoiceFilter(field_name="status", choices=CollectionRun.Status.choices,
                                          help_text="the run's status")
    trigger = django_filters.ChoiceFilter(choices=[(t, t) for t in ("schedule", "manual", "command", "import")])

    class Meta:
        model = CollectionRun
        fields = ["target", "outcome", "trigger"]


class PlanFilter(django_filters.FilterSet):
    target = django_filters.ModelChoiceFilter(field_name="target", to_field_name="name",
                                              queryset=Target.objects.all(), help_text="a target's name")
    state = django_filters.ChoiceFilter(choices=Plan.State.choices)

    class Meta:
        model = Plan
        fields = ["target", "state"]
