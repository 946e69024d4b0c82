"""The database itself refuses what would break the ledger, whatever the code does."""

import pytest
from django.db import DatabaseError, IntegrityError, connection, transaction

from economy.models import Account, AccountKind, Entry, Transaction


def _sql(statement: str, params=()) -> None:
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)


def _coin_account(user) -> Account:
    return Account.objects.get(kind=AccountKind.USER, user=user, currency="coins")


def _issuance() -> Account:
    return Account.objects.get(kind=AccountKind.ISSUANCE, currency="coins")


def _new_transaction(key: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO economy_transaction (idempotency_key, kind, memo, created_at)"
            " VALUES (%s, 'grant', '', CURRENT_TIMESTAMP) RETURNING id",
            [key],
        )
        return cursor.fetchone()[0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
class TestPostgreSQLRefuses:
    def test_a_balance_cannot_be_set_negative(self, player):
        with pytest.raises(IntegrityError, match="balance_not_negative"):
            _sql(
                "UPDATE economy_account SET balance = -1 WHERE id = %s", [_coin_account(player).pk]
            )

    def test_an_entry_that_overdraws_a_user_is_refused(self, player):
        account, issuance = _coin_account(player), _issuance()
        with pytest.raises(IntegrityError, match="balance_not_negative"), transaction.atomic():
            txn = _new_transaction("overdraw")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, -1001), (%s, %s, 1001)",
                    [txn, account.pk, txn, issuance.pk],
                )
        assert _coin_account(player).balance == 1000

    def test_an_unbalanced_transaction_is_refused_at_commit(self, player):
        account = _coin_account(player)
        with pytest.raises(IntegrityError, match="not balanced"), transaction.atomic():
            txn = _new_transaction("unbalanced")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, 500)",
                    [txn, account.pk],
                )
        assert not Transaction.objects.filter(idempotency_key="unbalanced").exists()
        assert _coin_account(player).balance == 1000

    def test_balanced_in_one_currency_but_not_the_other_is_refused(self, player):
        coins = _coin_account(player)
        xp = Account.objects.get(kind=AccountKind.USER, user=player, currency="xp")
        with pytest.raises(IntegrityError, match="not balanced"), transaction.atomic():
            txn = _new_transaction("cross-currency")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, -10), (%s, %s, 10)",
                    [txn, coins.pk, txn, xp.pk],
                )

    def test_a_transaction_without_entries_is_refused_at_commit(self, player):
        with pytest.raises(IntegrityError, match="no entries"), transaction.atomic():
            _new_transaction("empty")

    def test_a_zero_amount_entry_is_refused(self, player):
        account, issuance = _coin_account(player), _issuance()
        with pytest.raises(IntegrityError, match="amount_not_zero"), transaction.atomic():
            txn = _new_transaction("zero")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, 0), (%s, %s, 0)",
                    [txn, account.pk, txn, issuance.pk],
                )

    def test_an_entry_cannot_be_edited(self, player):
        entry = Entry.objects.filter(account__user=player).first()
        with pytest.raises(IntegrityError, match="immutable"):
            _sql("UPDATE economy_entry SET amount = 5000 WHERE id = %s", [entry.pk])
        entry.refresh_from_db()
        assert entry.amount == 1000

    def test_an_entry_cannot_be_deleted(self, player):
        entry = Entry.objects.filter(account__user=player).first()
        with pytest.raises(IntegrityError, match="immutable"):
            _sql("DELETE FROM economy_entry WHERE id = %s", [entry.pk])
        assert Entry.objects.filter(pk=entry.pk).exists()

    def test_a_transaction_cannot_be_edited_or_deleted(self, player):
        txn = Transaction.objects.get(idempotency_key=f"signup:{player.pk}")
        with pytest.raises(IntegrityError, match="immutable"):
            _sql("UPDATE economy_transaction SET memo = 'x' WHERE id = %s", [txn.pk])
        with pytest.raises(IntegrityError, match="immutable"):
            _sql("DELETE FROM economy_transaction WHERE id = %s", [txn.pk])

    def test_a_balanced_raw_transaction_is_accepted_and_moves_the_cached_balance(self, player):
        account, issuance = _coin_account(player), _issuance()
        with transaction.atomic():
            txn = _new_transaction("fine")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, 5), (%s, %s, -5)",
                    [txn, account.pk, txn, issuance.pk],
                )
        assert _coin_account(player).balance == 1005

    def test_a_balanced_pair_added_later_to_a_committed_transaction_is_refused(self, player):
        signup = Transaction.objects.get(idempotency_key=f"signup:{player.pk}")
        account, issuance = _coin_account(player), _issuance()
        with pytest.raises(IntegrityError, match="sealed"):
            _sql(
                "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                " VALUES (%s, %s, 500), (%s, %s, -500)",
                [signup.pk, account.pk, signup.pk, issuance.pk],
            )
        assert _coin_account(player).balance == 1000
        assert Entry.objects.filter(transaction=signup).count() == 2

    def test_entries_added_in_a_savepoint_of_the_transaction_that_opened_it_are_accepted(
        self, player
    ):
        account, issuance = _coin_account(player), _issuance()
        with transaction.atomic():
            txn = _new_transaction("savepoint")
            with transaction.atomic(), connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, 3), (%s, %s, -3)",
                    [txn, account.pk, txn, issuance.pk],
                )
        assert _coin_account(player).balance == 1003

    def test_a_settled_escrow_cannot_be_reopened_so_no_stake_gets_in(self, make_user):
        from economy import services
        from economy.errors import EscrowSettled

        a, b = make_user("ea"), make_user("eb")
        services.stake_place(user=a, table_id=31, amount=100)
        services.pot_pay_out(table_id=31, winners=[a])
        escrow = Account.objects.get(kind=AccountKind.ESCROW, table_id=31)
        with pytest.raises(IntegrityError, match="settled and final"):
            _sql("UPDATE economy_account SET settled_at = NULL WHERE id = %s", [escrow.pk])
        with pytest.raises(IntegrityError, match="settled and final"):
            _sql("DELETE FROM economy_account WHERE id = %s", [escrow.pk])
        with pytest.raises(EscrowSettled):
            services.stake_place(user=b, table_id=31, amount=100)
        escrow.refresh_from_db()
        assert escrow.settled_at is not None and escrow.balance == 0

    def test_an_entry_into_a_settled_escrow_is_refused(self, player):
        from economy import services

        services.stake_place(user=player, table_id=32, amount=100)
        services.stake_refund(table_id=32)
        escrow = Account.objects.get(kind=AccountKind.ESCROW, table_id=32)
        with pytest.raises(IntegrityError, match="settled and final"), transaction.atomic():
            txn = _new_transaction("into-settled")
            with connection.cursor() as cursor:
                cursor.execute(
                    "INSERT INTO economy_entry (transaction_id, account_id, amount)"
                    " VALUES (%s, %s, 50), (%s, %s, -50)",
                    [txn, escrow.pk, txn, _issuance().pk],
                )


