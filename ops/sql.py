"""Prepared statements on PostgreSQL, for the few hot paths that ask for one.

Django binds its own queries client-side and never prepares them, so PostgreSQL
plans each statement every time; for short statements run on every move or every
settlement, the planning costs more than the work. `run_prepared` runs a statement
(with `$n` placeholders) on the connection's own psycopg connection, inside the
caller's transaction, prepared on its first use on that connection and its plan
reused after (unless prepared statements are off: DATABASE_PREPARED_STATEMENTS=0,
behind a pooler that does not keep them).
"""

from __future__ import annotations

import time
from typing import Any

from django.db import connection
from psycopg import RawCursor


def run_prepared(sql: str, params: tuple[Any, ...], *, at_once: bool = True) -> RawCursor[Any]:
    """Runs `sql` as a prepared statement and returns its cursor; logged as Django's
    cursors log statements when queries are logged (DEBUG, tests).

    `at_once`: prepared at its first use (a statement every move runs); otherwise
    run unprepared until its fifth use on the connection (`prepare_threshold`),
    for a statement a connection may run only once or twice before it closes
    (preparing costs a round trip of its own)."""
    connection.validate_no_broken_transaction()
    connection.ensure_connection()
    started = time.monotonic()
    with connection.wrap_database_errors:
        cursor = RawCursor(connection.connection)
        cursor.execute(sql, params, prepare=True)
    if connection.queries_logged:
        connection.queries_log.append({"sql": sql, "time": f"{time.monotonic() - started:.3f}"})
    return cursor
