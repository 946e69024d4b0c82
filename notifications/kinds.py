"""The kinds of notification: each one's switch label, default, and sentence.

A sentence is worded at display time in the reader's active language from the
parameters stored with the notification (names are stored as they were then, so a
notification about a player who later left still reads).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

FRIEND_REQUEST = "friend_request"
FRIEND_ACCEPTED = "friend_accepted"
ROOM_INVITATION = "room_invitation"
PARTNER_INVITATION = "partner_invitation"
DAILY_RESULTS = "daily_results"
LEAGUE_RESULT = "league_result"
REPORT_HANDLED = "report_handled"
FRIEND_PLAYING = "friend_playing"
TOURNAMENT_CLOSING = "tournament_closing"
TOURNAMENT_ROUND = "tournament_round"


def _division(number: Any) -> str:
    names = {1: _("Bronze"), 2: _("Silver"), 3: _("Gold"), 4: _("Diamond")}
    return names.get(number, "?")


def _friend_request(p: dict[str, Any]) -> str:
    return _("%(name)s sent you a friend request.") % {"name": p.get("name", "?")}


def _friend_accepted(p: dict[str, Any]) -> str:
    return _("%(name)s accepted your friend request.") % {"name": p.get("name", "?")}


def _room_invitation(p: dict[str, Any]) -> str:
    return _("%(name)s invited you to their room.") % {"name": p.get("name", "?")}


def _partner_invitation(p: dict[str, Any]) -> str:
    return _("%(name)s invited you to queue together as partners.") % {"name": p.get("name", "?")}


def _daily_results(p: dict[str, Any]) -> str:
    return _("The results of the daily deal of %(day)s are ready.") % {"day": p.get("day", "?")}


def _league_result(p: dict[str, Any]) -> str:
    movement = p.get("movement", 0)
    division = _division(p.get("division"))
    if movement > 0:
        text = _("This week's league is over: you were promoted to %(division)s.")
    elif movement < 0:
        text = _("This week's league is over: you were relegated to %(division)s.")
    else:
        text = _("This week's league is over: you stay in %(division)s.")
    text %= {"division": division}
    coins = int(p.get("prize") or 0)
    if coins:
        prize = ngettext(
            "You won a prize of %(coins)d coin.", "You won a prize of %(coins)d coins.", coins
        ) % {"coins": coins}
        text = f"{text} {prize}"
    return text


def _report_handled(p: dict[str, Any]) -> str:
    return _("A moderator handled the report you filed about %(name)s.") % {
        "name": p.get("name", "?")
    }


def _friend_playing(p: dict[str, Any]) -> str:
    return _("Your friend %(name)s started playing.") % {"name": p.get("name", "?")}


def _tournament_closing(p: dict[str, Any]) -> str:
    minutes = int(p.get("minutes") or 0)
    return ngettext(
        "Registration for %(tournament)s closes in %(minutes)d minute.",
        "Registration for %(tournament)s closes in %(minutes)d minutes.",
        minutes,
    ) % {"tournament": p.get("tournament", "?"), "minutes": minutes}


def _tournament_round(p: dict[str, Any]) -> str:
    values = {
        "round": p.get("round", "?"),
        "tournament": p.get("tournament", "?"),
        "table": p.get("table"),
    }
    if values["table"] is None:
        return _("Round %(round)s of %(tournament)s is starting: your table is ready.") % values
    if p.get("bye"):
        return (
            _("Round %(round)s of %(tournament)s starts soon: table %(table)s, a bye against bots.")
            % values
        )
    return _("Round %(round)s of %(tournament)s starts soon: you play at table %(table)s.") % values


@dataclass(frozen=True)
class Kind:
    key: str
    label: Promise  # the switch's label in the settings
    default: bool  # on unless the player switches it off
    sentence: Callable[[dict[str, Any]], str]


KINDS: dict[str, Kind] = {
    k.key: k
    for k in (
        Kind(FRIEND_REQUEST, gettext_lazy("Friend requests"), True, _friend_request),
        Kind(FRIEND_ACCEPTED, gettext_lazy("Friend requests accepted"), True, _friend_accepted),
        Kind(ROOM_INVITATION, gettext_lazy("Invitations to a room"), True, _room_invitation),
        Kind(
            PARTNER_INVITATION,
            gettext_lazy("Invitations to queue as partners"),
            True,
            _partner_invitation,
        ),
        Kind(DAILY_RESULTS, gettext_lazy("Daily deal results"), True, _daily_results),
        Kind(LEAGUE_RESULT, gettext_lazy("The week's league result"), True, _league_result),
        Kind(REPORT_HANDLED, gettext_lazy("Your reports handled"), True, _report_handled),
        Kind(
            TOURNAMENT_CLOSING,
            gettext_lazy("Tournament registration closing soon"),
            True,
            _tournament_closing,
        ),
        Kind(TOURNAMENT_ROUND, gettext_lazy("Tournament round starting"), True, _tournament_round),
        Kind(FRIEND_PLAYING, gettext_lazy("A friend starts playing"), False, _friend_playing),
    )
}


def sentence(kind: str, params: dict[str, Any]) -> str:
    """The notification's sentence in the active language (an unknown kind: a plain line)."""
    found = KINDS.get(kind)
    if found is None:
        return _("You have a notification.")
    try:
        return found.sentence(params or {})
    except (TypeError, ValueError, KeyError):
        return _("You have a notification.")


def enabled(kind: str, overrides: dict[str, Any] | None) -> bool:
    found = KINDS.get(kind)
    if found is None:
        return False
    value = (overrides or {}).get(kind)
    return found.default if value is None else bool(value)
