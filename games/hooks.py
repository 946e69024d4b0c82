"""Figures about a player that a higher app provides (games never imports it).

The history app registers `reliability_of(user_id)` from its `AppConfig.ready()`:
the share of a player's finished matches they did not abandon, in percent (None
for a player with no finished match). Games stores it on the seat when the player
sits down, so the table's frames and board carry it without a query per move: it
can only change when a match is settled, i.e. after that table is over.
"""

from __future__ import annotations

from collections.abc import Callable

_reliability: Callable[[int], int | None] | None = None


def register_seat_reliability(provider: Callable[[int], int | None]) -> None:
    global _reliability
    _reliability = provider


def seat_reliability(user_id: int) -> int | None:
    return _reliability(user_id) if _reliability is not None else None
