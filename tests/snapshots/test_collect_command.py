"""`manage.py collect`: what it says of a target that is not collected."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from apps.snapshots.models import CollectionRun
from apps.targets.models import Target


@pytest.mark.django_db
class CollectCommandTests:
    def test_a_report_target_is_refused_in_one_line_naming_its_imports_and_no_run_is_left(self):
        target = Target.objects.create(name="xydb", mode=Target.Mode.REPORT)
        out = io.StringIO()

        with pytest.raises(CommandError) as raised:
            call_command("collect", "xydb", stdout=out, stderr=out)

        message = str(raised.value)
        assert "\n" not in message
        assert "report" in message and "import" in message
        assert "/targets/xydb/import/" in message
        assert "manage.py import_awr_report" in message and "manage.py import_extract" in message
        assert not CollectionRun.objects.filter(target=target).exists()
