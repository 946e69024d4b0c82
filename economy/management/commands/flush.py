"""Django's flush, able to empty the ledger on SQLite.

On SQLite flush empties tables with DELETE, which the ledger's immutability
triggers refuse. Wiping the whole database (tests between transactional cases,
`manage.py flush`) is the one legitimate delete, so on SQLite this drops the
economy triggers, flushes and recreates them exactly as they were.
PostgreSQL flushes with TRUNCATE, which row triggers do not see.
"""

from typing import Any

from django.core.management.commands.flush import Command as FlushCommand
from django.db import DEFAULT_DB_ALIAS, connections


class Command(FlushCommand):
    def handle(self, **options: Any) -> None:
        connection = connections[options.get("database") or DEFAULT_DB_ALIAS]
        if connection.vendor != "sqlite":
            return super().handle(**options)
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master"
                " WHERE type = 'trigger' AND name LIKE 'economy_%'"
            )
            triggers = cursor.fetchall()
            for name, _sql in triggers:
                cursor.execute(f'DROP TRIGGER "{name}"')
        try:
            return super().handle(**options)
        finally:
            with connection.cursor() as cursor:
                for _name, sql in triggers:
                    cursor.execute(sql)
