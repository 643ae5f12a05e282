from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tiering', '0014_recommendation_run_figures_and_sort_key_indexes'),
    ]

    operations = [
        migrations.AddIndex(
            model_name='recommendation',
            index=models.Index(condition=models.Q(('folded_into__isnull', False)), fields=['run', 'folded_into'], name='reco_folded_into_idx'),
        ),
    ]
