# Reserved for the storage map (issue 17); its operations are written into this file by hand.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("targets", "0004_target_tier_set")]

    operations = []
