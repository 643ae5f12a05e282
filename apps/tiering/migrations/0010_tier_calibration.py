# Reserved for tier calibration (issue 17); its operations are written into this file by hand.
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("tiering", "0009_plans")]

    operations = []
