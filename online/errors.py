"""Domain errors of online play. `message` is safe to show; none of them half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import formats, timezone
from django.utils.functional import lazy
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

# "Already at a live table" is one error, the games app's (the seat's unique index
# raises it): online raises the same class, with its own wording for the queue.
from games.errors import AlreadyAtTable
from ops.domain import DomainError

__all__ = [
    "AlreadyAtTable",
    "AlreadyQueued",
    "AlreadySeatedHere",
    "BadMinimumReputation",
    "NotQueued",
    "NotSeatedHere",
    "NotWelcomeHere",
    "NotYourPartner",
    "OnlineError",
    "PartnerUnavailable",
    "QueueInvitationNotFound",
    "QueueWait",
    "ReputationTooLow",
    "ShortBalance",
    "StakeTableClosed",
    "StakeTableFull",
    "StakeTableNotFound",
    "UnknownStake",
]


class OnlineError(DomainError):
    code = "online_error"
    default_message = _("That cannot be done now.")


class NotQueued(OnlineError):
    code = "not_queued"
    default_message = _("You are not in the queue.")


class AlreadyQueued(OnlineError):
    code = "already_queued"
    default_message = _("You are already in the queue: leave it first to queue with a partner.")


class NotYourPartner(OnlineError):
    """An unknown name, yourself, or no standing pair: one message."""

    code = "not_your_partner"
    default_message = _("You may queue only with one of your registered partners.")


class PartnerUnavailable(OnlineError):
    """The partner cannot look for a match now: at a table, queued, banned, waiting
    after abandonments, or a block or linked accounts between the two (not said which)."""

    code = "partner_unavailable"
    default_message = _(
        "Your partner cannot look for a match with you now (playing, already queued or "
        "not allowed to play)."
    )


class QueueInvitationNotFound(OnlineError):
    code = "queue_invitation_not_found"
    default_message = _("There is no such invitation to queue together.")


class UnknownStake(OnlineError):
    code = "unknown_stake"
    default_message = _("There is no stake table of that amount.")


class StakeTableNotFound(OnlineError):
    code = "stake_table_not_found"
    default_message = _("There is no such stake table.")


class StakeTableClosed(OnlineError):
    code = "stake_table_closed"
    default_message = _("That stake table has already started or was cancelled.")


class StakeTableFull(OnlineError):
    code = "stake_table_full"
    default_message = _("Every seat at that stake table is taken.")


class AlreadySeatedHere(OnlineError):
    code = "already_seated_here"
    default_message = _("You are already sitting at this table.")


class NotSeatedHere(OnlineError):
    code = "not_seated_here"
    default_message = _("You are not sitting at this table.")


class NotWelcomeHere(OnlineError):
    # A player at the table blocked the sitter: said without naming the block, as a
    # refused friend request is (docs/social.md).
    code = "not_welcome_here"
    default_message = _("You cannot sit at this table: choose another one.")


class ShortBalance(OnlineError):
    code = "short_balance"
    default_message = _("You do not have enough coins for this stake. Nothing was charged.")


def when_text(moment: datetime) -> str:
    """A moment as the site shows it: the date and time in the site's time zone
    (Europe/Madrid) and the active language's format."""
    return formats.date_format(timezone.localtime(moment), "DATETIME_FORMAT")


def duration_text(seconds: float) -> str:
    """A wait left, rounded up, in the largest unit that keeps it readable."""
    minutes = max(1, -(-int(seconds) // 60))
    if minutes < 120:
        return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
    hours = -(-minutes // 60)
    return ngettext("%(n)s hour", "%(n)s hours", hours) % {"n": hours}


def _wait_message(until: datetime, now: datetime, abandoned: int, days: int) -> str:
    return ngettext(
        "You cannot join the queue or sit at a stake table until %(until)s (%(left)s from "
        "now): you abandoned %(count)s rated or stake match in the last %(days)s days.",
        "You cannot join the queue or sit at a stake table until %(until)s (%(left)s from "
        "now): you abandoned %(count)s rated or stake matches in the last %(days)s days.",
        abandoned,
    ) % {
        "until": when_text(until),
        "left": duration_text((until - now).total_seconds()),
        "count": abandoned,
        "days": days,
    }


class QueueWait(OnlineError):
    """The player abandoned rated or stake matches and waits before the next one
    (docs/fairplay.md). The message names why and until when, rendered when read in
    the active language and the site's time zone. Params: `until` (ISO 8601), the
    `abandoned` matches counted in the window."""

    code = "queue_wait"
    default_message = _(
        "You abandoned rated matches lately: wait a while before joining the queue or "
        "sitting at a stake table."
    )

    def __init__(
        self,
        message: object = None,
        *,
        until: datetime | None = None,
        now: datetime | None = None,
        abandoned: int = 1,
    ) -> None:
        from django.conf import settings

        if until is None:
            super().__init__(message)
            return
        days = int(settings.QUIT_WINDOW_DAYS)
        message = lazy(_wait_message, str)(until, now or timezone.now(), abandoned, days)
        super().__init__(message, until=until.isoformat(), abandoned=abandoned)


class BadMinimumReputation(OnlineError):
    code = "bad_minimum_reputation"
    default_message = _("The minimum reputation must be a whole number from 0 to 100.")


def _too_low_message(minimum: int, finished: int | None, on_time: int | None) -> str:
    asked = gettext(
        "This table asks for players who finish at least %(min)s%% of their matches, "
        "and as many without a turn timed out."
    ) % {"min": minimum}
    if finished is None or on_time is None:
        yours = gettext("You have no finished match yet.")
    else:
        yours = gettext(
            "You finish %(finished)s%% of your matches, %(on_time)s%% without a turn timed out."
        ) % {"finished": finished, "on_time": on_time}
    return f"{asked} {yours}"


class ReputationTooLow(OnlineError):
    """A stake table's minimum reputation refuses the player: what it asks and what
    they have (params `minimum`, `finished`, `on_time`; None without a record)."""

    code = "reputation_too_low"
    default_message = _("Your reputation is below the minimum this table asks for.")

    def __init__(
        self,
        message: object = None,
        *,
        minimum: int | None = None,
        finished: int | None = None,
        on_time: int | None = None,
    ) -> None:
        if minimum is None:
            super().__init__(message)
            return
        message = lazy(_too_low_message, str)(minimum, finished, on_time)
        super().__init__(message, minimum=minimum, finished=finished, on_time=on_time)
