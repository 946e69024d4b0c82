"""`manage.py grant_app_role ROLE`: let the application's role use the tables, nothing more.

Run as the tables' owner right after `migrate` (compose's migrate step and
.ci/run do); see cuatrola_site/database_roles.py and docs/operations.md.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import DEFAULT_DB_ALIAS, connections

from cuatrola_site.database_roles import AppRoleRefused, app_role_grant


class Command(BaseCommand):
    help = "Grant the application's PostgreSQL role row access to every table (run as owner)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("role", help="the role web, worker and beat connect as")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS)

    def handle(self, *args: Any, role: str, database: str, **options: Any) -> None:
        try:
            app_role_grant(connection=connections[database], role=role)
        except AppRoleRefused as error:
            raise CommandError(str(error)) from None
        self.stdout.write(f"{role} may read and write rows; it owns nothing.")
