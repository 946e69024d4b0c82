"""The day's deals: drawn from a server secret and the date, so that nobody can
compute tomorrow's from anything the site shows (docs/daily.md).

Pure Python (no Django): the offline practice's browser replays a past day's deals
from the seeds the server gives it, through the same engine.
"""

from __future__ import annotations

import hashlib
import hmac
from datetime import date
from typing import Final

from cuatrola.engine import Match

#: Deals in a day's set.
DEALS: Final = 6
#: The player's seat at every deal (the bottom of the screen, partner on top).
PLAYER_SEAT: Final = 0
#: The rule set of every deal.
RULES: Final = "online"
#: Dealer of deals 1, 2, 3, 4 (then again): the player (seat 0) is mano, second,
#: third and dealer in turn (the mano is the seat after the dealer).
DEALERS: Final = (3, 2, 1, 0)
#: The player's place in the bidding order at each dealer.
TURN_NAMES: Final = {3: "mano", 2: "second", 1: "third", 0: "dealer"}


def deal_seed(*, secret: str, day: date, number: int) -> int:
    """The seed of deal `number` (1-based) of `day`: HMAC-SHA256 keyed with the
    server's secret over the date and the number, its first 62 bits. Without the
    secret one day's seeds say nothing of another day's."""
    if not secret:
        raise ValueError("the daily deal needs a secret")
    message = f"cuatrola-daily:{day.isoformat()}:{number}".encode()
    digest = hmac.new(secret.encode(), message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def deal_dealer(number: int) -> int:
    """The dealer of deal `number` (1-based): the player is mano, second, third, dealer."""
    return DEALERS[(number - 1) % len(DEALERS)]


def deal_match(*, seed: int, dealer: int) -> Match:
    """The deal as the engine plays it: one hand of the online rule set."""
    return Match.new(RULES, seed=seed, first_dealer_seat=dealer, last_hand=1)


def deal_result(match: Match, seat: int = PLAYER_SEAT) -> int:
    """A finished deal's result for `seat`'s pair: the match points it took, or minus
    those the other pair took (only one pair scores in a hand)."""
    if not match.is_over:
        raise ValueError("the deal is not over")
    pair = seat % 2
    return match.scores[pair] - match.scores[1 - pair]
