"""Faults of the watched databases, done to the private stack: a listener that accepts and never answers, a
database recreated under a new DBID, a target's snapshots deleted and collected again. Nothing doubled, nothing
left at zero, one failing target never stops the others.
"""

from __future__ import annotations

import time

import pytest

from tests.faults.conftest import Figure, record
from tests.faults.stack import PrivateStack, children, wait_for
from tests.targets.oracle.listeners import HungListener

pytestmark = pytest.mark.faults

# The current recommendations of a target, as the pages read them: how many, and their IOPS summed.
_FIGURES = """
import json
from django.db.models import Count, Sum
from apps.targets.models import Target
from apps.tiering.models import Recommendation
figures = {{}}
for name in {names!r}:
    target = Target.objects.get(name=name)
    current = Recommendation.objects.current(target_id=target.id).aggregate(n=Count("pk"), iops=Sum("iops"))
    figures[name] = {{"n": current["n"], "iops": round(current["iops"] or 0, 6),
                      "dbid": target.capabilities.get("dbid")}}
print(json.dumps(figures))
"""

# A demo target like the stack's own, optionally with another seed (another simulated database).
_DEMO_LIKE = """
import json
from apps.targets.models import Target, TablespaceTier
demo = Target.objects.get(name="demo")
target, _ = Target.objects.get_or_create(name={name!r}, defaults=dict(mode=demo.mode, interval_minutes=60,
                                         tier_set=demo.tier_set, demo_seed={seed}))
for mapping in TablespaceTier.objects.filter(target=demo):
    TablespaceTier.objects.get_or_create(target=target, tablespace_name=mapping.tablespace_name,
                                         defaults=dict(tier=mapping.tier))
print(json.dumps({{"id": target.id}}))
"""


def _figures(stack: PrivateStack, *names: str) -> dict[str, dict]:
    return stack.manage(_FIGURES.format(names=list(names)))


def _collected_after(stack: PrivateStack, name: str, after_run_id: int, timeout_s: float) -> int:
    """The id of the target's next succeeded run after ``after_run_id``, once the refresh after it has succeeded.

    The target is made due whenever it has no run under way and none has succeeded since: a run that ends sets
    the target's next time, and would undo a due time set while it ran (a wait then outlasted its deadline)."""

    def done():
        rows = stack.sql(
            "SELECT r.id FROM snapshots_collectionrun r JOIN targets_target t ON t.id = r.target_id "
            "JOIN tiering_refresh f ON f.after_run_id = r.id "
            "WHERE t.name = %s AND r.id > %s AND r.status = 'succeeded' AND f.status = 'succeeded' "
            "ORDER BY r.id DESC LIMIT 1", (name, after_run_id))
        if rows:
            return rows[0][0]
        stack.sql(
            "UPDATE targets_target t SET next_collect_at = now() - interval '1 minute' WHERE t.name = %s "
            "AND (t.next_collect_at IS NULL OR t.next_collect_at > now()) AND NOT EXISTS (SELECT 1 FROM "
            "snapshots_collectionrun r WHERE r.target_id = t.id AND (r.status IN ('queued', 'running') "
            "OR (r.id > %s AND r.status = 'succeeded')))", (name, after_run_id))
        return None

    return wait_for(done, timeout_s=timeout_s, what=f"{name} collected and refreshed")


def _last_run_id(stack: PrivateStack) -> int:
    return stack.sql("SELECT coalesce(max(id), 0) FROM snapshots_collectionrun")[0][0]


def _threads(pid: int) -> int:
    import os

    return len(os.listdir(f"/proc/{pid}/task"))


