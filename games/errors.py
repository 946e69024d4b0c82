"""Domain errors of the games app. Interfaces turn them into form errors,
HTMX fragments or websocket error frames.

The shape every app's errors share (`ops.domain`): a stable `code`
clients decide on, `params` (JSON-ready facts), and `message` in the active
language, rendered from the code and the params when it is read.
"""

from __future__ import annotations

from typing import Any

from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _

from cuatrola.engine import EngineError
from games.words.translated import refusal_label
from ops.domain import DomainError


class GameError(DomainError):
    code = "game_error"
    default_message: Any = _("That cannot be done now.")


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


# The refusals' words are the game words', read when the message is rendered.
_refusal_lazy = lazy(refusal_label, str)


class NotYourTurn(GameError):
    code = "not_your_turn"
    default_message = _refusal_lazy("not_your_turn")


class IllegalAction(GameError):
    """The engine refused the move: `params["reason"]` is the engine's code
    (`must_follow`, `bid_too_low`, ...) and the other params are its facts."""

    code = "illegal_action"
    default_message = _refusal_lazy("")  # no code: the game words' `refusal_default`

    @classmethod
    def from_engine(cls, error: EngineError) -> IllegalAction:
        return cls(None, reason=error.code, **error.params)

    @property
    def message(self) -> str:
        reason = self.params.get("reason")
        if reason is None:
            return str(self.lazy_message)
        return refusal_label(reason, self.params)


class NotAllowed(GameError):
    code = "not_allowed"
    default_message = _("You are not allowed to do that.")


class ReasonRequired(GameError):
    code = "reason_required"
    default_message = _("Give a reason.")


def illegal_action(engine_error: EngineError) -> IllegalAction:
    """The IllegalAction for an engine refusal: its code and params, rendered on reading."""
    return IllegalAction.from_engine(engine_error)


class UnknownPhrase(GameError):
    code = "unknown_phrase"
    default_message = _("Say one of the table's phrases.")


class NotWatching(GameError):
    code = "not_watching"
    default_message = _("You are not watching this table.")


class WatcherPhrasesOnly(GameError):
    code = "watcher_phrases_only"
    default_message = _("Watchers talk in the table's phrases only.")


class FreeTextNotHere(GameError):
    code = "free_text_not_here"
    default_message = _("Free text is only for rooms with friends: use the table's phrases.")


class FreeTextDuringHand(GameError):
    code = "free_text_during_hand"
    default_message = _(
        "Free text waits until nobody holds cards (before the first deal, after the "
        "match): use the table's phrases."
    )


class TextTooLong(GameError):
    code = "text_too_long"

    @property
    def message(self) -> str:
        from games.words.talk_phrases import TEXT_MAX

        return _("Write at most %(count)d characters.") % {"count": TEXT_MAX}


class TalkTooFast(GameError):
    code = "talk_too_fast"

    @property
    def message(self) -> str:
        from django.conf import settings

        return _(
            "One message every %(seconds)d s and %(count)d every %(window)d s at most: "
            "wait a moment."
        ) % {
            "seconds": settings.TALK_MIN_SECONDS,
            "count": settings.TALK_BURST,
            "window": settings.TALK_BURST_SECONDS,
        }
