"""A plan's CSV in parts: the same text as the whole, each part made as its steps are read (a streamed download
holds one part), and its steps read inside a transaction so their cursor streams."""

from __future__ import annotations

import io
from decimal import Decimal

import pytest

from apps.tiering.csvsafe import write_rows
from apps.tiering.plans import script
from apps.tiering.plans.script import (
    CSV_HEADER,
    ScriptHeader,
    StepRow,
    plan_csv,
    plan_csv_parts,
    plan_csv_row,
)

HEADER = ScriptHeader(plan_id=7, target="=demo", dbid=5, state="approved")


def _step(position: int) -> StepRow:
    return StepRow(position=position, phase="move", kind="move", owner="APP", object_name=f"-T{position}",
                   subobject_name="", object_type="TABLE", action="move", from_tablespace="DATA01",
                   to_tablespace="FLASH01", to_tier="flash", runnable=position % 2 == 0,
                   ddl=f'ALTER TABLE "APP"."T{position}" MOVE TABLESPACE "FLASH01";', seconds=1.5 * position,
                   redo_bytes=None, size_bytes=position * 2**30, free_after_bytes=None, shortfall_bytes=0,
                   saving_usd_per_month=Decimal("1.25"), move_cost_usd=None, payback_days=6.0)


def test_the_parts_make_the_csv_csvsafe_writes(monkeypatch):
    monkeypatch.setattr(script, "CSV_PART_STEPS", 3)
    steps = [_step(position) for position in range(1, 11)]
    buffer = io.StringIO()
    write_rows(buffer, CSV_HEADER, [plan_csv_row(HEADER, step) for step in steps])

    parts = list(plan_csv_parts(HEADER, steps))

    assert len(parts) == 1 + 4
    assert "".join(parts) == plan_csv(HEADER, steps) == buffer.getvalue()
    assert ",'=demo," in parts[1] and ",'-T1," in parts[1]


def test_a_part_is_made_before_the_later_steps_are_read(monkeypatch):
    monkeypatch.setattr(script, "CSV_PART_STEPS", 3)
    read = []

    def steps():
        for position in range(1, 11):
            read.append(position)
            yield _step(position)

    parts = plan_csv_parts(HEADER, steps())
    next(parts), next(parts)

    assert read == [1, 2, 3]


@pytest.mark.django_db
def test_a_stored_plan_s_streamed_csv_is_its_export(collected):
    from apps.tiering.plans.models import Plan
    from apps.tiering.plans.selectors import plan_export, plan_export_csv_parts
    from apps.tiering.plans.services import plan_create

    plan = plan_create(target=collected, author=None, author_name="ada", all_worth_moving=True)
    plan = Plan.objects.select_related("target").get(pk=plan.pk)
    assert plan.steps_count > 0

    assert "".join(plan_export_csv_parts(plan=plan)) == plan_export(plan=plan, fmt="csv")
