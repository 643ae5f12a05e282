"""What the import tests count: a target's stored rows of each kind, and the counts of a target with none."""

from __future__ import annotations

from apps.snapshots.models import Residency, SampleState, Segment, SegmentStat, Snapshot, SysStat, TablespaceIO
from apps.targets.models import Target


def stored_counts(target: Target) -> dict[str, int]:
    return {
        "snapshots": Snapshot.objects.filter(target=target).count(),
        "segment_stats": SegmentStat.objects.filter(snapshot__target=target).count(),
        "sysstats": SysStat.objects.filter(snapshot__target=target).count(),
        "tablespace_io": TablespaceIO.objects.filter(snapshot__target=target).count(),
        "segments": Segment.objects.filter(target=target).count(),
        "residency": Residency.objects.filter(target=target).count(),
        "samples": SampleState.objects.filter(target=target).count(),
    }


NOTHING = {"snapshots": 0, "segment_stats": 0, "sysstats": 0, "tablespace_io": 0, "segments": 0, "residency": 0,
           "samples": 0}
