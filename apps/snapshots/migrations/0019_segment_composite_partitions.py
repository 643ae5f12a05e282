# Composite partitioning: a subpartition's partition, a LOB (sub)partition's table (sub)partition, the
# partitioning method and a partition's bound and order by bound. Additive.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0018_disk_groups'),
    ]

    operations = [
        migrations.AddField(model_name='segment', name='parent_partition',
                            field=models.CharField(blank=True, default='', max_length=128)),
        migrations.AddField(model_name='segment', name='table_partition_name',
                            field=models.CharField(blank=True, default='', max_length=128)),
        migrations.AddField(model_name='segment', name='partitioning',
                            field=models.CharField(blank=True, default='', max_length=300)),
        migrations.AddField(model_name='segment', name='partition_bound',
                            field=models.TextField(blank=True, default='')),
        migrations.AddField(model_name='segment', name='partition_order', field=models.IntegerField(null=True)),
    ]
