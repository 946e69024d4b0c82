"""Fair play's domain errors: a staff decision on a flagged pair that cannot be made.
The admin shows the message on its form and writes nothing.

The shape every app's errors share (ops.domain): a stable `code`, JSON-ready
`params`, and a `message` in the active language.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from ops.domain import DomainError


class FairplayError(DomainError):
    code = "fairplay_error"
    default_message: Any = _("That cannot be done with this flag now.")


class NoteRequired(FairplayError):
    code = "fairplay_note_required"
    default_message = _("Write a note saying why: it is kept with your decision.")


class NotAllowed(FairplayError):
    code = "fairplay_not_allowed"
    default_message = _("You are not allowed to review flagged pairs.")


class UnknownDecision(FairplayError):
    code = "fairplay_unknown_decision"
    default_message = _("A flag is either dismissed or confirmed.")


class AlreadyDecided(FairplayError):
    code = "fairplay_already_decided"
    default_message = _("This flag was already decided; reopen it first to decide again.")


class NotDecided(FairplayError):
    code = "fairplay_not_decided"
    default_message = _("This flag is open already.")
