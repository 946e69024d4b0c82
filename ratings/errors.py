"""Domain errors of the ratings app. `message` is safe to show; none of them half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from ops.domain import DomainError


class RatingError(DomainError):
    """Base of every error the ratings services raise on bad input."""

    code = "rating_error"
    default_message: Any = _("The rating could not be changed.")


class ResetNeedsReason(RatingError):
    code = "reset_needs_reason"
    default_message = _("A rating reset needs a reason: write why the rating is reset.")


class ResetNotAllowed(RatingError):
    code = "reset_not_allowed"
    default_message = _("You are not allowed to reset ratings.")
