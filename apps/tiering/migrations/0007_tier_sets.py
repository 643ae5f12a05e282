"""Tier sets as rows (issue 15, item 7): each set has a billing basis; Tier.tier_set becomes a foreign key
to one, its free-text values kept as the sets' names; Tier.billing moves to the set."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


def sets_from_tiers(apps, schema_editor):
    """One set per distinct tier_set value; purchase when any of its tiers was one-off (device prices)."""
    Tier = apps.get_model("tiering", "Tier")
    TierSet = apps.get_model("tiering", "TierSet")
    for name in Tier.objects.values_list("tier_set", flat=True).distinct():
        one_off = Tier.objects.filter(tier_set=name, billing="one_off").exists()
        TierSet.objects.get_or_create(name=name, defaults={"billing": "purchase" if one_off else "monthly"})


def tiers_billing_back(apps, schema_editor):
    Tier = apps.get_model("tiering", "Tier")
    for tier in Tier.objects.select_related("tier_set"):
        tier.billing = "one_off" if tier.tier_set.billing == "purchase" else "monthly"
        tier.save(update_fields=["billing"])


class Migration(migrations.Migration):

    dependencies = [
        ('tiering', '0006_recommendation_unmeasured'),
    ]

    operations = [
        migrations.CreateModel(
            name='TierSet',
            fields=[
                ('name', models.CharField(max_length=60, primary_key=True, serialize=False, validators=[django.core.validators.RegexValidator('^[A-Za-z0-9][A-Za-z0-9 _.-]*$', 'letters, digits, space, _ . - only')])),
                ('billing', models.CharField(choices=[('purchase', 'purchase (one-off, amortised)'), ('monthly', 'monthly')], default='purchase', max_length=10)),
                ('amortisation_months', models.PositiveSmallIntegerField(default=60, help_text='purchase sets: months a purchase is spread over for the monthly figure', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(600)])),
                ('note', models.CharField(blank=True, max_length=300)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.RunPython(sets_from_tiers, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='tier',
            name='tier_set',
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tiers', to='tiering.tierset'),
        ),
        migrations.RunPython(migrations.RunPython.noop, tiers_billing_back),
        migrations.RemoveField(
            model_name='tier',
            name='billing',
        ),
    ]
