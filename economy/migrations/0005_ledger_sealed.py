"""Committed history is sealed, and a settled escrow is final.

PostgreSQL:
- a BEFORE INSERT trigger on entries refuses an entry whose ledger transaction
  was not inserted by the current database transaction: once a ledger
  transaction has committed, nothing can be added to it, balanced or not. The
  transaction row's `xmin` must be one of our own (sub)transaction ids, which
  pg_xact_status reports as 'in progress'; a committed row reports 'committed'
  and a row another session has not committed yet is not visible at all.
- a BEFORE UPDATE OR DELETE trigger on accounts refuses any change to an escrow
  once its `settled_at` is set (clearing it, moving its balance, deleting it):
  stake_place can then never take stakes at a paid-out table.

SQLite (the embedded default, one process) gets the settled-escrow refusal; it
has no transaction ids to compare, so there sealing rests on the services.
"""

from django.db import migrations

PG_FORWARD = r"""
CREATE FUNCTION economy_entry_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    row_xid bigint;
    current_xid bigint := pg_current_xact_id()::text::bigint;
    full_xid bigint;
BEGIN
    SELECT xmin::text::bigint INTO row_xid
      FROM economy_transaction WHERE id = NEW.transaction_id;
    IF FOUND THEN
        -- xmin is 32 bits: give it the epoch of the current 64-bit id, the nearer way
        -- round (our subtransactions' ids come after our top-level id).
        full_xid := (current_xid >> 32 << 32) | row_xid;
        IF full_xid - current_xid > 2147483648 THEN
            full_xid := full_xid - 4294967296;
        ELSIF current_xid - full_xid > 2147483648 THEN
            full_xid := full_xid + 4294967296;
        END IF;
        IF full_xid > 0 AND pg_xact_status(full_xid::text::xid8) = 'in progress' THEN
            RETURN NEW;
        END IF;
    END IF;
    RAISE EXCEPTION 'ledger transaction % is sealed: it was committed earlier (or is not this '
        'database transaction''s), so no entry can be added to it', NEW.transaction_id
        USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER economy_entry_sealed BEFORE INSERT ON economy_entry
    FOR EACH ROW EXECUTE FUNCTION economy_entry_sealed();

CREATE FUNCTION economy_escrow_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'escrow account % is settled and final: % refused', OLD.id, TG_OP
        USING ERRCODE = 'restrict_violation';
END $$;
CREATE TRIGGER economy_escrow_final BEFORE UPDATE OR DELETE ON economy_account
    FOR EACH ROW WHEN (OLD.settled_at IS NOT NULL) EXECUTE FUNCTION economy_escrow_final();
"""

PG_BACKWARD = r"""
DROP TRIGGER economy_escrow_final ON economy_account;
DROP FUNCTION economy_escrow_final();
DROP TRIGGER economy_entry_sealed ON economy_entry;
DROP FUNCTION economy_entry_sealed();
"""

SQLITE_FORWARD = [
    f"""CREATE TRIGGER economy_escrow_final_no_{op.lower()} BEFORE {op} ON economy_account
        WHEN OLD.settled_at IS NOT NULL BEGIN
        SELECT RAISE(ABORT, 'escrow account is settled and final: {op} refused');
    END"""
    for op in ("UPDATE", "DELETE")
]

SQLITE_BACKWARD = [
    "DROP TRIGGER economy_escrow_final_no_update",
    "DROP TRIGGER economy_escrow_final_no_delete",
]


def forward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_FORWARD, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_FORWARD:
            schema_editor.execute(statement)
    else:
        raise NotImplementedError(
            f"economy triggers are written for PostgreSQL and SQLite, not {vendor}"
        )


def backward(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(PG_BACKWARD, params=None)
    elif vendor == "sqlite":
        for statement in SQLITE_BACKWARD:
            schema_editor.execute(statement)


class Migration(migrations.Migration):
    dependencies = [("economy", "0004_transaction_fingerprint")]

    operations = [migrations.RunPython(forward, backward)]
