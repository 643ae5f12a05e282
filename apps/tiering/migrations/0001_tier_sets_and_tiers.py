"""Tier sets and tiers: the part of the tiering app that targets refer to (Target.tier_set, the storage map's
tiers), made before the targets app's migration; the rest of the app, which refers to targets and segments, is
0002. Two migrations rather than one because the apps refer to each other both ways: one migration per app
would have each wait for the other. A database migrated through the old chain is recognised by ``replaces``
(the migrations that made these two tables here, the others in 0002) and left as it is."""

import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('tiering', '0001_initial'), ('tiering', '0007_tier_sets')]

    initial = True

    dependencies = [
    ]

    operations = [
        migrations.CreateModel(
            name='TierSet',
            fields=[
                ('name', models.CharField(max_length=60, primary_key=True, serialize=False, validators=[django.core.validators.RegexValidator('^[A-Za-z0-9][A-Za-z0-9 _.-]*$', 'letters, digits, space, _ . - only')])),
                ('billing', models.CharField(choices=[('purchase', 'purchase (one-off, amortised)'), ('monthly', 'monthly')], default='purchase', max_length=10)),
                ('amortisation_months', models.PositiveSmallIntegerField(default=60, help_text='purchase sets: months a purchase is spread over for the monthly figure', validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(600)])),
                ('note', models.CharField(blank=True, max_length=300)),
                ('hysteresis_band', models.FloatField(default=0.25, help_text='share past the break-even intensity needed to move back', validators=[django.core.validators.MinValueValidator(0), django.core.validators.MaxValueValidator(10)])),
                ('hysteresis_days', models.PositiveSmallIntegerField(default=7, help_text='days a move back must be advised before it is', validators=[django.core.validators.MaxValueValidator(365)])),
                ('min_saving_usd_per_month', models.DecimalField(decimal_places=2, default=1, help_text='a move saving less than this per month is not worth its DDL', max_digits=10, validators=[django.core.validators.MinValueValidator(0)])),
                ('move_cost_usd', models.DecimalField(decimal_places=2, default=0, help_text="a DBA's cost per move (USD), beside the IO the move costs", max_digits=10, validators=[django.core.validators.MinValueValidator(0)])),
                ('payback_horizon_months', models.DecimalField(decimal_places=2, default=3, help_text='a move must pay back its one-off cost within this many months', max_digits=5, validators=[django.core.validators.MinValueValidator(0)])),
            ],
            options={
                'ordering': ['name'],
            },
        ),
        migrations.CreateModel(
            name='Tier',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, unique=True)),
                ('kind', models.CharField(choices=[('device', 'per device'), ('linear', 'per GB and per IOPS'), ('provisioned_iops', 'cloud: per GB + IOPS above a baseline'), ('performance_level', 'cloud: per GB at IOPS per GB')], default='device', max_length=20)),
                ('device_cost_usd', models.DecimalField(blank=True, decimal_places=2, max_digits=14, null=True)),
                ('device_gb', models.FloatField(blank=True, null=True)),
                ('device_iops', models.FloatField(blank=True, null=True)),
                ('usd_per_gb', models.DecimalField(blank=True, decimal_places=6, max_digits=14, null=True)),
                ('usd_per_iops', models.DecimalField(blank=True, decimal_places=6, max_digits=14, null=True)),
                ('included_iops', models.FloatField(blank=True, help_text='IOPS included free (gp3-style baseline)', null=True)),
                ('iops_per_gb', models.FloatField(blank=True, help_text='IOPS per billed GB (OCI-style)', null=True)),
                ('volume_min_gb', models.FloatField(blank=True, null=True)),
                ('volume_max_gb', models.FloatField(blank=True, null=True)),
                ('volume_max_iops', models.FloatField(blank=True, null=True)),
                ('max_iops_per_gb', models.FloatField(blank=True, help_text='provider IOPS:GB cap (gp3 500, io2 1000)', null=True)),
                ('max_devices', models.IntegerField(blank=True, help_text='device-count limit; empty = unlimited', null=True)),
                ('read_latency_ms', models.FloatField(default=5.0, help_text='nominal single-block read latency')),
                ('is_flash', models.BooleanField(default=False)),
                ('max_gb', models.FloatField(blank=True, help_text='capacity limit for placements; empty = unlimited', null=True)),
                ('price_source', models.CharField(blank=True, max_length=300)),
                ('priced_on', models.DateField(blank=True, null=True)),
                ('tier_set', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tiers', to='tiering.tierset')),
                ('note', models.CharField(blank=True, max_length=300)),
                ('throughput_mb_s', models.FloatField(blank=True, help_text='sequential MB/s a move reads from or writes to it; empty: unknown', null=True)),
            ],
            options={
                'ordering': ['name'],
            },
        ),
    ]
