"""The pages' p95 alone, on the existing bench database (no load, no rebuild): for working on page speed
without `make bench`'s hour. `python bench/pages_only.py [--target NAME] [requests] [page label ...]`; `--profile LABEL`
prints a cProfile profile of one view, `--queries LABEL` its queries and their times. `--target` picks the
target the target pages are of (default the 100k-segment one; `bench-fleet-20000-001` is one of the fleet's 20k ones).
Each page's figures: wall time (p95, median) and the Python process's own CPU time (median: the part the web
worker spends, without the time it waits on PostgreSQL).
Reads ``<DATABASE_URL's name>_bench`` as bench/run.py does; the fleet page reads every target there.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_pages import demo_collected, page_client, rendered_and_admin, sent, serving  # noqa: E402
from bench.setup_data import setup_django  # noqa: E402

SKIPPED = ("recommendations csv (100k rows)",)  # its own bench (bench_export.py)


def _pages(target) -> dict[str, str]:
    from apps.snapshots.models import Segment

    segment = Segment.objects.filter(target=target).order_by("-size_bytes").first()
    pages = {
        "fleet": "/",
        "target": f"/targets/{target.name}/",
        "segment": f"/targets/{target.name}/segments/{segment.id}/",
        "recommendations": f"/targets/{target.name}/recommendations/",
        "recommendations, filtered by name": f"/targets/{target.name}/recommendations/?name={segment.object_name[:6]}",
        "recommendations, next page": None,
        "search": f"/search/?q={segment.object_name[:6]}",
        "api recommendations, 1000 rows": f"/api/v1/targets/{target.name}/recommendations/?limit=1000",
        "target (demo scale)": f"/targets/{demo_collected().name}/",
    }
    return rendered_and_admin(pages)  # bench/bench_pages.py says why rendered pages are measured apart


def _client(username: str = "bench-viewer"):
    from django.contrib.auth import get_user_model
    from django.test import Client

    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"is_staff": username == "bench-admin"})
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    return client


def main(argv: list[str]) -> None:
    setup_django()
    from django.core.management import call_command

    from apps.targets.models import Target

    call_command("collectstatic", interactive=False, verbosity=0)  # the pages as make run serves them

    name = "bench-100k"
    if argv[:1] == ["--target"]:
        name, argv = argv[1], argv[2:]
    target = Target.objects.get(name=name)
    client = viewer = _client()
    admin = _client("bench-admin")
    pages = _pages(target)
    first = client.get(pages["recommendations"])
    import html
    import re

    link = re.search(r'href="(\?[^"]*after=[^"]*)"', first.content.decode())
    pages["recommendations, next page"] = pages["recommendations"] + html.unescape(link.group(1))
    if argv and argv[0] in ("--profile", "--queries"):
        with serving(argv[1]):
            _inspect(page_client(argv[1], viewer=viewer, admin=admin), pages[argv[1]], argv[0])
        return
    requests = int(argv[0]) if argv else 20
    wanted = argv[1:] or list(pages)
    results = {}
    for label in wanted:
        client = page_client(label, viewer=viewer, admin=admin)
        with serving(label):
            client.get(pages[label])  # warm
            times, cpu = [], []
            for _ in range(requests):
                start, start_cpu = time.perf_counter(), time.process_time()
                response = client.get(pages[label])
                times.append((time.perf_counter() - start) * 1000)
                cpu.append((time.process_time() - start_cpu) * 1000)
                assert response.status_code == 200, (label, response.status_code)
                sent(response)
        times.sort()
        cpu.sort()
        results[label] = {"p95_ms": round(times[max(0, int(len(times) * 0.95) - 1)], 1),
                          "median_ms": round(times[len(times) // 2], 1), "cpu_median_ms": round(cpu[len(cpu) // 2], 1)}
        print(label, results[label], flush=True)
    print(json.dumps(results))


def _inspect(client, url: str, how: str) -> None:
    client.get(url)
    if how == "--profile":
        import cProfile
        import pstats

        profile = cProfile.Profile()
        profile.runcall(client.get, url)
        pstats.Stats(profile).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(os.environ.get("BENCH_FILTER", "apps/|template/loader_tags|defaulttags|library.py"), 80)
        return
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as captured:
        client.get(url)
    for query in sorted(captured.captured_queries, key=lambda q: -float(q["time"])):
        print(f"{float(query['time']) * 1000:8.1f} ms  {query['sql'][:int(os.environ.get('BENCH_SQL_CHARS', '400'))]}")
    print(len(captured.captured_queries), "queries")


if __name__ == "__main__":
    main(sys.argv[1:])
