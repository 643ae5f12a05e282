"""The daily rollups and window bases that recommendations read (apps.snapshots.models imports them,
so Django finds them).

:class:`RollupDay` is a target's activity over one UTC day, :class:`WindowBase` those days merged over
the complete days of a window; :data:`TOP_IOPS` is how many of the largest per-snapshot IOPS values
each keeps. A module of its own: models.py is past the house's 400 lines with them.
"""

from __future__ import annotations

from django.db import models

#: Per-day and per-window count of the largest per-snapshot IOPS values kept (apps.snapshots.activity).
#: A p95 over n snapshots is the k-th largest value, k = n - ceil(0.95 n) + 1, so 40 keeps p95 exact
#: for windows of up to ~780 snapshots: 7 days of 15-minute AWR snapshots (672), 30 days of hourly
#: ones (720). Longer windows fall back to the raw statistics.
TOP_IOPS = 40


class RollupDay(models.Model):
    """A target's activity over one UTC day, per segment and source: the daily rollup recommendations read.

    Maintained by apps.snapshots.rollups.segment_days_roll_up, which adds the
    snapshots stored since its last run (before every recommendation refresh),
    so collection itself stays a plain COPY of raw rows. ``data`` is an
    apps.snapshots.activity.Activity of ``rows`` rows keeping ``width`` top
    IOPS values each (Activity.to_bytes): per snapshot first (the instances of
    one snap_id summed, as on RAC), then per segment and source (V$ samples or
    AWR/demo/report snapshots, which measure the same time: a day uses one).
    ``version`` grows with every change; a cached WindowBase is valid while no
    day it covers has a version above the one it was built from.

    Rollups hold the snapshots of one database only: the target's current
    one (``dbid``, the DBID of its latest snapshot). When another becomes
    current, the roll-up rebuilds them all from that database's snapshots;
    the others' are kept, apart. A delete of snapshots, however done, drops
    the rollups of their days (a trigger, migrations/_database_sql.py), which the next
    roll-up builds again from what is left.
    """

    pk = models.CompositePrimaryKey("target", "day")
    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="+")
    day = models.DateField()
    # Null: written before rollups recorded their database; the next roll-up rebuilds them.
    dbid = models.BigIntegerField(null=True)
    version = models.BigIntegerField()
    rows = models.IntegerField(default=0)
    width = models.PositiveSmallIntegerField(default=0)
    data = models.BinaryField(default=b"")


class WindowBase(models.Model):
    """A target's rollups merged over the complete days of a window (all but its last day).

    A window's last day still grows with each collection; its earlier days do
    not, so refreshes during a day read this and the last day's rollup instead
    of every day of the window. ``data`` as RollupDay's, one row per segment
    (``from_samples``: only V$ samples measured it).

    A target has the base of its current window and, prepared after a refresh
    (apps.snapshots.windows.window_base_prepare), the days the next day's
    window shares with it (which the next day's first refresh extends by the
    day just ended instead of merging every day again) and, at the day's last
    collection, that extended base itself.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="+", db_index=False)
    first_day = models.DateField()
    last_day = models.DateField()
    version = models.BigIntegerField(help_text="the highest RollupDay.version of its days when it was built")
    ranks = models.PositiveSmallIntegerField(default=TOP_IOPS, help_text="top IOPS values its rows keep")
    built_at = models.DateTimeField()
    rows = models.IntegerField(default=0)
    width = models.PositiveSmallIntegerField(default=0)
    data = models.BinaryField(default=b"")

    class Meta:
        # The upsert's conflict target; a target's bases are read by it too (target_id first).
        constraints = [models.UniqueConstraint(fields=["target", "first_day", "last_day"], name="window_base_days")]


class RollupHour(models.Model):
    """The part of the rollup of a day still going on: what the ``roll_ups`` roll-ups since the day's RollupDay
    was last written added to it (usually that many hourly snapshots).

    A roll-up of a day that has not ended (apps.snapshots.rollups.
    segment_days_roll_up) rewrites this narrow part instead of the day's
    whole RollupDay; the day's rollup is its RollupDay (if any) merged with
    its part. The part is merged into the RollupDay every PARTS_PER_DAY
    roll-ups and once the day has ended, so a reader merges two blobs and a
    day is rewritten whole a few times, not once an hour. ``version`` comes
    from RollupDay's sequence: a day's version is the highest of its
    RollupDay's and its part's. ``data`` as RollupDay's.
    """

    pk = models.CompositePrimaryKey("target", "day", "version")
    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="+", db_index=False)
    day = models.DateField()
    version = models.BigIntegerField()
    dbid = models.BigIntegerField()
    roll_ups = models.PositiveSmallIntegerField(default=1)
    rows = models.IntegerField(default=0)
    width = models.PositiveSmallIntegerField(default=0)
    data = models.BinaryField(default=b"")
