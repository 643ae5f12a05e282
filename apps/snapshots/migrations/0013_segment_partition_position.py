# Partition lifecycle (issue 16, item 3): a partition's position and whether interval partitioning made it.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('snapshots', '0012_tablespace_space'),
    ]

    operations = [
        migrations.AddField(
            model_name='segment',
            name='partition_position',
            field=models.IntegerField(null=True),
        ),
        migrations.AddField(
            model_name='segment',
            name='partition_interval',
            field=models.BooleanField(null=True),
        ),
    ]
