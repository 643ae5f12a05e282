"""Target.tier_set becomes a foreign key to tiering.TierSet (issue 15, item 7): each free-text value
becomes a set of that name (an unknown one an empty purchase set, visible in the admin), so none is lost."""

import django.db.models.deletion
from django.db import migrations, models

import apps.targets.models


def sets_from_targets(apps, schema_editor):
    Target = apps.get_model("targets", "Target")
    TierSet = apps.get_model("tiering", "TierSet")
    for name in Target.objects.values_list("tier_set", flat=True).distinct():
        TierSet.objects.get_or_create(name=name)


class Migration(migrations.Migration):

    dependencies = [
        ('targets', '0003_target_check'),
        ('tiering', '0007_tier_sets'),
    ]

    operations = [
        migrations.RunPython(sets_from_targets, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='target',
            name='tier_set',
            field=models.ForeignKey(default=apps.targets.models.default_tier_set, help_text='the tier set recommendations compare', on_delete=django.db.models.deletion.PROTECT, related_name='targets', to='tiering.tierset'),
        ),
    ]
