"""The benches' synthetic fleet: the generators live with the demo (apps.targets.demo.fleet), where
manage.py generate_fleet uses them too; this name stays for the benches and their tests."""

from apps.targets.demo.fleet import (  # noqa: F401
    BLOCK_SIZE_BYTES,
    DEFAULT_FIRST_SNAP_ID,
    DEFAULT_PROFILE,
    FLEET_SCALE_HOURS,
    FLEET_SCALE_SEGMENTS_PER_TARGET,
    FLEET_SCALE_TARGETS,
    FLEET_SEGMENT_COLUMNS,
    FLEET_STAT_COLUMNS,
    FleetProfile,
    fleet_segment_stats,
    fleet_segments,
    fleet_stats,
    profile_for_seed,
    to_segment_stat,
)
