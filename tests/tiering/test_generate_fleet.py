from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.core.management import CommandError

from apps.snapshots.models import RollupDay, Segment, SegmentStat, Snapshot
from apps.targets.models import Target
from apps.tiering.models import Recommendation
from apps.tiering.recommendations.services import recommendation_refresh
from tests.commands import command_output

NOW = dt.datetime(2026, 11, 20, 10, 30, tzinfo=dt.timezone.utc)


def generate(*args: str) -> str:
    return command_output("generate_fleet", *args)


@pytest.mark.django_db
class GenerateFleetTests:
    def test_it_builds_targets_with_segments_hourly_snapshots_stats_and_rollups_a_refresh_prices(self):
        with time_machine.travel(NOW, tick=False):
            out = generate("--targets", "2", "--segments", "50", "--days", "1", "--prefix", "gf")

        targets = list(Target.objects.filter(name__startswith="gf-").order_by("name"))
        assert [t.name for t in targets] == ["gf-001", "gf-002"]
        for target in targets:
            assert not target.enabled  # nothing collects into a generated target
            assert Segment.objects.filter(target=target).count() == 50
            assert Snapshot.objects.filter(target=target).count() == 24
            assert SegmentStat.objects.filter(snapshot__target=target).count() == 50 * 24
            assert Snapshot.objects.filter(target=target).latest("end_at").end_at == NOW.replace(minute=0)
            assert RollupDay.objects.filter(target=target).exists()
        sizes = [sorted(Segment.objects.filter(target=t).values_list("size_bytes", flat=True)) for t in targets]
        assert sizes[0] != sizes[1]  # each target draws its own segments
        assert "gf-002: 24 snapshots, 1,200 segment-stat rows" in out
        assert "24/24 hours" in out  # progress lines

        result = recommendation_refresh(target_id=targets[0].id, now=NOW)
        assert result.recommendations == 50
        assert Recommendation.objects.current(target_id=targets[0].id).count() == 50

    def test_a_rerun_adds_only_the_hours_since_and_says_when_a_target_is_up_to_date(self):
        with time_machine.travel(NOW, tick=False):
            generate("--targets", "1", "--segments", "50", "--days", "1", "--prefix", "gf")
            assert "gf-001: exists and is up to date" in generate(
                "--targets", "1", "--segments", "50", "--days", "1", "--prefix", "gf")
        with time_machine.travel(NOW + dt.timedelta(hours=2), tick=False):
            out = generate("--targets", "1", "--segments", "50", "--days", "1", "--prefix", "gf")
        assert "gf-001: extending, 50 segments x 2 hours" in out
        assert Snapshot.objects.filter(target__name="gf-001").count() == 26

    @pytest.mark.parametrize("args, message", [
        (("--targets", "0", "--segments", "5", "--days", "1"), "--targets must be between 1"),
        (("--targets", "1", "--segments", "0", "--days", "1"), "--segments must be between 1"),
        (("--targets", "1", "--segments", "5", "--days", "0"), "--days must be between 1"),
        (("--targets", "1", "--segments", "5", "--days", "1", "--prefix", "bad name"), "--prefix 'bad name'"),
    ])
    def test_bad_arguments_are_refused_naming_the_argument_and_write_nothing(self, args, message):
        with pytest.raises(CommandError, match=message):
            generate(*args)
        assert not Target.objects.exists()

    def test_a_target_of_the_same_name_that_is_not_a_fleet_target_is_left_alone(self):
        Target.objects.create(name="gf-001", mode=Target.Mode.DEMO)
        with pytest.raises(CommandError, match="'gf-001' exists and is not a generated fleet target"):
            generate("--targets", "2", "--segments", "5", "--days", "1", "--prefix", "gf")
        assert not Target.objects.filter(name="gf-002").exists()
        assert not Snapshot.objects.exists()

    def test_a_fleet_target_with_another_segment_count_is_refused(self):
        with time_machine.travel(NOW, tick=False):
            generate("--targets", "1", "--segments", "5", "--days", "1", "--prefix", "gf")
            with pytest.raises(CommandError, match="exists with 5 segments, not 6"):
                generate("--targets", "1", "--segments", "6", "--days", "1", "--prefix", "gf")
