# The rows a move rewrites (match, table, seats) update in place: no index on a
# column a move writes, and free room left in each page for the new row version.

from django.db import migrations, models

HOT_TABLES = ("games_match", "games_table", "games_seat")
FILLFACTOR = 80


def set_fillfactor(apps, schema_editor, value=FILLFACTOR):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in HOT_TABLES:
        schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {int(value)})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in HOT_TABLES:
        schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0002_seat_seen_at"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="match",
            name="games_match_status_142827_idx",
        ),
        migrations.AddIndex(
            model_name="match",
            index=models.Index(fields=["status"], name="games_match_status_idx"),
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
