"""The application's PostgreSQL role: it reads and writes rows and owns nothing.

Migrations run as the role that owns the tables (and their triggers). The web,
worker and beat processes connect as another role, granted here: SELECT,
INSERT, UPDATE and DELETE on the tables and use of their sequences, nothing
more. Not being the owner it cannot ALTER a table (DISABLE TRIGGER, DROP
TRIGGER), it has no TRUNCATE (which row triggers do not see), and not being a
superuser it cannot SET session_replication_role: the ledger's triggers hold
for it (docs/operations.md, "Database roles").
"""

from __future__ import annotations

from django.db.backends.base.base import BaseDatabaseWrapper


class AppRoleRefused(ValueError):
    """The role named for the application could switch the ledger's triggers off."""


def app_role_grant(*, connection: BaseDatabaseWrapper, role: str) -> None:
    """Grant `role` row access to every table of the current schema, now and later.

    Run as the tables' owner (after `migrate`); running it again changes nothing.
    Refuses a role that is a superuser, the owner itself, or owns any table.
    """
    if connection.vendor != "postgresql":
        raise AppRoleRefused("database roles are a PostgreSQL feature")
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT rolsuper, rolbypassrls, rolname = current_user,"
            " EXISTS (SELECT 1 FROM pg_tables WHERE tableowner = rolname)"
            " FROM pg_roles WHERE rolname = %s",
            [role],
        )
        row = cursor.fetchone()
        if row is None:
            raise AppRoleRefused(f"role {role!r} does not exist (create it first)")
        superuser, bypass, is_me, owns = row
        if superuser or bypass or is_me or owns:
            raise AppRoleRefused(
                f"role {role!r} must be an ordinary role that owns no tables,"
                " not a superuser and not the owner that runs migrations"
            )
        name = connection.ops.quote_name(role)
        cursor.execute("SELECT current_schema()")
        schema = connection.ops.quote_name(cursor.fetchone()[0])
        for statement in (
            "GRANT USAGE ON SCHEMA {schema} TO {role}",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA {schema} TO {role}",
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA {schema} TO {role}",
            # Tables and sequences the owner creates in later migrations too.
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {schema}"
            " GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO {role}",
            "ALTER DEFAULT PRIVILEGES IN SCHEMA {schema}"
            " GRANT USAGE, SELECT ON SEQUENCES TO {role}",
        ):
            cursor.execute(statement.format(schema=schema, role=name))
