from __future__ import annotations

from django.db import models


class SegmentSql(models.Model):
    """One statement among the top SQL of one segment over one window (apps.targets.rows.SegmentSql).

    ``source`` "ash": ASH samples on the segment over ``begin_at``..``end_at`` (AWR's, or in-memory ones
    since AWR's newest snapshot when ``recent``, which the window AWR later holds replaces); "v$sql": the
    cursor cache as one collection read it, cumulative since the statement was loaded (``begin_at``), so
    readings of successive collections overlap and only the latest is read. NULL is unknown, never 0.
    At most apps.snapshots.sqlstats.services.TOP_SQL_PER_SEGMENT rows per segment and window.
    """

    target = models.ForeignKey("targets.Target", on_delete=models.CASCADE, related_name="+", db_index=False)
    segment = models.ForeignKey("snapshots.Segment", on_delete=models.CASCADE, related_name="sql")
    collected_at = models.DateTimeField()
    source = models.CharField(max_length=8)
    recent = models.BooleanField(default=False)
    begin_at = models.DateTimeField()
    end_at = models.DateTimeField()
    sql_id = models.CharField(max_length=16)
    plan_hash_value = models.BigIntegerField(null=True)
    samples = models.IntegerField(null=True)
    sample_s = models.FloatField(null=True)
    read_requests = models.BigIntegerField(null=True, help_text="attributed to the segment")
    statement_read_requests = models.BigIntegerField(null=True, help_text="the statement's own, every object")
    executions = models.BigIntegerField(null=True)
    elapsed_s = models.FloatField(null=True)
    full_scan = models.BooleanField(null=True)
    plan_objects = models.IntegerField(null=True)
    text = models.TextField(blank=True, default="")

    class Meta:
        constraints = [
            # A re-run of the same collection writes nothing new.
            models.UniqueConstraint(fields=["segment", "source", "begin_at", "end_at", "sql_id"],
                                    name="segment_sql_window_unique"),
        ]
        indexes = [
            # retention and the provisional rows a new window replaces: a target's rows by time.
            models.Index(fields=["target", "end_at"], name="segment_sql_target_end_idx"),
            # the segment page: one segment's rows of a window (the FK index covers segment alone).
            models.Index(fields=["segment", "source", "-end_at"], name="segment_sql_segment_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.sql_id} on segment {self.segment_id} ({self.source})"
