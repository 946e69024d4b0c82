"""Emptying the test database after a transactional test, quicker than Django's flush.

Django's flush (the teardown of every `transactional_db` test: some 800 of them)
TRUNCATEs all of the site's tables in one statement, then emits post_migrate, which
writes the content types, permissions and staff groups again. On PostgreSQL that took
0.4 s a test, a third of the suite's time: a TRUNCATE costs per table named, empty or
not, and post_migrate rewrites hundreds of rows.

Here, on PostgreSQL, one query finds the tables that hold rows; only those are emptied:
by DELETE, or by TRUNCATE for the tables that refuse DELETE (the ledger's, by trigger)
and the tables referring to them. The rows post_migrate writes (KEPT_TABLES) stay as
they were; where a test changed them, Django's own flush runs instead. So the database
left is the one Django's flush leaves, but for the ids of the rows post_migrate would
have written again. Other databases, and a test case that names its `available_apps`
or asks for a serialized rollback, keep Django's flush.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.management import call_command
from django.db import connections, transaction
from django.test import TransactionTestCase

# The tables post_migrate fills (contenttypes, auth, accounts.groups' staff groups):
# tests/test_db_flush.py holds this to what Django's flush leaves.
KEPT_TABLES = ("auth_group", "auth_group_permissions", "auth_permission", "django_content_type")

# The tables with a DELETE trigger of the site's own (tgtype's bit 8), which may refuse.
_DELETE_REFUSED_SQL = """
SELECT DISTINCT tgrelid::regclass::text FROM pg_trigger
WHERE NOT tgisinternal AND tgtype & 8 = 8
"""
_REFERENCES_SQL = """
SELECT conrelid::regclass::text, confrelid::regclass::text FROM pg_constraint
WHERE contype = 'f'
"""


@dataclass
class _Plan:
    """What one database needs to be emptied (read once, after its set-up)."""

    lock_sql: str  # every table, locked against writers
    survey_sql: str  # the names of the tables that hold rows
    digest_sql: str  # one text that changes when the kept rows change
    truncated: set[str]  # the tables emptied by TRUNCATE
    digest: str = ""


_plans: dict[str, _Plan] = {}


def remember(alias: str = "default") -> None:
    """Reads database `alias` as its set-up left it (migrated, post_migrate run)."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        return
    quote = connection.ops.quote_name
    tables = sorted(connection.introspection.django_table_names(only_existing=True))
    with connection.cursor() as cursor:
        cursor.execute(_DELETE_REFUSED_SQL)
        refusing = {row[0] for row in cursor.fetchall()} & set(tables)
        cursor.execute(_REFERENCES_SQL)
        references = cursor.fetchall()
    # A table TRUNCATEd must be named with every table that refers to it.
    truncated = set(refusing)
    while True:
        more = {child for child, parent in references if parent in truncated} - truncated
        if not more:
            break
        truncated |= more
    emptied = [table for table in tables if table not in KEPT_TABLES]
    survey = " UNION ALL ".join(
        f"SELECT '{table}' WHERE EXISTS (SELECT 1 FROM {quote(table)})" for table in emptied
    )
    kept = ", ".join(
        f"(SELECT string_agg(r::text, ',' ORDER BY r::text) FROM {quote(table)} r)"
        for table in KEPT_TABLES
    )
    plan = _Plan(
        lock_sql=f"LOCK TABLE {', '.join(quote(t) for t in tables)} IN SHARE ROW EXCLUSIVE MODE",
        survey_sql=survey,
        digest_sql=f"SELECT md5(concat_ws('/', {kept}))",
        truncated=truncated,
    )
    plan.digest = _digest(connection, plan)
    _plans[alias] = plan


def _digest(connection: Any, plan: _Plan) -> str:
    with connection.cursor() as cursor:
        cursor.execute(plan.digest_sql)
        return cursor.fetchone()[0]


def empty(alias: str = "default") -> None:
    """Empties database `alias` as Django's flush does (see the module's docstring)."""
    plan = _plans.get(alias)
    if plan is None:
        _django_flush(alias)
        return
    connection = connections[alias]
    quote = connection.ops.quote_name
    with transaction.atomic(using=alias), connection.cursor() as cursor:
        # As a TRUNCATE would, it waits for whatever still writes (a thread of the
        # test that is ending) and holds off any writer until it has done: nothing
        # written meanwhile is left behind.
        cursor.execute(plan.lock_sql)
        if _digest(connection, plan) != plan.digest:
            _django_flush(alias)  # the kept rows changed: post_migrate writes them again
            plan.digest = _digest(connection, plan)
            return
        cursor.execute(plan.survey_sql)
        filled = [row[0] for row in cursor.fetchall()]
        if any(table in plan.truncated for table in filled):
            # Those refusing DELETE, with the tables that refer to them, empty or not.
            named = ", ".join(quote(table) for table in sorted(plan.truncated))
            cursor.execute(f"TRUNCATE {named}")
        # The site's foreign keys are deferrable: checked once, at the commit.
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        for table in filled:
            if table not in plan.truncated:
                cursor.execute(f"DELETE FROM {quote(table)}")


def _django_flush(alias: str) -> None:
    call_command("flush", verbosity=0, interactive=False, database=alias, reset_sequences=False)


_djangos_teardown = TransactionTestCase._fixture_teardown


def _fixture_teardown(self: TransactionTestCase) -> None:
    if self.available_apps is not None or self.serialized_rollback:
        _djangos_teardown(self)
        return
    for alias in self._databases_names(include_mirrors=False):
        empty(alias)


def install() -> None:
    """Every transactional test's teardown empties its databases with `empty`."""
    TransactionTestCase._fixture_teardown = _fixture_teardown  # type: ignore[method-assign]
