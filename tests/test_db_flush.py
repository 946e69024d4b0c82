"""tests/db_flush.py: after a transactional test, the test database is left as Django's
flush leaves it: every table empty but the rows post_migrate writes."""

from __future__ import annotations

import threading
import time

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.db import connection, connections, transaction

from economy.services.grants import signup_bonus_grant
from games import services
from tests import db_flush

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

LEDGER = {"economy_account", "economy_entry", "economy_transaction"}


def _filled() -> set[str]:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        filled = set()
        for table in connection.introspection.django_table_names(only_existing=True):
            cursor.execute(f"SELECT EXISTS (SELECT 1 FROM {quote(table)})")
            if cursor.fetchone()[0]:
                filled.add(table)
        return filled


def _kept_rows() -> dict[str, list[tuple]]:
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        rows = {}
        for table in db_flush.KEPT_TABLES:
            cursor.execute(f"SELECT * FROM {quote(table)} ORDER BY 1")
            rows[table] = cursor.fetchall()
        return rows


def test_the_kept_tables_are_the_ones_djangos_flush_fills_again():
    call_command("flush", verbosity=0, interactive=False)
    assert _filled() == set(db_flush.KEPT_TABLES)


def test_every_table_is_emptied_but_the_kept_rows_stay_as_they_were(make_user):
    kept = _kept_rows()
    user = make_user("ana")
    user.user_permissions.add(Permission.objects.first())
    signup_bonus_grant(user=user)  # the ledger's rows refuse DELETE: TRUNCATEd
    services.table_create_practice(user=user, rules="online", bot_level="easy")
    assert LEDGER | {"accounts_user", "games_table", "games_match"} <= _filled()

    db_flush.empty()

    assert _filled() == set(db_flush.KEPT_TABLES)
    assert _kept_rows() == kept


def test_changed_kept_rows_are_written_again_by_djangos_flush(make_user, monkeypatch):
    Group.objects.filter(name="moderators").update(name="renamed")
    Group.objects.create(name="extra")

    db_flush.empty()

    assert set(Group.objects.values_list("name", flat=True)) == {"moderators", "finance"}
    assert _filled() == set(db_flush.KEPT_TABLES)
    # Those rows, written again, are the ones kept from now on: Django's flush is not
    # needed for the next test.
    monkeypatch.setattr(db_flush, "_django_flush", pytest.fail)
    make_user("bea")
    db_flush.empty()
    assert _filled() == set(db_flush.KEPT_TABLES)


def test_a_row_still_being_written_as_the_test_ends_is_waited_for_and_emptied():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        flusher = cursor.fetchone()[0]
    written = threading.Event()

    def write_late() -> None:
        try:
            with transaction.atomic():
                get_user_model().objects.create(username="late")
                written.set()
                _wait_until_waiting_on_a_lock(flusher)  # then it commits
        finally:
            connections.close_all()

    writer = threading.Thread(target=write_late)
    writer.start()
    assert written.wait(timeout=30)
    db_flush.empty()  # waits for the writer's commit, then deletes its row
    writer.join()
    assert _filled() == set(db_flush.KEPT_TABLES)


def _wait_until_waiting_on_a_lock(pid: int, timeout: float = 30) -> None:
    """Until PostgreSQL backend `pid` waits for a lock (or `timeout` seconds pass: a
    flush that never waits leaves the late row behind, and the test says so)."""
    deadline = time.monotonic() + timeout
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)", [pid]
            )
            if cursor.fetchone()[0]:
                return
            time.sleep(0.02)
