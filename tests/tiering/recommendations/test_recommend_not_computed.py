"""`manage.py recommend` on a target with no recommendations computed says why and what to run, on stderr,
with a non-zero exit: never an empty table a script would read as "nothing to move"."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.utils import timezone

from apps.targets.models import Target
from tests.conftest import ROOT


def _recommend(name: str) -> tuple[int, str]:
    """(exit status, stderr) of a recommend that prints no rows; its stdout must stay empty."""
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(SystemExit) as raised:
        call_command("recommend", name, stdout=out, stderr=err)
    assert out.getvalue() == ""
    return raised.value.code, err.getvalue()


@pytest.mark.django_db
class RecommendNotComputedTests:
    def test_a_queued_refresh_is_named_with_when_it_was_queued(self, seed_tiers):
        from apps.tiering.models import Refresh

        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        refresh = Refresh.objects.create(target=target, queued_at=timezone.now())

        status, said = _recommend("fresh")

        assert status == 3
        assert f"a refresh was queued at {refresh.queued_at:%Y-%m-%d %H:%M:%S} UTC" in said
        assert "`manage.py recommend fresh --refresh`" in said

    def test_a_failed_refresh_is_named_with_its_error(self, seed_tiers):
        from apps.tiering.models import Refresh

        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        Refresh.objects.create(target=target, queued_at=timezone.now(), status=Refresh.Status.FAILED,
                               error="PostgreSQL was unreachable: gone.")

        status, said = _recommend("fresh")

        assert status == 3
        assert "the last refresh" in said and "failed: PostgreSQL was unreachable: gone; " in said

    def test_it_is_a_state_not_a_failure_in_the_audit_log(self, seed_tiers):
        from apps.core.models import AuditLogEntry

        Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        before = AuditLogEntry.objects.count()

        assert _recommend("fresh")[0] == 3
        assert AuditLogEntry.objects.count() == before

    def test_rows_print_once_computed(self, seed_tiers):
        from apps.tiering.recommendations.refreshes import refresh_now

        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        refresh_now(target_id=target.id)  # nothing stored: a current run with no rows, computed all the same

        out = io.StringIO()
        call_command("recommend", "fresh", "--format", "json", stdout=out)
        assert out.getvalue().strip() == "[]"


@pytest.mark.django_db(transaction=True)
def test_on_the_command_line_it_writes_why_on_stderr_and_exits_non_zero(seed_tiers):
    from django.db import connection

    Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
    db = connection.settings_dict
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings.test",
           "DATABASE_URL": f"postgres://{db['USER']}:{db['PASSWORD']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"}

    done = subprocess.run([sys.executable, "manage.py", "recommend", "fresh"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)

    assert done.returncode == 3
    assert done.stdout == ""
    assert "fresh: no recommendations: none has been computed for this target yet" in done.stderr
    assert "`manage.py recommend fresh --refresh`" in done.stderr
