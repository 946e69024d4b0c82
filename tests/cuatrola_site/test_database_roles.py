"""The application's PostgreSQL role: the ledger's triggers hold for it.

Migrations run as the tables' owner (here the test database's owner); web,
worker and beat connect as a role `grant_app_role` gave row access and nothing
else. Each test connects as that role, as the application does, and tries what
a bug or an intruder with its password would.
"""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import psycopg
import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from psycopg import errors

from economy import services
from economy.models import Account, AccountKind, Transaction

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app_role() -> str:
    # Roles belong to the cluster: one per test database, so parallel runs do not meet.
    role = f"{connection.settings_dict['NAME']}_app"[:63]
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", [role])
        if cursor.fetchone() is None:
            cursor.execute(f"CREATE ROLE {connection.ops.quote_name(role)} LOGIN")
    call_command("grant_app_role", role, stdout=StringIO())
    return role


def connect_as(role: str) -> psycopg.Connection:
    database = connection.settings_dict
    return psycopg.connect(
        host=database["HOST"] or "127.0.0.1",
        port=database["PORT"] or 5432,
        dbname=database["NAME"],
        user=role,
        password=database.get("PASSWORD") or None,
        autocommit=True,
    )


def refused(app: psycopg.Connection, statement: str, params=()) -> psycopg.Error:
    with pytest.raises(psycopg.Error) as error, app.transaction():
        app.execute(statement, params)
    return error.value


def test_the_application_role_cannot_switch_the_ledger_triggers_off(app_role):
    with connect_as(app_role) as app:
        for statement in (
            "ALTER TABLE economy_entry DISABLE TRIGGER ALL",
            "ALTER TABLE economy_account DISABLE TRIGGER economy_escrow_final",
            "DROP TRIGGER economy_entry_sealed ON economy_entry",
            "SET session_replication_role = replica",
            "TRUNCATE economy_entry",
        ):
            assert isinstance(refused(app, statement), errors.InsufficientPrivilege), statement


def test_for_the_application_role_committed_history_is_sealed(app_role, player):
    signup = Transaction.objects.get(idempotency_key=f"signup:{player.pk}")
    coins = Account.objects.get(kind=AccountKind.USER, user=player, currency="coins")
    issuance = Account.objects.get(kind=AccountKind.ISSUANCE, currency="coins")
    with connect_as(app_role) as app:
        error = refused(
            app,
            "INSERT INTO economy_entry (transaction_id, account_id, amount)"
            " VALUES (%s, %s, 500), (%s, %s, -500)",
            [signup.pk, coins.pk, signup.pk, issuance.pk],
        )
        assert "sealed" in str(error)
        assert "immutable" in str(
            refused(
                app, "UPDATE economy_entry SET amount = 5000 WHERE transaction_id = %s", [signup.pk]
            )
        )
        assert "immutable" in str(
            refused(app, "DELETE FROM economy_transaction WHERE id = %s", [signup.pk])
        )
    coins.refresh_from_db()
    assert coins.balance == 1000


def test_for_the_application_role_a_settled_escrow_is_final(app_role, player):
    services.stake_place(user=player, table_id=41, amount=100)
    services.pot_pay_out(table_id=41, winners=[player])
    escrow = Account.objects.get(kind=AccountKind.ESCROW, table_id=41)
    with connect_as(app_role) as app:
        error = refused(
            app, "UPDATE economy_account SET settled_at = NULL WHERE id = %s", [escrow.pk]
        )
        assert "settled and final" in str(error)
    escrow.refresh_from_db()
    assert escrow.settled_at is not None


def test_the_application_works_as_its_role(app_role, player):
    database = connection.settings_dict
    url = (
        f"postgres://{app_role}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
        f"/{database['NAME']}"
    )
    script = (
        "from accounts.models import User; from economy.services import ledger_grant; "
        "ledger_grant(user=User.objects.get(username='ana'), amount=7, idempotency_key='as-app')"
    )
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": url}
    env.pop("REDIS_URL", None)
    for command in (["shell", "-c", script], ["audit_ledger"]):
        result = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert result.returncode == 0, result.stderr
    assert Transaction.objects.filter(idempotency_key="as-app").exists()


def test_a_superuser_or_the_owner_is_refused_as_the_application_role():
    with connection.cursor() as cursor:
        cursor.execute("SELECT current_user")
        (owner,) = cursor.fetchone()
    with pytest.raises(CommandError, match="owns no tables"):
        call_command("grant_app_role", owner)
    with pytest.raises(CommandError, match="does not exist"):
        call_command("grant_app_role", "no_such_role_h19")
