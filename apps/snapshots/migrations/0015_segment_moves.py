# Reserved for before and after (issue 17); its operations are written into this file by hand.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("snapshots", "0014_datafiles")]

    operations = []
