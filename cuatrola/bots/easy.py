"""The easy bot: rule-based, sensible but beatable, with human-like slips."""

from __future__ import annotations

import random

from cuatrola.engine.core import CARD_BIT, CARD_CODES, CODE_INDEX, cards_of
from cuatrola.engine.rules import BID_LEVEL, BIDS

from .heuristic import estimated_tricks, play_card
from .knowledge import Knowledge

#: Chance of a slip: a random legal card instead of the sensible one.
MISTAKE_RATE = 0.25
#: Estimated tricks needed before the easy bot bids each contract (very strong hands only).
BID_THRESHOLDS = {"solo": 3.0, "cuatrola": 4.0, "quintola": 4.8}


def choose_bid(k: Knowledge, thresholds: dict[str, float] | None = None) -> str:
    est = estimated_tricks(k.own, k.trump_suit)
    wanted = "pass"
    for word, need in (thresholds or BID_THRESHOLDS).items():
        if est >= need:
            wanted = word
    best = "pass"
    for action in k.legal:
        if action in BID_LEVEL and BID_LEVEL[action] <= BID_LEVEL[wanted]:
            best = action if BID_LEVEL[action] > BID_LEVEL[best] else best
    return best if best in k.legal else "pass"


def sensible_card(k: Knowledge) -> int:
    legal = k.legal_mask()
    to_play = 3 if k.out >= 0 else 4
    return play_card(
        hand=k.own,
        legal=legal,
        trick=k.trick,
        trump=k.trump_suit,
        seat=k.seat,
        gone=k.played,
        declarer=k.declarer,
        points_decide=k.points_decide,
        last_to_play=len(k.trick) == to_play - 1,
    )


def choose(k: Knowledge, rng: random.Random, mistakes: bool = True) -> str:
    if k.phase == "bidding":
        return choose_bid(k)
    legal = k.legal_mask()
    if mistakes and rng.random() < MISTAKE_RATE:
        return CARD_CODES[rng.choice(cards_of(legal))]
    card = sensible_card(k)
    assert legal & CARD_BIT[card], (CARD_CODES[card], k.legal)
    return CARD_CODES[card]


__all__ = ["BIDS", "CODE_INDEX", "choose", "choose_bid", "sensible_card"]
