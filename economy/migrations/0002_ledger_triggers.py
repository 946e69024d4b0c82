"""What the database enforces on the ledger, beyond the CHECK constraints of 0001.

PostgreSQL:
- an AFTER INSERT trigger on entries moves the cached balance of user/escrow
  accounts in the same transaction (the CHECK on economy_account then refuses
  any entry that would make such a balance negative);
- entries and transactions refuse UPDATE and DELETE (TRUNCATE, used only to wipe
  a test database, is not a row operation);
- DEFERRABLE INITIALLY DEFERRED constraint triggers refuse, at commit, a
  transaction whose entries do not sum to zero per currency or that has none.

SQLite (the embedded default) gets the same balance trigger and the
UPDATE/DELETE refusals; it has no deferred triggers, so there balance per
transaction rests on economy.services and manage.py audit_ledger. Note that
SQLite drops a table's triggers when a migration rebuilds the table: a later
migration that alters economy_entry/economy_transaction must recreate them.
"""

from django.db import migrations

PG_FORWARD = r"""
CREATE FUNCTION economy_entry_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE economy_account SET balance = balance + NEW.amount
     WHERE id = NEW.account_id AND balance IS NOT NULL;
    RETURN NULL;
END $$;
CREATE TRIGGER economy_entry_apply AFTER INSERT ON economy_entry
    FOR EACH ROW EXECUTE FUNCTION economy_entry_apply();

CREATE FUNCTION economy_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'ledger rows are immutable: % on % refused', TG_OP, TG_TABLE_NAME
        USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER economy_entry_immutable BEFORE UPDATE OR DELETE ON economy_entry
    FOR EACH ROW EXECUTE FUNCTION economy_refuse_change();
CREATE TRIGGER economy_transaction_immutable BEFORE UPDATE OR DELETE ON economy_transaction
    FOR EACH ROW EXECUTE FUNCTION economy_refuse_change();

CREATE FUNCTION economy_check_balanced(txn bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM economy_entry WHERE transaction_id = txn) THEN
        RAISE EXCEPTION 'ledger transaction % has no entries', txn
            USING ERRCODE = 'check_violation';
    END IF;
    IF EXISTS (
        SELECT 1 FROM economy_entry e JOIN economy_account a ON a.id = e.account_id
         WHERE e.transaction_id = txn
         GROUP BY a.currency HAVING sum(e.amount) <> 0
    ) THEN
        RAISE EXCEPTION 'ledger transaction % is not balanced per currency', txn
            USING ERRCODE = 'check_violation';
    END IF;
END $$;
CREATE FUNCTION economy_entry_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM economy_check_balanced(NEW.transaction_id);
    RETURN NULL;
END $$;
CREATE FUNCTION economy_transaction_balanced() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM economy_check_balanced(NEW.id);
    RETURN NULL;
END $$;
CREATE CONSTRAINT TRIGGER economy_entry_balanced AFTER INSERT ON economy_entry
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION economy_entry_balanced();
CREATE CONSTRAINT TRIGGER economy_transaction_balanced AFTER INSERT ON economy_transaction
    DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION economy_transaction_balanced();
"""

PG_BACKWARD = r"""
DROP TRIGGER economy_transaction_balanced ON economy_transaction;
DROP TRIGGER economy_entry_balanced ON economy_entry;
DROP FUNCTION economy_transaction_balanced();
DROP FUNCTION economy_entry_balanced();
DROP FUNCTION economy_check_balanced(bigint);
DROP TRIGGER economy_transaction_immutable ON economy_transaction;
DROP TRIGGER economy_entry_immutable ON economy_entry;
DROP FUNCTION economy_refuse_change();
DROP TRIGGER economy_entry_apply ON economy_entry;
DROP FUNCTION economy_entry_apply();
"""

SQLITE_FORWARD = [
    """CREATE TRIGGER economy_entry_apply AFTER INSERT ON economy_entry BEGIN
        UPDATE economy_account SET balance = balance + NEW.amount
         WHERE id = NEW.account_id AND balance IS NOT NULL;
    END""",
    """CREATE TRIGGER economy_entry_no_update BEFORE UPDATE ON economy_entry BEGIN
        SELECT RAISE(ABORT, 'ledger rows are immutable: UPDATE on economy_entry refused');
    END""",
    """CREATE TRIGGER economy_entry_no_delete BEFORE DELETE ON economy_entry BEGIN
        SELECT RAISE(ABORT, 'ledger rows are immutable: DELETE on economy_entry refused');
    END""",
    """CREATE TRIGGER economy_transaction_no_update BEFORE UPDATE ON economy_transaction BEGIN
        SELECT RAISE(ABORT, 'ledger rows are immutable: UPDATE on economy_transaction refused');
    END""",
    """CREATE TRIGGER economy_transaction_no_delete BEFORE DELETE ON economy_transaction BEGIN
        SELECT RAISE(ABORT, 'ledger rows are immutable: DELETE on economy_transaction refused');
    END""",
]

SQLITE_BACKWARD = [
    f"DROP TRIGGER {name}"
    for name in (
        "economy_entry_apply",
        "economy_entry_no_update",
        "economy_entry_no_delete",
        "economy_transaction_no_update",
        "economy_transaction_no_delete",
    )
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_FORWARD:
            schema_editor.execute(statement)
    else:
        raise NotImplementedError(f"economy triggers are written for PostgreSQL and SQLite, not {vendor}")


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_BACKWARD:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("economy", "0001_initial")]

    operations = [migrations.RunPython(forward, backward)]
