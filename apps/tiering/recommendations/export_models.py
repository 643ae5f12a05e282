"""A recommendation run's export rendered once (apps.tiering.recommendations.export_store): each row's CSV line and JSON values,
stored in the run's key order, so a download streams stored text instead of wording every row again.

Stored lines are used only while what they were worded from still holds: ``ExportRender.context`` is a digest
of everything an export reads besides the run's own rows (the target, its tier set and tiers, its storage map,
the run's window and hysteresis history, the code), and each line carries a digest of its segment's columns
(a collection may change a segment's tablespace after the run). A line whose digests no longer match is worded
again at the download, as if none were stored.
"""

from __future__ import annotations

from django.contrib.postgres.fields import ArrayField
from django.db import models


class ExportRender(models.Model):
    """That a run's export lines are stored, and the digest of what they were worded from."""

    run = models.OneToOneField("tiering.RecommendationRun", on_delete=models.CASCADE, primary_key=True,
                               related_name="export_render")
    context = models.CharField(max_length=64, help_text="digest of what the lines were worded from besides the rows")
    tier_ids = ArrayField(models.BigIntegerField(), default=list, help_text="the tiers the run's rows name")
    rows = models.IntegerField()
    rendered_at = models.DateTimeField()


class ExportLine(models.Model):
    """One recommendation's export text: its CSV line (with its line end) and its JSON values (each value's
    JSON text, joined by U+001F, which JSON text never holds unescaped), and its place in the export's order
    (recommendation_list's, then the segment's id)."""

    pk = models.CompositePrimaryKey("run_id", "segment_id")
    position = models.IntegerField(help_text="the line's place in the export's order (apps.tiering.recommendations.export_store)")
    run = models.ForeignKey("tiering.RecommendationRun", on_delete=models.CASCADE, related_name="+",
                            db_index=False)
    segment_id = models.BigIntegerField()
    segment_digest = models.BigIntegerField(
        help_text="a 64-bit hash of the segment's exported columns when the line was worded")
    csv = models.TextField()
    json = models.TextField()

    class Meta:
        # A download reads a run's lines in the export's order by this index: a range scan, no sort.
        constraints = [models.UniqueConstraint(fields=["run", "position"], name="exportline_run_position_uniq")]
