"""Small helpers for engine tests."""

from __future__ import annotations

from cuatrola.engine import Hand


def hand_after(
    deal: list[str],
    actions: str = "",
    rules: str = "online",
    dealer: int = 0,
    scores: tuple[int, int] = (0, 0),
) -> Hand:
    """The state after `actions` on a deal given as space-separated hands, seat 0 first."""
    hand = Hand.from_deal(rules, dealer, [d.split() for d in deal], scores)
    for action in actions.split():
        hand, _events = hand.apply(action)
    return hand


def play_out(hand: Hand, actions: str) -> Hand:
    for action in actions.split():
        hand, _events = hand.apply(action)
    return hand