@pytest.mark.django_db
class TestEveryDatabaseRefuses:
    """What the embedded SQLite default enforces too (and PostgreSQL, of course)."""

    def test_entries_are_immutable(self, player):
        entry = Entry.objects.filter(account__user=player).first()
        with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
            Entry.objects.filter(pk=entry.pk).update(amount=7)
        with pytest.raises(DatabaseError, match="immutable"), transaction.atomic():
            Entry.objects.filter(pk=entry.pk).delete()

    def test_a_negative_cached_balance_is_refused(self, player):
        with pytest.raises(IntegrityError), transaction.atomic():
            Account.objects.filter(pk=_coin_account(player).pk).update(balance=-1)

    def test_a_zero_entry_is_refused(self, player):
        txn = Transaction.objects.get(idempotency_key=f"signup:{player.pk}")
        with pytest.raises(IntegrityError), transaction.atomic():
            Entry.objects.create(transaction=txn, account=_coin_account(player), amount=0)

    def test_a_settled_escrow_is_final(self, player):
        from economy import services

        services.stake_place(user=player, table_id=33, amount=100)
        services.stake_refund(table_id=33)
        escrow = Account.objects.filter(kind=AccountKind.ESCROW, table_id=33)
        with pytest.raises(DatabaseError, match="settled and final"), transaction.atomic():
            escrow.update(settled_at=None)
        with pytest.raises(DatabaseError, match="settled and final"), transaction.atomic():
            escrow.update(balance=100)
        assert escrow.get().settled_at is not None
