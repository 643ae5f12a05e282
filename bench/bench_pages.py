"""The pages' speed: p95 server time of every dashboard page (Django test client, no network) against a
trivial page (the login form), on the 100k-segment target of bench/run.py (its 100k current
recommendations are what the pages read). Part of `make bench`.
"""

from __future__ import annotations

import statistics
import time
from contextlib import AbstractContextManager, nullcontext

from config.gc_tuning import web_worker_gc

# A page's body is kept once rendered, per role (apps.dashboard.page_cache); what rendering costs (any page's
# first view after a change) is measured apart, with the cache off and an admin's forms in the body.
RENDERED = ", rendered (first view)"
RENDERED_PAGES = ("target", "segment", "recommendations", "target (demo scale)")
ADMIN = ", admin"


def rendered_and_admin(pages: dict[str, str]) -> dict[str, str]:
    """``pages`` with each of RENDERED_PAGES again as rendered, and the demo target as an admin sees it."""
    return {**pages, **{f"{page}{RENDERED}": pages[page] for page in RENDERED_PAGES},
            f"target (demo scale){ADMIN}": pages["target (demo scale)"]}


def page_client(label: str, *, viewer, admin):
    return admin if label.endswith((RENDERED, ADMIN)) else viewer


def sent(response) -> None:
    """What a web worker does with a response once sent: nothing keeps it. The test client binds
    ``response.json`` to the response, a reference cycle that would leave each page for the garbage collector."""
    response.__dict__.pop("json", None)


def serving(label: str) -> AbstractContextManager:
    """The settings a page is measured under: the page cache off for the rendered figures."""
    if not label.endswith(RENDERED):
        return nullcontext()
    from django.test import override_settings

    return override_settings(PAGE_CACHE_SECONDS=0)


def bench_pages(target, requests: int = 30) -> dict:
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from apps.snapshots.models import Segment

    # The pages as make run serves them: static files from the manifest that collectstatic writes, and what this
    # process holds (the refresh bench's arrays, before it) out of gc's sight, as a web worker's start-up is
    # (config/wsgi.py): a web worker runs no refresh.
    call_command("collectstatic", interactive=False, verbosity=0)
    web_worker_gc()

    user, _ = get_user_model().objects.get_or_create(username="bench-viewer")
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    segment = Segment.objects.filter(target=target).order_by("-size_bytes").first()
    pages = {
        "trivial (login form)": "/accounts/login/",
        "fleet": "/",
        "target": f"/targets/{target.name}/",
        "segment": f"/targets/{target.name}/segments/{segment.id}/",
        "recommendations": f"/targets/{target.name}/recommendations/",
        "recommendations, filtered by name": f"/targets/{target.name}/recommendations/?name={segment.object_name[:6]}",
        "search": f"/search/?q={segment.object_name[:6]}",
        "recommendations csv (100k rows)": f"/targets/{target.name}/recommendations/?format=csv",
        "runs": "/runs/",
        "tiers": "/tiers/",
        "api_recommendations_1000": f"/api/v1/targets/{target.name}/recommendations/?limit=1000",
    }
    demo = demo_collected()
    pages["target (demo scale)"] = f"/targets/{demo.name}/"
    admin, _ = get_user_model().objects.get_or_create(username="bench-admin", defaults={"is_staff": True})
    admin_client = Client(HTTP_HOST="127.0.0.1")
    admin_client.force_login(admin)
    pages = rendered_and_admin(pages)
    results = {}
    for label, url in pages.items():
        anonymous = Client(HTTP_HOST="127.0.0.1") if url == "/accounts/login/" else (
            page_client(label, viewer=client, admin=admin_client))
        times, first_parts = [], []
        count = 3 if "csv" in label else requests
        with serving(label):
            for _ in range(count):
                start = time.perf_counter()
                response = anonymous.get(url)
                if response.streaming:  # the whole body, and when its first part was ready
                    parts = iter(response.streaming_content)
                    next(parts, b"")
                    next(parts, b"")
                    first_parts.append((time.perf_counter() - start) * 1000)
                    for _ in parts:
                        pass
                times.append((time.perf_counter() - start) * 1000)
                if response.status_code != 200:
                    raise SystemExit(f"bench: {url} answered {response.status_code}")
                sent(response)
        times.sort()
        results[label] = {"p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 1),
                          "median_ms": round(statistics.median(times), 1)}
        if first_parts:
            results[label]["first_rows_median_ms"] = round(statistics.median(first_parts), 1)
    trivial = results["trivial (login form)"]["p95_ms"]
    for figures in results.values():
        figures["ratio_vs_trivial"] = round(figures["p95_ms"] / trivial, 1)
    return results


def demo_collected():
    """The built-in demo target as `make run` shows it (a few hundred segments, its 8 days collected through
    the real source and ingest, its recommendations refreshed): the page the demo-scale goal is about."""
    from django.utils import timezone

    from apps.dashboard.bootstrap import demo_ensure
    from apps.snapshots.models import Snapshot
    from apps.snapshots.services import snapshot_collect
    from apps.targets.models import Target
    from apps.tiering.models import RecommendationRun
    from apps.tiering.recommendations.services import recommendation_refresh
    from apps.tiering.tiers import tier_presets_install

    tier_presets_install()
    demo_ensure()
    demo = Target.objects.get(name="demo")
    if not Snapshot.objects.filter(target=demo).exists():
        from config.celery import app

        eager, app.conf.task_always_eager = app.conf.task_always_eager, True  # its refresh here, not on a broker
        try:
            snapshot_collect(target_id=demo.id, trigger="command")
        finally:
            app.conf.task_always_eager = eager
    if not RecommendationRun.objects.filter(target=demo, state=RecommendationRun.State.CURRENT).exists():
        recommendation_refresh(target_id=demo.id, now=timezone.now())
    return demo
