# Reserved for tier calibration (issue 17); its operations are written into this file by hand.
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tiering", "0009_plans"), migrations.swappable_dependency(settings.AUTH_USER_MODEL)]

    operations = [
        migrations.CreateModel(
            name="TierCalibration",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("source", models.CharField(choices=[("fio", "fio"), ("orion", "ORION"),
                                                     ("calibrate_io", "CALIBRATE_IO")], max_length=12)),
                ("read_iops", models.FloatField(blank=True, null=True)),
                ("write_iops", models.FloatField(blank=True, null=True)),
                ("read_mbps", models.FloatField(blank=True, help_text="MB = 2**20 bytes", null=True)),
                ("write_mbps", models.FloatField(blank=True, null=True)),
                ("read_latency_ms", models.FloatField(blank=True, null=True)),
                ("write_latency_ms", models.FloatField(blank=True, null=True)),
                ("block_size_bytes", models.IntegerField(blank=True, null=True)),
                ("jobs", models.IntegerField(blank=True, null=True)),
                ("file_name", models.CharField(max_length=255)),
                ("file_sha256", models.CharField(max_length=64)),
                ("measured_at", models.DateTimeField(blank=True, help_text="when the file says it was measured",
                                                     null=True)),
                ("uploaded_at", models.DateTimeField()),
                ("nominal_device_iops", models.FloatField(blank=True, null=True)),
                ("nominal_read_latency_ms", models.FloatField(blank=True, null=True)),
                ("nominal_throughput_mb_s", models.FloatField(blank=True, null=True)),
                ("set_device_iops", models.FloatField(blank=True, null=True)),
                ("set_read_latency_ms", models.FloatField(blank=True, null=True)),
                ("tier", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="calibrations",
                                           to="tiering.tier")),
                ("uploaded_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL,
                                                  related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["-uploaded_at", "-id"],
                "indexes": [models.Index(fields=["tier", "-uploaded_at"], name="tier_calibration_tier_idx")],
            },
        ),
    ]
