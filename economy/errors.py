"""The economy's domain errors. Interfaces turn them into messages; none half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from typing import Any

from django.utils.translation import gettext_lazy as _

from ops.domain import DomainError


class EconomyError(DomainError):
    """Base of every economy error; `message` is safe to show to the user."""

    code = "economy_error"
    default_message: Any = _("The operation could not be completed.")


class InsufficientFunds(EconomyError):
    code = "insufficient_funds"
    default_message = _("Your balance does not cover this. Nothing was charged.")


class ProductUnavailable(EconomyError):
    code = "product_unavailable"
    default_message = _("This product is not on sale.")


class InvalidAmount(EconomyError):
    code = "invalid_amount"
    default_message = _("The amount must be a whole number other than zero.")


class ReasonRequired(EconomyError):
    code = "reason_required"
    default_message = _("A reason is required.")


class NotStaff(EconomyError):
    code = "not_staff"
    default_message = _("Only finance staff may adjust balances.")


class IdempotencyKeyConflict(EconomyError):
    """A key already posted for another kind of transaction or with other parameters."""

    code = "idempotency_key_conflict"
    default_message = _("This request key was already used for a different operation.")

    def __init__(self, message: str | None = None, *, key: str = "") -> None:
        super().__init__(message)
        self.key = key  # for logs; the message shown to users does not repeat it


class EscrowSettled(EconomyError):
    code = "escrow_settled"
    default_message = _("This stake table is already settled.")


class NothingToRefund(EconomyError):
    code = "nothing_to_refund"
    default_message = _("There is no stake to refund.")


class NothingToPay(EconomyError):
    code = "nothing_to_pay"
    default_message = _("The pot is empty or has no winners.")
