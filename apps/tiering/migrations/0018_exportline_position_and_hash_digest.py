from django.db import migrations, models

# Stored lines worded before they had a place in the export's order (and a digest of their segment cheaper to
# compare) cannot be read in that order: they are deleted (a cache: the next download words its rows and queues the run's rendering again, as it does after a
# new release anyway).
FORGET_STORED_LINES = "DELETE FROM tiering_exportline; DELETE FROM tiering_exportrender;"


class Migration(migrations.Migration):

    dependencies = [
        ('tiering', '0017_export_stored_lines'),
    ]

    operations = [
        migrations.RunSQL(FORGET_STORED_LINES, reverse_sql=migrations.RunSQL.noop),
        migrations.RemoveField(model_name='exportline', name='segment_digest'),
        migrations.AddField(
            model_name='exportline',
            name='segment_digest',
            field=models.BigIntegerField(default=0, help_text="a 64-bit hash of the segment's exported columns when the line was worded"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='exportline',
            name='position',
            field=models.IntegerField(default=0, help_text="the line's place in the export's order (apps.tiering.export_store)"),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name='exportline',
            constraint=models.UniqueConstraint(fields=('run', 'position'), name='exportline_run_position_uniq'),
        ),
    ]
