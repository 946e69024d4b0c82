"""manage.py audit_ledger: passes on a sound ledger, fails loudly on any violation."""

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from economy import services
from economy.models import Account, AccountKind

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def audit() -> str:
    out = StringIO()
    call_command("audit_ledger", stdout=out, stderr=out)
    return out.getvalue()


def test_a_sound_ledger_passes(player, stranger):
    services.stake_place(user=player, table_id=1, amount=100)
    services.stake_place(user=stranger, table_id=1, amount=100)
    services.pot_pay_out(table_id=1, winners=[player])
    assert "ledger audit passed" in audit()


def test_a_cached_balance_that_disagrees_with_its_entries_fails(player):
    # The database allows a positive cache edit; the audit is what catches it.
    Account.objects.filter(kind=AccountKind.USER, user=player, currency="coins").update(
        balance=1001
    )
    with pytest.raises(CommandError, match="violation"):
        audit()


def test_a_settled_escrow_that_still_holds_coins_fails(player):
    services.stake_place(user=player, table_id=2, amount=100)
    Account.objects.filter(kind=AccountKind.ESCROW, table_id=2).update(
        settled_at="2026-01-01T00:00Z"
    )
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("audit_ledger", stdout=out, stderr=out)
    assert "settled but still holds 100" in out.getvalue()


def test_an_unbalanced_transaction_fails_the_audit(player):
    account = Account.objects.get(kind=AccountKind.USER, user=player, currency="coins")
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            # PostgreSQL refuses this itself (see the constraints tests); with its
            # triggers off, as a careless restore would leave them, the audit must
            # still find the damage.
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(
            "INSERT INTO economy_transaction (idempotency_key, kind, memo, created_at)"
            " VALUES ('bad', 'grant', '', CURRENT_TIMESTAMP)"
        )
        cursor.execute("SELECT id FROM economy_transaction WHERE idempotency_key = 'bad'")
        (txn,) = cursor.fetchone()
        cursor.execute(
            "INSERT INTO economy_entry (transaction_id, account_id, amount) VALUES (%s, %s, 7)",
            [txn, account.pk],
        )
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("audit_ledger", stdout=out, stderr=out)
    assert f"transaction {txn} is off by 7 coins" in out.getvalue()
    assert "issuance issued" in out.getvalue()


def _manage_audit() -> subprocess.CompletedProcess:
    """Run `manage.py audit_ledger` in another process against this test database."""
    db = connection.settings_dict
    url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    env = {**os.environ, "DATABASE_URL": url, "DEBUG": "1"}
    return subprocess.run(
        [sys.executable, "manage.py", "audit_ledger"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_command_exits_zero_when_sound_and_one_on_a_violation(player):
    passed = _manage_audit()
    assert passed.returncode == 0, passed.stderr
    assert "ledger audit passed" in passed.stdout
    Account.objects.filter(kind=AccountKind.USER, user=player, currency="coins").update(balance=5)
    failed = _manage_audit()
    assert failed.returncode == 1
    assert "caches 5 but its entries sum to 1000" in failed.stderr
