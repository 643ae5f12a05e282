"""The snapshots app's models: segments, snapshots and their statistics, residency, room, runs and moves.

Some of the app's models live in sibling modules, imported at the end of this one so that Django registers
them and ``from apps.snapshots.models import X`` finds them all: the daily rollups and window bases
(``rollup_models.py``), the ASM disk groups (``storage_models.py``) and the SQL per segment
(``sqlstats/models.py``).
"""

from __future__ import annotations

from typing import Any

from django.db import models

from apps.core.models import RunDuration
from apps.targets.rows import segment_name


class Segment(models.Model):
    """A segment of a target, with an identity that survives MOVE / TRUNCATE.

    Identity is (container, owner, object, subobject, type); the data object id changes on
    MOVE/TRUNCATE/REBUILD and is tracked, not keyed on. ``container`` is the PDB of a CDB's
    segment ("" for a non-CDB): the same owner.object in two PDBs are two segments.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="segments")
    owner = models.CharField(max_length=128)
    object_name = models.CharField(max_length=128)
    subobject_name = models.CharField(max_length=128, blank=True, default="")
    object_type = models.CharField(max_length=30)
    container = models.CharField(max_length=128, blank=True, default="", db_default="",
                                 help_text="the PDB a CDB's segment lives in; empty for a non-CDB")
    tablespace_name = models.CharField(max_length=128, blank=True, default="")
    obj_number = models.BigIntegerField(null=True)
    dataobj_number = models.BigIntegerField(null=True)
    partitioned_parent = models.CharField(max_length=128, blank=True, default="")
    lob_column = models.CharField(max_length=300, blank=True, default="")
    # Table and index partitions (DBA_TAB/IND_PARTITIONS): position, oldest first for range and interval
    # partitioning, and whether interval partitioning created it; null when the source did not say.
    partition_position = models.IntegerField(null=True)
    partition_interval = models.BooleanField(null=True)
    # Composite partitioning (apps.targets.oracle.partitions): a subpartition's partition (a LOB subpartition's
    # LOB partition), a LOB (sub)partition's table (sub)partition (its MOVE names it), the table's or index's
    # partitioning ("RANGE(ORDER_DATE)-HASH(ORDER_ID)"), its partition's bound (HIGH_VALUE) and that
    # partition's rank by bound (1: oldest; null: not ordered, e.g. hash). "" / null: not said.
    parent_partition = models.CharField(max_length=128, blank=True, default="")
    table_partition_name = models.CharField(max_length=128, blank=True, default="")
    partitioning = models.CharField(max_length=300, blank=True, default="")
    partition_bound = models.TextField(blank=True, default="")
    partition_order = models.IntegerField(null=True)
    size_bytes = models.BigIntegerField(null=True, help_text="latest DBA_SEGMENTS.BYTES; null when never sized")
    size_at = models.DateTimeField(null=True)
    buffer_pool = models.CharField(max_length=10, blank=True, default="")
    flash_cache = models.CharField(max_length=10, blank=True, default="")
    cell_flash_cache = models.CharField(max_length=10, blank=True, default="")
    # True once the segment appeared in an AWR top-N capture; segments never
    # captured are "below AWR's capture" and get figures from V$ samples only.
    in_awr = models.BooleanField(default=False)
    # Its name as a text AWR report printed it, cut to the column width and not resolved to a full name.
    name_truncated = models.BooleanField(default=False, db_default=False)
    first_seen_at = models.DateTimeField()
    last_seen_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["target", "container", "owner", "object_name", "subobject_name", "object_type"],
                name="segment_identity"
            ),
        ]
        indexes = [
            # residency mapping: V$BH rows carry the data object id.
            models.Index(fields=["target", "dataobj_number"], name="segment_dataobj_idx"),
        ]

    def __str__(self) -> str:
        return f"{segment_name(self.owner, self.object_name, self.subobject_name, self.container)} ({self.object_type})"

    @property
    def size_gb(self) -> float | None:
        return None if self.size_bytes is None else self.size_bytes / 1024**3


class Snapshot(models.Model):
    """One interval of one instance of one target.

    ``kind``: awr (DBA_HIST, top-N), sample (deltas of two V$ samples, complete),
    report (an imported AWR report), extract (offline extract), demo.
    Written in one transaction with all its rows, or not at all.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="snapshots")
    kind = models.CharField(max_length=10)
    dbid = models.BigIntegerField()
    instance_number = models.IntegerField()
    snap_id = models.BigIntegerField()
    begin_at = models.DateTimeField()
    end_at = models.DateTimeField()
    startup_at = models.DateTimeField()
    top_n_only = models.BooleanField()
    # Top-N sources: upper bounds on the requests of a segment the snapshot lists nowhere (NULL: unknown).
    unlisted_read_requests_bound = models.BigIntegerField(null=True)
    unlisted_write_requests_bound = models.BigIntegerField(null=True)
    # A RAC instance report's "Number of Instances": the interval is complete once that many instances (or a
    # global report, instance 0) are stored. NULL: not stated.
    database_instances = models.SmallIntegerField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Added to the daily rollups (RollupDay) yet? See apps.snapshots.rollups.segment_days_roll_up.
    rolled_up = models.BooleanField(default=False, db_default=False)

    class Meta:
        constraints = [
            # Re-collection is idempotent: a snapshot is stored once.
            models.UniqueConstraint(
                fields=["target", "dbid", "instance_number", "kind", "snap_id"], name="snapshot_natural_key"
            ),
        ]
        indexes = [
            # window queries: a target's snapshots by time.
            models.Index(fields=["target", "end_at"], name="snapshot_target_end_idx"),
            # the snapshots still to roll up (few at a time).
            models.Index(fields=["target"], condition=models.Q(rolled_up=False), name="snapshot_pending_idx"),
        ]

    @property
    def interval_seconds(self) -> float:
        return (self.end_at - self.begin_at).total_seconds()


