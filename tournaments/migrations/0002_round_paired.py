"""Rounds paired at the previous round's end (a `paired` state for rounds and their
pairings, `Round.paired_at`, `started_at` empty until the start) and the closing
notice's mark (docs/tournaments.md)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="paired_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="paired at"),
        ),
        migrations.AlterField(
            model_name="round",
            name="started_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="started at"),
        ),
        migrations.AlterField(
            model_name="round",
            name="state",
            field=models.CharField(
                choices=[("paired", "Paired"), ("playing", "Playing"), ("finished", "Finished")],
                default="playing",
                max_length=16,
                verbose_name="state",
            ),
        ),
        migrations.AlterField(
            model_name="pairing",
            name="state",
            field=models.CharField(
                choices=[
                    ("paired", "Waiting for the start"),
                    ("playing", "Playing"),
                    ("finished", "Finished"),
                ],
                default="playing",
                max_length=16,
                verbose_name="state",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="closing_noticed_at",
            field=models.DateTimeField(
                blank=True, null=True, verbose_name="closing notice sent at"
            ),
        ),
    ]
