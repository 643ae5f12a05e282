"""A queued connection check whose check or target was deleted meanwhile ends quietly: one line at INFO."""

from __future__ import annotations

import pytest
from django.utils import timezone

from apps.targets.models import TargetCheck
from apps.targets.tasks import target_check
from tests.logs import assert_logs


@pytest.mark.django_db
def test_a_check_of_a_deleted_target_does_nothing_and_says_so_at_info(demo_target):
    check = TargetCheck.objects.create(target=demo_target, requested_by="ada", queued_at=timezone.now())
    demo_target.delete()  # its check goes with it

    with assert_logs("apps.targets") as logs:
        result = target_check.apply(args=(check.id,))

    assert result.successful(), result.traceback
    assert result.get().startswith("skipped: ")
    assert [r.levelname for r in logs.records] == ["INFO"]
    assert f"check {check.id} no longer exists" in logs.output[0]
