from celery import shared_task

from economy import services


@shared_task(name="economy.audit_ledger")
def audit_ledger() -> int:
    """Every invariant of the ledger checked and the result stored (beat: every
    LEDGER_AUDIT_SECONDS); returns the number of violations."""
    return services.ledger_audit_record().violations
