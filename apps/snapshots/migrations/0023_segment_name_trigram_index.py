"""pg_trgm and a GIN trigram index on a segment's OWNER.NAME, upper-cased: the name search of the dashboard
(apps.dashboard.search) tests this same expression with LIKE, which the index answers for any part of a name."""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("snapshots", "0022_rollup_blob_autovacuum")]

    operations = [
        TrigramExtension(),
        migrations.RunSQL(
            "CREATE INDEX segment_name_trgm_idx ON snapshots_segment"
            " USING gin ((UPPER(owner || '.' || object_name)) gin_trgm_ops)",
            "DROP INDEX IF EXISTS segment_name_trgm_idx",
        ),
    ]
