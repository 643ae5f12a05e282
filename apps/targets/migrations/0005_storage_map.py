# Reserved for the storage map (issue 17); its operations are written into this file by hand.
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    # tiering 0007 is where targets 0004 already points: Tier exists there.
    dependencies = [("targets", "0004_target_tier_set"), ("tiering", "0007_tier_sets")]

    operations = [
        migrations.CreateModel(
            name="StorageLocation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(
                    help_text="disk group as file names write it (+DATA) or mount point (/u03)", max_length=513)),
                ("kind", models.CharField(choices=[("asm", "ASM disk group"), ("mount", "mount point")],
                                          max_length=5)),
                ("array_tiering", models.BooleanField(
                    default=False,
                    help_text="the array pool behind it tiers by itself: moving segments fights the array")),
                ("target", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                             related_name="storage_locations", to="targets.target")),
                ("tier", models.ForeignKey(blank=True, help_text="empty: not mapped", null=True,
                                           on_delete=django.db.models.deletion.PROTECT,
                                           related_name="storage_locations", to="tiering.tier")),
            ],
            options={
                "ordering": ["target", "name"],
                "constraints": [models.UniqueConstraint(fields=("target", "name"), name="storage_location_unique")],
            },
        ),
    ]
