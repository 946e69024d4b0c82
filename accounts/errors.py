"""The accounts app's domain errors; interfaces turn them into form errors."""


class AccountsError(Exception):
    """Base of every error the accounts services raise on bad input."""


class BanError(AccountsError):
    """A ban or an unban that cannot be made as asked."""


class ReportError(AccountsError):
    """A report that cannot be filed or closed as asked."""
