"""The load test's users (locust, run by bench/bench_load.py): each logs in with a session cookie of its own
and browses the fleet, a target, a segment, the recommendations and search of random fleet targets, with 1 s of
think time. Reads its sessions and URLs from the JSON file named by BENCH_LOAD_PLAN."""

from __future__ import annotations

import itertools
import json
import os
import random

from locust import HttpUser, constant, task

PLAN = json.loads(open(os.environ["BENCH_LOAD_PLAN"]).read())
_SESSIONS = itertools.cycle(PLAN["sessions"])


class DBA(HttpUser):
    wait_time = constant(1)

    def on_start(self) -> None:
        self.client.cookies.set(PLAN["cookie_name"], next(_SESSIONS))

    def _target(self) -> dict:
        return random.choice(PLAN["targets"])

    @task(2)
    def fleet(self) -> None:
        self.client.get("/", name="fleet")

    @task(3)
    def target(self) -> None:
        self.client.get(f"/targets/{self._target()['name']}/", name="target")

    @task(3)
    def segment(self) -> None:
        target = self._target()
        self.client.get(f"/targets/{target['name']}/segments/{random.choice(target['segments'])}/", name="segment")

    @task(3)
    def recommendations(self) -> None:
        self.client.get(f"/targets/{self._target()['name']}/recommendations/", name="recommendations")

    @task(1)
    def search(self) -> None:
        if PLAN["search"]:
            self.client.get(f"/search/?q={random.choice(PLAN['search_terms'])}", name="search")
