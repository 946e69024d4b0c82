"""What accounts asks of the apps above it, registered from their `AppConfig.ready()`
(accounts, the ground layer, never imports them):

- `register_group_sender(send)` (games): sends one channel-layer message to a
  group from sync code. Games knows the event loop the in-process layer must be
  used from; until one registers, the channel layer is called directly.
- `register_match_players(provider)` (games): the ids of the people who played
  a match, so that a report about a match comes from one of its players about
  another. None registered: nobody played any match.
- `register_match_talk(provider)` (games): a match's table talk, in order, for the
  transcript moderators read beside a report about that match. None registered:
  no talk.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

_group_sender: Callable[[str, dict[str, Any]], None] | None = None
_match_players: Callable[[int], set[int]] | None = None


def register_group_sender(send: Callable[[str, dict[str, Any]], None]) -> None:
    global _group_sender
    _group_sender = send


def group_send(group: str, message: dict[str, Any]) -> None:
    if _group_sender is not None:
        _group_sender(group, message)
        return
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(group, message)


def register_match_players(provider: Callable[[int], set[int]]) -> None:
    global _match_players
    _match_players = provider


def match_players(match_id: int) -> set[int]:
    return _match_players(match_id) if _match_players is not None else set()


_match_talk: Callable[[int], list[dict[str, Any]]] | None = None


def register_match_talk(provider: Callable[[int], list[dict[str, Any]]]) -> None:
    global _match_talk
    _match_talk = provider


def match_talk(match_id: int) -> list[dict[str, Any]]:
    """Each line: `at`, `seat`, `name`, and `said` (the phrase in the active
    language, or the free text as written)."""
    return _match_talk(match_id) if _match_talk is not None else []