class DataFaultTests:
    def test_a_hung_listener_fails_alone_within_its_limits_and_leaves_no_thread(self, stack):
        before = stack.counts()
        pool = children(stack.pid("worker"))
        threads_before = _threads(pool[0])
        with HungListener(hold_s=600) as listener:
            stack.manage(f"""
import json
from apps.targets.models import Target
target, _ = Target.objects.get_or_create(name="fault-hung", defaults=dict(
    mode="nopack", dsn={listener.dsn!r}, username="TIERSCOPE", interval_minutes=60))
target.set_password("unused")
target.save()
print(json.dumps({{"id": target.id}}))
""")
            started = time.monotonic()
            last = _last_run_id(stack)
            stack.sql("UPDATE targets_target SET next_collect_at = now() - interval '1 minute' "
                      "WHERE name IN ('fault-hung', 'demo')")
            # The demo target, due at the same time, is collected meanwhile: one hung target stops nothing.
            wait_for(lambda: stack.sql(
                "SELECT 1 FROM snapshots_collectionrun r JOIN targets_target t ON t.id = r.target_id "
                "WHERE t.name = 'demo' AND r.id > %s AND r.status = 'succeeded'", (last,)),
                timeout_s=120, what="the demo target collected beside the hung one")
            status, error, attempts = wait_for(lambda: (stack.sql(
                "SELECT r.status, r.error, r.attempts FROM snapshots_collectionrun r JOIN targets_target t "
                "ON t.id = r.target_id WHERE t.name = 'fault-hung' AND r.status IN ('failed', 'succeeded') "
                "ORDER BY r.id DESC LIMIT 1") or [None])[0], timeout_s=180, what="the hung target's run to end")
            failed_s = time.monotonic() - started
            accepted = listener.accepted()
        stack.sql("UPDATE targets_target SET enabled = false WHERE name = 'fault-hung'")

        assert status == "failed" and "accepted the connection but did not answer within 2 s" in error, error
        assert attempts == 4 and accepted == 4  # the first try and three bounded retries, each cut at 2 s
        # The pool child that ran the attempts (if it is still the same) holds no more threads than before.
        if children(stack.pid("worker")) == pool:
            assert _threads(pool[0]) <= threads_before
        after = stack.counts()
        assert after["doubled"] == 0
        record(Figure("a listener that accepts and never answers (connect limit 2 s)", before, after, failed_s,
                      "run failed alone", [f"failed after {attempts} attempts, {failed_s:.0f} s after it was due: "
                                           f"{error}; the demo target was collected meanwhile"]))

    def test_a_database_recreated_under_a_new_dbid_is_kept_apart(self, stack):
        before = stack.counts()
        # The runs before the targets exist: a new target is due at once, and beat may collect it before the
        # second one is made (a last run id read after that would wait for a run that never comes).
        first_after = _last_run_id(stack)
        stack.manage(_DEMO_LIKE.format(name="fault-dbid", seed=11))
        stack.manage(_DEMO_LIKE.format(name="fault-dbid-reference", seed=12))
        last = _collected_after(stack, "fault-dbid", first_after, timeout_s=120)
        old = _figures(stack, "fault-dbid")["fault-dbid"]

        # The database is recreated: same target, another DBID (the demo's DBID follows its seed).
        stack.sql("UPDATE targets_target SET demo_seed = 12 WHERE name = 'fault-dbid'")
        started = time.monotonic()
        run_id = _collected_after(stack, "fault-dbid", last, timeout_s=120)
        recovered_s = time.monotonic() - started
        _collected_after(stack, "fault-dbid-reference", last, timeout_s=120)
        figures = _figures(stack, "fault-dbid", "fault-dbid-reference")

        # The recreated database's figures are its own: as a target that only ever saw it, not doubled, not zero.
        new, reference = figures["fault-dbid"], figures["fault-dbid-reference"]
        assert new["dbid"] == reference["dbid"] != old["dbid"]
        assert new["iops"] == pytest.approx(reference["iops"], rel=1e-9) and new["iops"] > 0
        notes = stack.sql("SELECT notes FROM snapshots_collectionrun WHERE id = %s", (run_id,))[0][0]
        assert f"now has DBID {new['dbid']} (was {old['dbid']})" in notes
        after = stack.counts()
        assert after["doubled"] == 0
        record(Figure("database recreated (new DBID, same snap_ids)", before, after, recovered_s,
                      "figures of the new database only",
                      [f"IOPS sum {old['iops']:.1f} (old DBID) -> {new['iops']:.1f}, reference target "
                       f"{reference['iops']:.1f}; the run says: {notes.splitlines()[0]}"]))

    def test_snapshots_deleted_and_collected_again_give_the_same_figures(self, stack):
        first_after = _last_run_id(stack)  # before the targets exist (beat may collect a new one at once)
        stack.manage(_DEMO_LIKE.format(name="fault-recollect", seed=21))
        stack.manage(_DEMO_LIKE.format(name="fault-recollect-reference", seed=21))
        last = _collected_after(stack, "fault-recollect", first_after, timeout_s=120)
        first = _figures(stack, "fault-recollect")["fault-recollect"]
        before = stack.counts()

        # An operator deletes the target's snapshots (manage.py shell, as the admin would), then it is collected
        # again.
        stack.manage("import json\nfrom apps.snapshots.models import Snapshot\n"
                     "print(json.dumps(Snapshot.objects.filter(target__name='fault-recollect').delete()[0]))")
        started = time.monotonic()
        _collected_after(stack, "fault-recollect", last, timeout_s=120)
        recovered_s = time.monotonic() - started
        _collected_after(stack, "fault-recollect-reference", last, timeout_s=120)
        figures = _figures(stack, "fault-recollect", "fault-recollect-reference")

        again, reference = figures["fault-recollect"], figures["fault-recollect-reference"]
        assert again["iops"] == pytest.approx(reference["iops"], rel=1e-9) and again["iops"] > 0
        assert again["n"] == first["n"]
        after = stack.counts()
        assert after["doubled"] == 0
        record(Figure("a target's snapshots deleted, then collected again", before, after, recovered_s,
                      "same figures", [f"IOPS sum {first['iops']:.1f} before the delete, {again['iops']:.1f} "
                                       f"after, {reference['iops']:.1f} on a reference target"]))
