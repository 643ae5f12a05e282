"""`manage.py recommend` on a target with no recommendations computed says why and what to run, on stderr,
with a non-zero exit: never an empty table a script would read as "nothing to move"."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from apps.targets.models import Target
from tests.conftest import ROOT


def _recommend(name: str) -> CommandError:
    with pytest.raises(CommandError) as raised:
        call_command("recommend", name, stdout=io.StringIO())
    return raised.value


@pytest.mark.django_db
class RecommendNotComputedTests:
    def test_a_queued_refresh_is_named_with_when_it_was_queued(self, seed_tiers):
        from apps.tiering.models import Refresh

        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        refresh = Refresh.objects.create(target=target, queued_at=timezone.now())

        error = _recommend("fresh")

        assert error.returncode == 3
        assert f"a refresh was queued at {refresh.queued_at:%Y-%m-%d %H:%M:%S} UTC" in str(error)
        assert "`manage.py recommend fresh --refresh`" in str(error)

    def test_a_failed_refresh_is_named_with_its_error(self, seed_tiers):
        from apps.tiering.models import Refresh

        target = Target.objects.create(name="fresh", mode=Target.Mode.REPORT)
        Refresh.objects.create(target=target, queued_at=timezone.now(), status=Refresh.Status.FAILED,
                               error="PostgreSQL was unreachable: gone.")

        error = _recommend("fresh")

        assert error.returncode == 3
        assert "the last refresh" in str(error) and "failed: PostgreSQL was unreachable: gone; " in str(error)

    def test_rows_print_once_computed(self, seed_tiers):
        from apps.tiering.refreshes import refresh_now

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