class SegmentStat(models.Model):
    """One segment's deltas over one snapshot (loaded with COPY).

    The biggest table: its key is (snapshot, segment) itself (no surrogate id),
    and the only other index is the per-segment time series, so each row
    costs two index insertions.
    """

    # Partitioned by day of end_at (apps.snapshots.partitions), so the key carries end_at.
    pk = models.CompositePrimaryKey("snapshot", "segment", "end_at")
    # Indexed by the primary key (snapshot first) and segment_stat_series_idx (segment first).
    # No database-level foreign keys: their deferred per-row checks more than doubled the cost
    # of COPY (bench/run.py). Rows are written only by apps.snapshots.store, with ids it has just
    # written in the same transaction; deletes cascade through the ORM (Snapshot/Segment delete).
    snapshot = models.ForeignKey(Snapshot, on_delete=models.CASCADE, related_name="segment_stats",
                                 db_index=False, db_constraint=False)
    segment = models.ForeignKey(Segment, on_delete=models.CASCADE, related_name="stats", db_index=False,
                                db_constraint=False)
    end_at = models.DateTimeField()  # copy of snapshot.end_at: time-range scans without a join
    interval_s = models.FloatField()
    physical_read_requests = models.BigIntegerField(null=True)
    physical_write_requests = models.BigIntegerField(null=True)
    physical_reads_blocks = models.BigIntegerField(null=True)
    physical_writes_blocks = models.BigIntegerField(null=True)
    physical_reads_direct_blocks = models.BigIntegerField(null=True)
    physical_writes_direct_blocks = models.BigIntegerField(null=True)
    optimized_physical_reads = models.BigIntegerField(null=True)
    logical_reads = models.BigIntegerField(null=True)
    db_block_changes = models.BigIntegerField(null=True)
    table_scans = models.BigIntegerField(null=True)
    space_allocated_bytes = models.BigIntegerField(null=True)
    # Upper bounds on the request counts where a top-N source left them unmeasured (NULL): see
    # apps.targets.rows.SegmentStat. NULL with a NULL count: unmeasured and unbounded.
    read_requests_bound = models.BigIntegerField(null=True)
    write_requests_bound = models.BigIntegerField(null=True)

    class Meta:
        indexes = [
            # segment page and window rollups: one segment's series by time.
            models.Index(fields=["segment", "end_at"], name="segment_stat_series_idx"),
        ]


class SysStat(models.Model):
    snapshot = models.ForeignKey(Snapshot, on_delete=models.CASCADE, related_name="sysstats")
    name = models.CharField(max_length=128)
    value = models.BigIntegerField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["snapshot", "name"], name="sysstat_unique")]


