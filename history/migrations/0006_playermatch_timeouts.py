"""A player's timed-out turns on each recorded match (the reputation's second figure,
docs/fairplay.md), and the reputation's index (user, outcome, timeouts) in place of
(user, outcome). The column has a constant default, so adding it rewrites nothing;
on PostgreSQL the index is built and the old one dropped concurrently (matches keep
being recorded meanwhile), elsewhere as usual."""

from django.conf import settings
from django.db import migrations, models

NEW = models.Index(fields=["user", "outcome", "timeouts"], name="history_pm_user_reput")
OLD = models.Index(fields=["user", "outcome"], name="history_pm_user_outcome")


def _swap(apps, schema_editor, add: models.Index, drop: models.Index) -> None:
    model = apps.get_model("history", "PlayerMatch")
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.add_index(model, add, concurrently=True)
        schema_editor.remove_index(model, drop, concurrently=True)
    else:
        schema_editor.add_index(model, add)
        schema_editor.remove_index(model, drop)


def forwards(apps, schema_editor):
    _swap(apps, schema_editor, NEW, OLD)


def backwards(apps, schema_editor):
    _swap(apps, schema_editor, OLD, NEW)


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0014_seat_on_time_match_seat_timeouts"),
        ("history", "0005_playermatch_mode_daily"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="playermatch",
            name="timeouts",
            field=models.PositiveSmallIntegerField(db_default=0, default=0),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveIndex(model_name="playermatch", name="history_pm_user_outcome"),
                migrations.AddIndex(model_name="playermatch", index=NEW),
            ],
            database_operations=[migrations.RunPython(forwards, backwards, elidable=False)],
        ),
    ]
