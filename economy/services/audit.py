"""The periodic ledger audit's record: what /metrics and the staff's live view show."""

from __future__ import annotations

import logging
import time

from django.utils import timezone

from economy.models import LedgerAudit
from economy.selectors import ledger_audit

logger = logging.getLogger(__name__)


def ledger_audit_record() -> LedgerAudit:
    """Runs every invariant check of the ledger (read-only) and stores the result."""
    started = time.perf_counter()
    report = ledger_audit()
    run = LedgerAudit.objects.create(
        ran_at=timezone.now(),
        seconds=time.perf_counter() - started,
        violations=len(report.violations),
        detail="\n".join(report.violations[:100]),
    )
    if report.violations:
        logger.error("ledger audit: %d violation(s)", len(report.violations))
    return run
