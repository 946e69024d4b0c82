"""On PostgreSQL, the history page's index (user, newest first) also carries the
columns the filters read, so a filtered history is counted and paged by an index-only
scan of the player's range. Rebuilt concurrently (matches keep being recorded while it
builds) under the same name, so the models' state is unchanged; SQLite has no INCLUDE
and keeps the plain index."""

from django.db import migrations

NAME = "history_pm_user_finished"
KEY = "user_id, finished_at DESC, match_id DESC"
INCLUDE = "mode, rules, outcome, partner_id, opponent_1_id, opponent_2_id"


def _rebuild(schema_editor, include: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in (
        "DROP INDEX CONCURRENTLY IF EXISTS history_pm_user_finished_new",
        f"CREATE INDEX CONCURRENTLY history_pm_user_finished_new ON history_playermatch ({KEY})"
        + (f" INCLUDE ({include})" if include else ""),
        f"DROP INDEX CONCURRENTLY IF EXISTS {NAME}",
        f"ALTER INDEX history_pm_user_finished_new RENAME TO {NAME}",
    ):
        schema_editor.execute(sql)


def forwards(apps, schema_editor):
    _rebuild(schema_editor, INCLUDE)


def backwards(apps, schema_editor):
    _rebuild(schema_editor, "")


class Migration(migrations.Migration):
    atomic = False

    dependencies = [("history", "0002_backfill_player_matches")]

    operations = [migrations.RunPython(forwards, backwards, elidable=False)]
