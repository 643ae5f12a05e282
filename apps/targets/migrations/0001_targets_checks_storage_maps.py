"""The targets app's tables as the migrations 0001-0006 it replaces left them (one initial migration; a database
migrated through those is recognised by ``replaces`` and left as it is). It comes after tiering's first migration,
whose tier sets and tiers a target and its storage map name."""

import apps.targets.models
import django.core.validators
import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    replaces = [('targets', '0001_initial'), ('targets', '0002_initial'), ('targets', '0003_target_check'), ('targets', '0004_target_tier_set'), ('targets', '0005_storage_map'), ('targets', '0006_target_collect_queue')]

    initial = True

    dependencies = [
        ('tiering', '0001_tier_sets_and_tiers'),
    ]

    operations = [
        migrations.CreateModel(
            name='Target',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=60, unique=True, validators=[django.core.validators.RegexValidator('^[A-Za-z0-9][A-Za-z0-9_.-]*$', 'letters, digits, _ . - only')])),
                ('mode', models.CharField(choices=[('awr', 'awr (Diagnostics Pack licensed)'), ('nopack', 'nopack (no Diagnostics Pack)'), ('demo', 'demo (built-in simulation)'), ('report', 'report-only (AWR reports / offline extracts)')], max_length=10)),
                ('dsn', models.CharField(blank=True, help_text='host:port/service_name', max_length=400)),
                ('username', models.CharField(blank=True, max_length=128)),
                ('password_encrypted', models.TextField(blank=True, editable=False)),
                ('interval_minutes', models.PositiveIntegerField(default=60, validators=[django.core.validators.MinValueValidator(5)])),
                ('enabled', models.BooleanField(default=True)),
                ('demo_seed', models.IntegerField(default=42)),
                ('tier_set', models.ForeignKey(default=apps.targets.models.default_tier_set, help_text='the tier set recommendations compare', on_delete=django.db.models.deletion.PROTECT, related_name='targets', to='tiering.tierset')),
                ('next_collect_at', models.DateTimeField(blank=True, null=True)),
                ('capabilities', models.JSONField(blank=True, default=dict, editable=False)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('collect_queue', models.CharField(blank=True, help_text="Celery queue of this target's group (blank: the default queue); start a worker with celery -A config worker -Q <queue>", max_length=60, validators=[django.core.validators.RegexValidator('^[a-z0-9_-]+$', 'lower-case letters, digits, _ - only')], verbose_name='queue')),
            ],
            options={
                'ordering': ['name'],
                'indexes': [models.Index(condition=models.Q(('enabled', True)), fields=['next_collect_at'], name='target_due_idx')],
            },
        ),
        migrations.CreateModel(
            name='TablespaceTier',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('tablespace_name', models.CharField(max_length=128)),
                ('tier', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tablespaces', to='tiering.tier')),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tablespace_tiers', to='targets.target')),
            ],
            options={
                'ordering': ['target', 'tablespace_name'],
                'constraints': [models.UniqueConstraint(fields=('target', 'tablespace_name'), name='tablespace_tier_unique')],
            },
        ),
        migrations.CreateModel(
            name='TargetCheck',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('passed', 'Passed'), ('failed', 'Failed')], default='queued', max_length=10)),
                ('steps', models.JSONField(blank=True, default=list)),
                ('error', models.TextField(blank=True)),
                ('requested_by', models.CharField(blank=True, max_length=150)),
                ('queued_at', models.DateTimeField()),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='checks', to='targets.target')),
            ],
            options={
                'ordering': ['-queued_at'],
            },
        ),
        migrations.CreateModel(
            name='StorageLocation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(help_text='disk group as file names write it (+DATA) or mount point (/u03)', max_length=513)),
                ('kind', models.CharField(choices=[('asm', 'ASM disk group'), ('mount', 'mount point')], max_length=5)),
                ('array_tiering', models.BooleanField(default=False, help_text='the array pool behind it tiers by itself: moving segments fights the array')),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='storage_locations', to='targets.target')),
                ('tier', models.ForeignKey(blank=True, help_text='empty: not mapped', null=True, on_delete=django.db.models.deletion.PROTECT, related_name='storage_locations', to='tiering.tier')),
            ],
            options={
                'ordering': ['target', 'name'],
                'constraints': [models.UniqueConstraint(fields=('target', 'name'), name='storage_location_unique')],
            },
        ),
    ]
