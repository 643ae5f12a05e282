"""A collected demo target (its tablespaces mapped, so some of its recommendations are moves) and a second admin."""

from __future__ import annotations

import pytest


@pytest.fixture
def demo_collected(demo_target, collect):
    run = collect(demo_target)
    assert run.status == "succeeded", run.error
    demo_target.refresh_from_db()
    return demo_target
