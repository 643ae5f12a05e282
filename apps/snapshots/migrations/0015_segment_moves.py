# Before and after (issue 17, part 1): the moves of segments, collected or planned (apps.snapshots.moves).
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("snapshots", "0014_datafiles"), ("targets", "0001_initial")]

    operations = [
        migrations.CreateModel(
            name="SegmentMove",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("from_tablespace", models.CharField(max_length=128)),
                ("to_tablespace", models.CharField(max_length=128)),
                ("moved_at", models.DateTimeField()),
                ("source", models.CharField(choices=[("collected", "Collected"), ("plan", "Plan")], max_length=10)),
                ("plan_step_id", models.BigIntegerField(help_text="the tiering.PlanStep that planned it", null=True)),
                ("detected_at", models.DateTimeField()),
                ("segment", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="moves",
                                              to="snapshots.segment")),
                ("target", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                             related_name="segment_moves", to="targets.target")),
            ],
            options={
                "ordering": ["segment", "moved_at"],
                "indexes": [models.Index(fields=["target", "-moved_at"], name="segment_move_target_idx")],
                "constraints": [models.UniqueConstraint(fields=("segment", "to_tablespace", "moved_at"),
                                                        name="segment_move_unique")],
            },
        ),
    ]
