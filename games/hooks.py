"""What games asks of code above it, registered from an `AppConfig.ready()`.

Games never imports the apps (or the interface modules) that answer these:

- `register_seat_reputation(provider)` (history): a player's reputation, a
  `SeatReputation` (the share of their finished matches they did not abandon, and
  the share finished without a timed-out turn, in percent), None for a player with
  no finished match. Games stores it on the seat when the player sits down, so the
  table's frames and board carry it without a query per move: it can only change
  when a match is settled, i.e. after that table is over (docs/fairplay.md).
- `register_bot_scheduler(schedule)` (games' own bot runner, from
  `GamesConfig.ready`): called after commit with a table id when a bot-controlled
  seat is to play. The table services never import the runner that calls them.
- `register_match_points(provider)` (online): the league points stored with
  finished matches, by (match id, user id), for the pages that show a match's
  rewards (history). None registered: no points to show.
- `register_ratings(seat=, bot=, match=)` (ratings): a player's rating and whether
  it is provisional (stored on the seat when they sit down, like the reputation),
  a bot level's fixed rating, and what a finished match did to each seat's rating
  (the end-of-match panel). None registered: no ratings are shown.

- `register_blocks(provider)` (social): whether either of two players blocked the
  other (a blocked player cannot invite the blocker to a room, nor is their table
  talk shown to them). None registered: nobody is blocked.
- `register_talk_filter(provider)` (social): of a table's readers, those who must
  not see a player's talk (a block either way, all talk hidden in their settings).
- `register_page_section(page, provider)` (daily): a region of one of games' pages
  (`PAGES`: the lobby, offline practice). The provider is called as
  `provider(user=...)` and returns a `PageSection` (a template and its context, and
  the texts the page's script reads) or None to show nothing. The offline page is
  drawn for a visitor (the service worker keeps a copy of it), so its providers get
  an anonymous user. So games links to no page of the apps above it.
- `register_watcher_talk_filter(provider)` (social): for a watcher's socket, read
  once when it opens, the users whose talk it must not show (a block either way)
  and whether the watcher hides all talk (docs/watching.md); also the filter of the
  table's last lines any socket is sent as it opens (games/selectors/talk.py).
- `register_invitation_rule(provider)` (clubs): why a player may not be invited to
  a room, or accept an invitation to it (a club's table takes its members only),
  as a message; None when nothing refuses. Asked under the room's lock.
- `register_link(name, provider)` (social, online, history): the address of a page
  of theirs that games links to (`LINKS`: blocking a player from the table's talk,
  following a friend, the online queue, a finished match's page). `link(name,
  *args)` is None when none is registered, or when the arguments cannot make an
  address: the page then shows no such link.

The mode policies (`games.modes`) are registered the same way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.urls import NoReverseMatch


@dataclass(frozen=True)
class SeatReputation:
    """A player's reputation, in percent rounded down: `finished`, the share of their
    finished matches they did not abandon; `on_time`, the share they finished without
    a turn of theirs running out (never above `finished`)."""

    finished: int
    on_time: int


_reputation: Callable[[int], SeatReputation | None] | None = None
_bot_scheduler: Callable[[int, int | None], None] | None = None
_match_points: Callable[[list[int], Iterable[Any] | None], dict[tuple[int, int], int]] | None = None


def register_seat_reputation(provider: Callable[[int], SeatReputation | None]) -> None:
    global _reputation
    _reputation = provider


def seat_reputation(user_id: int) -> SeatReputation | None:
    """The reputation of a player sitting down (None: no finished match yet, or no
    provider registered)."""
    return _reputation(user_id) if _reputation is not None else None


def register_bot_scheduler(schedule: Callable[[int, int | None], None]) -> None:
    global _bot_scheduler
    _bot_scheduler = schedule


def bot_turn(table_id: int, version: int | None = None) -> None:
    """A bot-controlled seat of the table is to play at the match's `version`
    (called after commit)."""
    if _bot_scheduler is not None:
        _bot_scheduler(table_id, version)


_seat_rating: Callable[[int], tuple[int, bool] | None] | None = None
_bot_rating: Callable[[str], int | None] | None = None
_match_ratings: Callable[[int], dict[int, dict[str, Any]]] | None = None


def register_ratings(
    *,
    seat: Callable[[int], tuple[int, bool] | None],
    bot: Callable[[str], int | None],
    match: Callable[[int], dict[int, dict[str, Any]]],
) -> None:
    global _seat_rating, _bot_rating, _match_ratings
    _seat_rating, _bot_rating, _match_ratings = seat, bot, match


def seat_rating(user_id: int) -> tuple[int, bool] | None:
    """(rating, provisional) of a player sitting down; None when ratings are off."""
    return _seat_rating(user_id) if _seat_rating is not None else None


def bot_rating(level: str) -> int | None:
    """The fixed rating of a bot level; None when ratings are off."""
    return _bot_rating(level) if _bot_rating is not None else None


def match_ratings(match_id: int) -> dict[int, dict[str, Any]]:
    """What a finished match did to each seat's rating, by position: `before`,
    `after`, `change` and `provisional` (seats not rated are missing)."""
    return _match_ratings(match_id) if _match_ratings is not None else {}


def register_match_points(
    provider: Callable[[list[int], Iterable[Any] | None], dict[tuple[int, int], int]],
) -> None:
    global _match_points
    _match_points = provider


def match_points(
    match_ids: list[int], users: Iterable[Any] | None = None
) -> dict[tuple[int, int], int]:
    """League points by (match id, user id) of these matches (of these users only)."""
    if _match_points is None or not match_ids:
        return {}
    return _match_points(match_ids, users)


_blocked: Callable[[int, int], bool] | None = None


def register_blocks(provider: Callable[[int, int], bool]) -> None:
    global _blocked
    _blocked = provider


def blocked_between(a: int, b: int) -> bool:
    """True when either player blocked the other (False when blocks are off)."""
    return _blocked(a, b) if _blocked is not None else False


_blocked_by_any: Callable[[int, list[int]], bool] | None = None


def register_blockers(provider: Callable[[int, list[int]], bool]) -> None:
    global _blocked_by_any
    _blocked_by_any = provider


def blocked_by_any(user_id: int, player_ids: list[int]) -> bool:
    """True when any of these players blocked `user_id` (False when blocks are off):
    a player you blocked cannot watch your table."""
    if not player_ids or _blocked_by_any is None:
        return False
    return _blocked_by_any(user_id, player_ids)


_talk_hidden: Callable[[int, list[int]], set[int]] | None = None


def register_talk_filter(provider: Callable[[int, list[int]], set[int]]) -> None:
    global _talk_hidden
    _talk_hidden = provider


def talk_hidden_from(sender_id: int, reader_ids: list[int]) -> set[int]:
    """Of these readers, those who must not see the sender's talk (a block either
    way, or all talk hidden); none when no filter is registered."""
    return _talk_hidden(sender_id, reader_ids) if _talk_hidden is not None else set()


_invitation_rule: Callable[[int, int], Any] | None = None


def register_invitation_rule(provider: Callable[[int, int], Any]) -> None:
    global _invitation_rule
    _invitation_rule = provider


def invitation_refusal(table_id: int, user_id: int) -> Any:
    """Why `user_id` may not be invited to (or join) the room `table_id`: a message
    (lazy text), or None when no rule refuses (or none is registered)."""
    return _invitation_rule(table_id, user_id) if _invitation_rule is not None else None


#: The pages of games that take regions from the apps above it.
#: "lobby_invitations": inside the lobby's invitations region, which the lobby socket
#: reloads (partner requests, invitations to queue together: docs/protocol.md).
PAGES = ("lobby", "lobby_invitations", "offline")


@dataclass(frozen=True)
class PageSection:
    """A region of one of games' pages: its template, the template's context (as
    `section`), and `strings`: texts the page's script reads, merged into the page's
    own under the section's keys (which must not be the page's)."""

    template: str
    context: dict[str, Any] = field(default_factory=dict)
    strings: dict[str, Any] = field(default_factory=dict)


_page_sections: dict[str, list[Callable[..., PageSection | None]]] = {}


def register_page_section(page: str, provider: Callable[..., PageSection | None]) -> None:
    if page not in PAGES:
        raise ValueError(f"games has no page {page!r} taking sections (one of {PAGES})")
    providers = _page_sections.setdefault(page, [])
    if provider not in providers:
        providers.append(provider)


def page_sections(page: str, *, user: Any) -> list[PageSection]:
    """The registered regions of `page` for `user`, in registration order."""
    found = (provider(user=user) for provider in _page_sections.get(page, []))
    return [section for section in found if section is not None]


_watcher_talk: Callable[[int], tuple[frozenset[int], bool]] | None = None


def register_watcher_talk_filter(provider: Callable[[int], tuple[frozenset[int], bool]]) -> None:
    global _watcher_talk
    _watcher_talk = provider


def watcher_talk_filter(user_id: int) -> tuple[frozenset[int], bool]:
    """(the users blocked by or blocking `user_id`, whether they hide all table talk);
    nobody and False when no filter is registered."""
    return _watcher_talk(user_id) if _watcher_talk is not None else (frozenset(), False)


#: The pages of apps above games that games' pages link to, and what their
#: providers are called with.
LINKS = {
    "block": "the address a player POSTs a `username` to, to block them (social)",
    "follow": "a friend's next table to watch, called with their username (social)",
    "play_online": "the online queue's page (online)",
    "match_page": "a finished match's page, called with the match id (history)",
}
_links: dict[str, Callable[..., str]] = {}


def register_link(name: str, provider: Callable[..., str]) -> None:
    if name not in LINKS:
        raise ValueError(f"games links to no page called {name!r}: one of {sorted(LINKS)}")
    _links[name] = provider


def link(name: str, *args: Any) -> str | None:
    provider = _links.get(name)
    if provider is None:
        return None
    try:
        return provider(*args)
    except NoReverseMatch:  # arguments the page's address cannot hold
        return None
