"""Domain errors of online play. `message` is safe to show; none of them half-writes.

Every app's errors have one shape (ops.domain): a stable `code`,
JSON-ready `params`, and a `message` safe to show to the user.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

# "Already at a live table" is one error, the games app's (the seat's unique index
# raises it): online raises the same class, with its own wording for the queue.
from games.errors import AlreadyAtTable
from ops.domain import DomainError

__all__ = [
    "AlreadyAtTable",
    "AlreadySeatedHere",
    "NotQueued",
    "NotSeatedHere",
    "NotWelcomeHere",
    "OnlineError",
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
