"""Check every ledger invariant; exit non-zero on any violation.

Checks: each transaction has entries and sums to zero per currency; each cached
balance equals the sum of its entries; no user or escrow balance is negative
(cached or summed); every settled stake table's escrow is back to zero; the
whole ledger sums to zero per currency (what users, shop, escrows and staff
adjustments hold is exactly what issuance issued).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from economy.selectors import ledger_audit


class Command(BaseCommand):
    help = "Check the ledger's invariants; exits with status 1 on any violation."

    def handle(self, *args: Any, **options: Any) -> None:
        report = ledger_audit()
        for currency, totals in report.totals.items():
            self.stdout.write(
                f"{currency}: issued {totals['issued']}, held {totals['held']} "
                f"({totals['transactions']} transactions)"
            )
        for violation in report.violations:
            self.stderr.write(f"VIOLATION: {violation}")
        if report.violations:
            raise CommandError(f"{len(report.violations)} ledger invariant violation(s)")
        self.stdout.write(self.style.SUCCESS("ledger audit passed"))
