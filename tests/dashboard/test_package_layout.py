"""apps/dashboard/ is its page families as packages: its top holds only what several families share, each
family has its views and its routes, and the top urls.py only includes the families' routes in the dashboard
namespace (the plans and calibration pages have namespaces of their own, included by config/urls.py)."""

from __future__ import annotations

from django.urls import URLResolver

from apps.dashboard import urls
from tests.conftest import ROOT

DASHBOARD = ROOT / "apps" / "dashboard"
#: What stays at the top: the app, its namespace, and what several page families read.
SHARED = {"__init__", "apps", "urls", "access", "bootstrap", "charts", "formatting", "page_cache", "rows", "selectors",
          "sql"}
NOT_PAGES = {"templatetags", "management", "__pycache__"}
OWN_NAMESPACE = {"plans", "calibration"}


def page_families() -> set[str]:
    return {p.name for p in DASHBOARD.iterdir() if p.is_dir() and (p / "__init__.py").exists()} - NOT_PAGES


def test_the_top_of_the_dashboard_holds_only_what_its_page_families_share():
    top = {path.stem for path in DASHBOARD.glob("*.py")}

    assert top == SHARED, f"move each page's module into its family's package: {sorted(top - SHARED)}"


def test_each_page_family_has_its_views_and_its_routes():
    for family in page_families():
        assert (DASHBOARD / family / "views.py").exists(), f"apps/dashboard/{family}/ has no views.py"
        assert (DASHBOARD / family / "urls.py").exists(), f"apps/dashboard/{family}/ has no urls.py"


def test_the_top_urls_include_every_family_s_routes_and_nothing_else():
    included = []
    for pattern in urls.urlpatterns:
        assert isinstance(pattern, URLResolver), f"a route of its own in apps/dashboard/urls.py: {pattern}"
        assert pattern.app_name is None and pattern.namespace is None, pattern  # in the dashboard namespace
        included.append(pattern.urlconf_module.__name__)

    assert sorted(included) == sorted(f"apps.dashboard.{family}.urls" for family in page_families() - OWN_NAMESPACE)
