"""apps.core.models.RunDuration: a collection run's and a refresh's duration."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.snapshots.models import CollectionRun
from apps.tiering.models import Refresh

START = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)


@pytest.mark.parametrize("model", [CollectionRun, Refresh])
def test_a_run_lasts_from_its_start_to_its_finish_and_is_unknown_until_both_are_set(model):
    finish = START + dt.timedelta(seconds=90.5)

    assert model(queued_at=START).duration_s is None
    assert model(queued_at=START, started_at=START).duration_s is None
    assert model(queued_at=START, finished_at=finish).duration_s is None
    assert model(queued_at=START, started_at=START, finished_at=finish).duration_s == 90.5
