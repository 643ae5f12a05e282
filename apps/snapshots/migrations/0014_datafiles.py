# Reserved for the storage map (issue 17); its operations are written into this file by hand.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("snapshots", "0013_segment_partition_position")]

    operations = []
