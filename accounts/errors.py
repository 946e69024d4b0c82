"""The accounts app's domain errors; interfaces turn them into form errors.

Every app's errors have one shape (tests/test_error_shape.py): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user (here, the message
each service raises with).
"""

from typing import Any


class AccountsError(Exception):
    """Base of every error the accounts services raise on bad input."""

    code = "accounts_error"

    def __init__(self, message: Any = "", **params: Any) -> None:
        self._message = message  # may be lazy: read in the reader's language
        self.params: dict[str, Any] = params
        super().__init__(message)

    @property
    def message(self) -> str:
        return str(self._message)


class BanError(AccountsError):
    """A ban or an unban that cannot be made as asked."""

    code = "ban_refused"


class ReportError(AccountsError):
    """A report that cannot be filed or closed as asked."""

    code = "report_refused"
