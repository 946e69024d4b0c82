"""The economy's domain errors. Interfaces turn them into messages; none half-writes."""

from django.utils.translation import gettext_lazy as _


class EconomyError(Exception):
    """Base of every economy error; `message` is safe to show to the user."""

    default_message = _("The operation could not be completed.")

    def __init__(self, message: str | None = None) -> None:
        self.message = message or str(self.default_message)
        super().__init__(self.message)


class InsufficientFunds(EconomyError):
    default_message = _("Your balance does not cover this. Nothing was charged.")


class ProductUnavailable(EconomyError):
    default_message = _("This product is not on sale.")


class InvalidAmount(EconomyError):
    default_message = _("The amount must be a whole number other than zero.")


class ReasonRequired(EconomyError):
    default_message = _("A reason is required.")


class NotStaff(EconomyError):
    default_message = _("Only finance staff may adjust balances.")


class IdempotencyKeyConflict(EconomyError):
    """A key already posted for another kind of transaction or with other parameters."""

    default_message = _("This request key was already used for a different operation.")

    def __init__(self, message: str | None = None, *, key: str = "") -> None:
        super().__init__(message)
        self.key = key  # for logs; the message shown to users does not repeat it


class EscrowSettled(EconomyError):
    default_message = _("This stake table is already settled.")


class NothingToRefund(EconomyError):
    default_message = _("There is no stake to refund.")


class NothingToPay(EconomyError):
    default_message = _("The pot is empty or has no winners.")


class UnknownMode(EconomyError):
    default_message = _("Unknown game mode.")