class TablespaceIO(models.Model):
    snapshot = models.ForeignKey(Snapshot, on_delete=models.CASCADE, related_name="tablespace_io")
    tablespace_name = models.CharField(max_length=128)
    read_requests = models.BigIntegerField()
    write_requests = models.BigIntegerField()
    read_time_ms = models.FloatField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["snapshot", "tablespace_name"], name="tablespace_io_unique")]


class Residency(models.Model):
    """Buffer-cache residency of a segment at one collection (V$BH grouped by OBJD)."""

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="residency")
    segment = models.ForeignKey(Segment, on_delete=models.CASCADE, related_name="residency")
    collected_at = models.DateTimeField()
    instance_number = models.IntegerField()
    flash_blocks = models.BigIntegerField()
    cache_blocks = models.BigIntegerField()

    class Meta:
        verbose_name_plural = "residency samples"
        constraints = [
            models.UniqueConstraint(
                fields=["segment", "collected_at", "instance_number"], name="residency_unique"
            ),
        ]
        indexes = [
            # target page: latest residency of a target.
            models.Index(fields=["target", "-collected_at"], name="residency_target_idx"),
        ]


class TablespaceSpace(models.Model):
    """Room in one permanent tablespace at one collection (DBA_DATA_FILES, DBA_SEGMENTS).

    NULL is unknown, never 0. Kept per collection like Residency: the latest per tablespace is what
    plans and the target page count moves against; older rows show how the room changed.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="tablespace_space")
    collected_at = models.DateTimeField()
    tablespace_name = models.CharField(max_length=128)
    size_bytes = models.BigIntegerField(null=True, help_text="what its data files hold now")
    used_bytes = models.BigIntegerField(null=True, help_text="allocated to segments")
    max_size_bytes = models.BigIntegerField(null=True, help_text="what its files may grow to (autoextend)")
    block_size_bytes = models.IntegerField(null=True)
    autoextensible = models.BooleanField(null=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "tablespace_name", "collected_at"],
                                    name="tablespace_space_unique"),
        ]
        indexes = [
            # tablespace_space_latest: a target's newest collection (MAX, then its rows).
            models.Index(fields=["target", "-collected_at"], name="tablespace_space_target_idx"),
        ]

    @property
    def free_bytes(self) -> int | None:
        if self.size_bytes is None or self.used_bytes is None:
            return None
        return self.size_bytes - self.used_bytes


class DataFile(models.Model):
    """A data or temp file of a target as its newest collection that gave any listed it (DBA_DATA_FILES,
    DBA_TEMP_FILES): the storage map's input.

    Only the newest collection's files are kept (apps.snapshots.storage_map.datafiles_store replaces older ones):
    the map describes where the tablespaces are now. ``location`` is the disk group or mount point
    apps.targets.storage found for ``file_name`` with the mount points declared then; the storage map
    reads it again with the ones declared now.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="datafiles")
    collected_at = models.DateTimeField()
    file_type = models.CharField(max_length=4, default="DATA", help_text="DATA or TEMP (temp files number apart)")
    file_id = models.IntegerField()
    tablespace_name = models.CharField(max_length=128)
    file_name = models.CharField(max_length=513)
    size_bytes = models.BigIntegerField(null=True)
    max_size_bytes = models.BigIntegerField(null=True)
    autoextensible = models.BooleanField(null=True)
    location = models.CharField(max_length=513, help_text="disk group (+DATA) or mount point (/u03)")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "file_type", "file_id"], name="datafile_unique"),
        ]
        ordering = ["target", "file_type", "file_id"]

    def __str__(self) -> str:
        return f"{self.target}: {self.file_name} ({self.tablespace_name})"


class SampleState(models.Model):
    """The last cumulative V$ sample per instance: the baseline for the next delta."""

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="sample_states")
    instance_number = models.IntegerField()
    startup_at = models.DateTimeField()
    sampled_at = models.DateTimeField()
    payload = models.JSONField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["target", "instance_number"], name="sample_state_unique"),
        ]


#: A run's notes that start with this are warnings: the target page and /runs/ show them.
WARNING_PREFIX = "Warning: "


