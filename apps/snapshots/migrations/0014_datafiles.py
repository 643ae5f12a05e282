# Reserved for the storage map (issue 17); its operations are written into this file by hand.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("snapshots", "0013_segment_partition_position"), ("targets", "0004_target_tier_set")]

    operations = [
        migrations.CreateModel(
            name="DataFile",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("collected_at", models.DateTimeField()),
                ("file_type", models.CharField(default="DATA", help_text="DATA or TEMP (temp files number apart)",
                                               max_length=4)),
                ("file_id", models.IntegerField()),
                ("tablespace_name", models.CharField(max_length=128)),
                ("file_name", models.CharField(max_length=513)),
                ("size_bytes", models.BigIntegerField(null=True)),
                ("max_size_bytes", models.BigIntegerField(null=True)),
                ("autoextensible", models.BooleanField(null=True)),
                ("location", models.CharField(help_text="disk group (+DATA) or mount point (/u03)", max_length=513)),
                ("target", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="datafiles",
                                             to="targets.target")),
            ],
            options={
                "ordering": ["target", "file_type", "file_id"],
                "constraints": [models.UniqueConstraint(fields=("target", "file_type", "file_id"),
                                                        name="datafile_unique")],
            },
        ),
    ]
