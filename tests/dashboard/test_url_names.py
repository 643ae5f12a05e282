"""Every dashboard page keeps its URL name and path, and each is served by its page family's package: the
templates name pages by {% url %}, DBAs bookmark the paths."""

from __future__ import annotations

import pytest
from django.urls import resolve, reverse

KWARGS = {"name": "PROD", "segment_id": 7, "run_id": 8, "tier_id": 9, "plan_id": 10}

#: (URL name, path, the module of the view that serves it)
PAGES = [
    ("dashboard:fleet", "/", "apps.dashboard.fleet.views"),
    ("dashboard:target", "/targets/PROD/", "apps.dashboard.recommendations.views"),
    ("dashboard:segment", "/targets/PROD/segments/7/", "apps.dashboard.segment.views"),
    ("dashboard:recommendations", "/targets/PROD/recommendations/", "apps.dashboard.recommendations.views"),
    ("dashboard:compare_periods", "/targets/PROD/compare/", "apps.dashboard.periods.views"),
    ("dashboard:collect", "/targets/PROD/collect/", "apps.dashboard.runs.views"),
    ("dashboard:recompute", "/targets/PROD/recompute/", "apps.dashboard.recommendations.views"),
    ("dashboard:refresh_status", "/targets/PROD/refresh.json", "apps.dashboard.recommendations.views"),
    ("dashboard:runs", "/runs/", "apps.dashboard.runs.views"),
    ("dashboard:run_status", "/runs/8.json", "apps.dashboard.runs.views"),
    ("dashboard:tiers", "/tiers/", "apps.dashboard.tiers.views"),
    ("dashboard:tier_edit", "/tiers/9/edit/", "apps.dashboard.tiers.views"),
    ("dashboard:tier_presets", "/tiers/presets/", "apps.dashboard.tiers.views"),
    ("dashboard:audit", "/audit/", "apps.dashboard.audit.views"),
    ("dashboard:search", "/search/", "apps.dashboard.search.views"),
    ("dashboard:budget_plans", "/budget/plans/", "apps.dashboard.budget.views"),
    ("dashboard:storage_location", "/targets/PROD/storage-map/", "apps.dashboard.storage.views"),
    ("dashboard:targets_manage", "/manage/targets/", "apps.dashboard.targets.views"),
    ("dashboard:target_add", "/manage/targets/add/", "apps.dashboard.targets.views"),
    ("dashboard:target_edit", "/manage/targets/PROD/edit/", "apps.dashboard.targets.views"),
    ("dashboard:target_delete", "/manage/targets/PROD/delete/", "apps.dashboard.targets.views"),
    ("dashboard:target_check_start", "/manage/targets/PROD/check/", "apps.dashboard.targets.views"),
    ("plans:list", "/plans/", "apps.dashboard.plans.views"),
    ("plans:detail", "/plans/10/", "apps.dashboard.plans.views"),
    ("plans:state", "/plans/10/state/", "apps.dashboard.plans.views"),
    ("plans:export_sql", "/plans/10/export.sql", "apps.dashboard.plans.views"),
    ("plans:export_csv", "/plans/10/export.csv", "apps.dashboard.plans.views"),
    ("plans:new", "/targets/PROD/plans/new/", "apps.dashboard.plans.views"),
    ("calibration:upload", "/tiers/9/calibration/", "apps.dashboard.calibration.views"),
]


@pytest.mark.parametrize(("name", "path", "module"), PAGES, ids=[name for name, _, _ in PAGES])
def test_the_page_keeps_its_name_and_path_and_its_package_serves_it(name, path, module):
    match = resolve(path)
    kwargs = {key: value for key, value in KWARGS.items() if key in match.kwargs}

    assert reverse(name, kwargs=kwargs) == path
    assert match.view_name == name
    assert match.func.__module__ == module
