"""Domain errors of the games app. Interfaces turn them into form errors,
HTMX fragments or websocket error frames; `code` is stable for clients."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    code = "game_error"
    default_message = _("That cannot be done now.")

    def __init__(self, message: Any = None) -> None:
        # Kept lazy: each interface renders it in its own user's language.
        self.lazy_message = message if message is not None else self.default_message
        super().__init__(str(self.lazy_message))

    @property
    def message(self) -> str:
        """The message in the active language."""
        return str(self.lazy_message)


class TableNotFound(GameError):
    code = "table_not_found"
    default_message = _("There is no such table.")


class InvitationNotFound(GameError):
    code = "invitation_not_found"
    default_message = _("There is no such invitation.")


class NotOwner(GameError):
    code = "not_owner"
    default_message = _("Only the creator of the room can do that.")


class NotSeated(GameError):
    code = "not_seated"
    default_message = _("You are not seated at this table.")


class AlreadyAtTable(GameError):
    code = "already_at_table"
    default_message = _("You are already at another live table: finish or leave it first.")


class UnknownUser(GameError):
    code = "unknown_user"
    default_message = _("There is no active player with that username.")


class InvalidInvitation(GameError):
    code = "invalid_invitation"
    default_message = _("That invitation cannot be sent.")


class TableNotOpen(GameError):
    code = "table_not_open"
    default_message = _("The match has already started or the table is closed.")


class TableNotReady(GameError):
    code = "table_not_ready"
    default_message = _("Every seat needs a player or a bot before starting.")


class InvalidSeat(GameError):
    code = "invalid_seat"
    default_message = _("That seat cannot be changed like that.")


class InvalidChoice(GameError):
    code = "invalid_choice"
    default_message = _("That option does not exist.")


class MatchNotLive(GameError):
    code = "match_not_live"
    default_message = _("There is no match in play at this table.")


class StaleVersion(GameError):
    code = "stale_version"
    default_message = _("The table has moved on since you looked: here is the current state.")


class NotYourTurn(GameError):
    code = "not_your_turn"
    default_message = _("It is not your turn.")


class IllegalAction(GameError):
    code = "illegal_action"
    default_message = _("That move is not allowed.")


class NotAllowed(GameError):
    code = "not_allowed"
    default_message = _("You are not allowed to do that.")


class ReasonRequired(GameError):
    code = "reason_required"
    default_message = _("Give a reason.")


#: What the player is told when the engine refuses a move, by the engine's reason.
ENGINE_REFUSALS = {
    "MalformedAction": _("That is not a card or a bid."),
    "WrongPhase": _("That cannot be played at this point of the hand."),
    "CardNotHeld": _("You do not hold that card."),
    "BidTooLow": _("A bid must be higher than the highest bid so far."),
    "BidOverCap": _("That bid would take your pair past the match target."),
    "IllegalCard": _(
        "The rules do not allow that card now: follow suit, beat the trick or trump when you can."
    ),
}


def illegal_action(engine_error: Exception) -> IllegalAction:
    """The IllegalAction for an engine refusal, with a translated reason."""
    return IllegalAction(ENGINE_REFUSALS.get(type(engine_error).__name__))
