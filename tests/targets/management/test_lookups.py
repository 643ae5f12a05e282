"""A command's target looked up by the name a DBA typed: found, or refused in one line naming it, in the words
the command gives."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from apps.targets.management.lookups import target_named
from apps.targets.models import Target

pytestmark = pytest.mark.django_db


def test_it_finds_the_target_among_those_given():
    target = Target.objects.create(name="prod", mode=Target.Mode.REPORT)

    found = target_named("prod", Target.objects.select_related("tier_set"))

    assert found == target and "tier_set" in found._state.fields_cache


def test_it_refuses_a_name_no_target_has_in_one_line():
    with pytest.raises(CommandError) as refused:
        target_named("nope")

    assert str(refused.value) == "No target named 'nope'."


@pytest.mark.parametrize("command", ["import_awr_report", "import_extract", "storage_map"])
def test_the_report_commands_say_how_to_create_the_target(command, tmp_path):
    argv = {"import_awr_report": [str(tmp_path / "awrrpt.html"), "--target", "no{pe}"],
            "import_extract": [str(tmp_path), "--target", "no{pe}"], "storage_map": ["no{pe}"]}[command]

    with pytest.raises(CommandError) as refused:
        call_command(command, *argv)

    assert str(refused.value) == ("no target named 'no{pe}': create it with "
                                  "`manage.py add_target --name no{pe} --mode report`")
