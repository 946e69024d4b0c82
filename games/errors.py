"""Domain errors of the games app. Interfaces turn them into form errors,
HTMX fragments or websocket error frames; `code` is stable for clients."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    code = "game_error"
    default_message = _("That cannot be done now.")

    def __init__(self, message: str | None = None) -> None:
        self.message = str(message) if message is not None else str(self.default_message)
        super().__init__(self.message)


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
