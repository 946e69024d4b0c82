"""The accounts app's domain errors; interfaces turn them into form errors.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user (here, the message
each service raises with).
"""

from ops.domain import DomainError


class AccountsError(DomainError):
    """Base of every error the accounts services raise on bad input."""

    code = "accounts_error"


class BanError(AccountsError):
    """A ban or an unban that cannot be made as asked."""

    code = "ban_refused"


class ReportError(AccountsError):
    """A report that cannot be filed or closed as asked."""

    code = "report_refused"
