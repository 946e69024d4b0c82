"""The staff's live view counts the last hour's moves and finished matches by time.

On PostgreSQL the indexes are built CONCURRENTLY (moves keep being written while the
move log's index is built); elsewhere (SQLite, the embedded default) plainly."""

from django.db import migrations, models

INDEXES = (
    ("games_match", "games_match_finished_idx", "finished_at"),
    ("games_matchaction", "games_action_created_idx", "created_at"),
)


def create(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for table, name, column in INDEXES:
        schema_editor.execute(
            f"CREATE INDEX {concurrently}IF NOT EXISTS {name} ON {table} ({column})"
        )


def drop(apps, schema_editor):
    concurrently = "CONCURRENTLY " if schema_editor.connection.vendor == "postgresql" else ""
    for _, name, _ in INDEXES:
        schema_editor.execute(f"DROP INDEX {concurrently}IF EXISTS {name}")


class Migration(migrations.Migration):
    atomic = False  # CREATE INDEX CONCURRENTLY cannot run in a transaction

    dependencies = [
        ("games", "0009_position_practice"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddIndex(
                    model_name="match",
                    index=models.Index(fields=["finished_at"], name="games_match_finished_idx"),
                ),
                migrations.AddIndex(
                    model_name="matchaction",
                    index=models.Index(fields=["created_at"], name="games_action_created_idx"),
                ),
            ],
            database_operations=[migrations.RunPython(create, drop)],
        ),
    ]