class CollectionRun(RunDuration, models.Model):
    """One collection (or import) of one target, shown on /runs/."""

    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        SUCCEEDED = "succeeded"
        FAILED = "failed"
        SKIPPED = "skipped"

    #: The refresh queued after it (None: none yet), set by the run pages' reads (apps.dashboard.runs.selectors):
    #: an apps.tiering Refresh, Any here as snapshots does not import tiering (tests/core/test_app_cycles.py).
    latest_refresh: Any
    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="runs")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    trigger = models.CharField(max_length=20, default="schedule")  # schedule | manual | command | import
    queued_at = models.DateTimeField()
    started_at = models.DateTimeField(null=True)
    finished_at = models.DateTimeField(null=True)
    snapshots_added = models.IntegerField(default=0)
    rows_added = models.BigIntegerField(default=0)
    attempts = models.IntegerField(default=0)
    error = models.TextField(blank=True)
    notes = models.TextField(blank=True)
    task_id = models.CharField(max_length=64, blank=True)
    queue = models.CharField(max_length=60, blank=True)  # the Celery queue its task was sent to ("" = default)
    worker = models.CharField(max_length=200, blank=True)  # hostname of the worker that last started it

    class Meta:
        ordering = ["-queued_at"]
        indexes = [
            # /runs/ and the fleet overview: latest runs per target.
            models.Index(fields=["target", "-queued_at"], name="run_target_idx"),
        ]

    @property
    def warnings(self) -> list[str]:
        """The notes a DBA must see (a source marks them "Warning: "): figures unknown, a report without segments."""
        return [line for line in self.notes.splitlines() if line.startswith(WARNING_PREFIX)]


class SegmentMove(models.Model):
    """A segment seen moving from one tablespace to another (apps.snapshots.moves).

    ``source`` collected: the snapshots showed it (a segment's tablespace changed between two of them, or
    a DBA_SEGMENTS listing showed it elsewhere first). ``moved_at`` is the earliest time it was seen on
    the new tablespace: the begin time of the first snapshot that lists it there (a whole interval on
    it when the move falls between snapshots), or the listing's time when a listing saw it first.
    ``source`` plan: a plan marked executed (``plan_step_id``, a tiering.PlanStep's id: no foreign key, the
    data path runs snapshots -> tiering only) said so, at the time it was marked; the first collected
    move of the same segment to the same tablespace takes that row over (source collected, its own
    moved_at, the step kept), so one move is never counted twice.
    """

    class Source(models.TextChoices):
        COLLECTED = "collected"
        PLAN = "plan"

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="segment_moves")
    segment = models.ForeignKey(Segment, on_delete=models.CASCADE, related_name="moves")
    from_tablespace = models.CharField(max_length=128)
    to_tablespace = models.CharField(max_length=128)
    moved_at = models.DateTimeField()
    source = models.CharField(max_length=10, choices=Source.choices)
    plan_step_id = models.BigIntegerField(null=True, help_text="the tiering.PlanStep that planned it")
    detected_at = models.DateTimeField()

    class Meta:
        ordering = ["segment", "moved_at"]
        constraints = [
            # Re-collecting the same snapshots records no second move.
            models.UniqueConstraint(fields=["segment", "to_tablespace", "moved_at"], name="segment_move_unique"),
        ]
        indexes = [
            # the segment page and the detection's history: one segment's moves by time (segment first, the
            # unique constraint's index); a target's moves newest first for the plan page.
            models.Index(fields=["target", "-moved_at"], name="segment_move_target_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.segment}: {self.from_tablespace} -> {self.to_tablespace} at {self.moved_at:%Y-%m-%d %H:%M}"


# The daily rollups and window bases (and their TOP_IOPS) live in their own module; imported here so that they are
# the snapshots app's models and `from apps.snapshots.models import RollupDay` keeps working.
from apps.snapshots.rollup_models import TOP_IOPS, RollupDay, RollupHour, WindowBase  # noqa: E402, F401

# Which SQL drives a segment lives in its own package; imported here so that it is the snapshots app's model.
from apps.snapshots.sqlstats.models import SegmentSql  # noqa: E402, F401
from apps.snapshots.storage_models import DiskGroup  # noqa: E402,F401 (a model of this app: Django must import it)
