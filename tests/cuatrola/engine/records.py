"""Fixed deals with known outcomes, found by searching seeded random deals.

Each record is a hand record (docs/rules.md §10, `Hand.to_dict`): rule set,
dealer, scores, the deal in dealing order, the trump card, the actions. The
tests assert the outcome the rules give for them.
"""

from __future__ import annotations

from typing import Any


def rec(rules: str, deal: list[str], actions: str, dealer: int = 0) -> dict[str, Any]:
    """A record from space-separated hands (seat 0 first) and actions."""
    hands = [d.split() for d in deal]
    return {
        "rules": rules,
        "dealer": dealer,
        "scores": [0, 0],
        "deal": hands,
        "trump": hands[dealer][4],
        "actions": actions.split(),
    }


PASSES = "pass pass pass pass "

# Online pass hand of docs/rules.md §11: pair 0 takes 62 card points, the
# last trick and declares 40 in trumps (copas): 112 > 100.
BONUS_112 = rec(
    "online",
    ["11e 12b 10e 3b 1c", "10b 3e 12e 11o 11b", "1b 11c 1o 1e 12c", "10o 3c 12o 3o 10c"],
    PASSES + "10b 1b 10c 3b 12o 1c 11o 1o 10e 3e 1e 3c 10o 11e 11b 12c 11c 3o 12b 12e",
)
EXACTLY_100 = rec(
    "online",
    ["12o 11b 3o 1c 11c", "12e 12b 10b 10c 1b", "11e 1o 3c 10o 3b", "3e 1e 10e 12c 11o"],
    PASSES + "10c 3c 12c 1c 11c 12e 3b 10e 12o 1b 1o 11o 10o 1e 3o 10b 11b 12b 11e 3e",
)
EXACTLY_101 = rec(
    "online",
    ["3b 1b 12o 3c 12c", "10b 10c 1e 3o 10o", "10e 11e 11c 1o 12e", "12b 1c 11o 11b 3e"],
    PASSES + "3o 1o 11o 12o 11e 3e 3c 1e 3b 10b 11c 12b 12e 1c 12c 10o 11b 1b 10c 10e",
)
# 75-75; the last trick goes to pair 0, the mano (seat 1) is pair 1.
TIE_ONLINE = rec(
    "online",
    ["10c 10e 3b 3o 11c", "11e 1e 12o 12e 1c", "1b 11o 3e 10o 1o", "12c 10b 11b 3c 12b"],
    PASSES + "12e 3e 3c 10e 12c 11c 1c 1o 12o 10o 10b 3o 10c 11e 1b 11b 3b 1e 11o 12b",
)
# 65-65; the last trick goes to pair 0, the mano (seat 1) is pair 1.
TIE_CLASSIC = rec(
    "classic",
    ["10e 12o 12c 1b 12e", "1e 1o 11o 10o 11c", "11b 12b 10c 10b 3o", "3b 3e 1c 3c 11e"],
    PASSES + "11c 10c 1c 12c 3e 10e 1e 11b 10o 3o 11e 12o 3c 12e 1o 10b 1b 11o 12b 3b",
)
# Online solo by seat 1 of docs/rules.md §11: seats 0 and 2 win tricks 1-3.
SOLO_FAILED_AFTER_3 = rec(
    "online",
    ["10b 3o 11e 11o 10o", "3e 10c 1b 10e 11c", "1c 1o 3c 12e 12o", "12b 3b 1e 12c 11b"],
    "solo pass pass pass 10e 12e 11e 1c 11o 10c 3o 11c 1o",
)
SOLO_MADE_AFTER_4 = rec(
    "online",
    ["11o 12c 12e 3e 11c", "10c 1e 1c 12o 1b", "10o 11e 12b 1o 3b", "11b 10b 10e 3c 3o"],
    "solo pass pass pass 10c 3b 12c 11c 1c 11e 1e 1o 12e 12o 10o 11o",
)
SOLO_FAILED_AFTER_5 = rec(
    "online",
    ["10e 3e 1o 1b 12c", "12b 1c 10o 11e 12e", "10b 11b 11c 3o 11o", "1e 3b 3c 12o 10c"],
    "solo pass pass pass 1c 11c 12c 12b 11b 1b 10e 12e 3o 10o 11o 1o 3e 11e 10b",
)
CUATROLA_MADE_AFTER_4 = rec(
    "online",
    ["3e 1o 1b 11c 10o", "10c 12c 10e 1e 11o", "10b 3b 3o 1c 12b", "11b 12o 11e 12e 3c"],
    "pass cuatrola pass pass 11o 3o 12o 12b 11b 1e 1c 3c 10c 3b 12e 10e",
)
CUATROLA_FAILED_AFTER_3 = rec(
    "online",
    ["11c 1o 10o 1c 3o", "12c 10b 11o 1e 3e", "3c 1b 10c 12e 11b", "12b 11e 10e 3b 12o"],
    "pass cuatrola pass pass 3e 12e 11e 10b 1b 3b 3c 12o 12c",
)
QUINTOLA_MADE = rec(
    "online",
    ["12e 11e 10c 11c 10b", "1o 12o 11o 10o 1e", "10e 3o 3c 12b 3e", "3b 1b 12c 1c 11b"],
    "pass pass quintola pass 3c 1c 11c 1b 10b 12b 3b 12e 3o 11b 11e 10e 12c 10c 3e",
)
QUINTOLA_FAILED_AFTER_1 = rec(
    "online",
    ["10e 12o 12c 1b 12e", "1e 1o 11o 10o 11c", "11b 12b 10c 10b 3o", "3b 3e 1c 3c 11e"],
    "pass pass quintola pass 10b 3b 1b",
)
CLASSIC_SOLO_MADE = rec(
    "classic",
    ["3e 11b 11c 10e 12o", "1c 1o 10b 12e 12c", "3c 1e 3b 1b 11e", "11o 12b 3o 10o 10c"],
    "solo pass pass pass 10b 3b 11b 1b 12o 1o 12e 1e 10e 11e 3e 12c 11c 1c 3c",
)
CLASSIC_SOLO_FAILED = rec(
    "classic",
    ["11e 11o 12o 3c 12b", "11b 1c 12c 1b 10c", "1o 10b 3o 12e 10o", "11c 3b 10e 3e 1e"],
    "solo pass pass pass 10c 10b 3c 10o 12o 11b 1c 1o 12b 11e 1b 12e 12c 3o 11o",
)
# Seat 2 bids solo (seat 0 sits out); 61-61 and the mano (seat 1) is an opponent.
CLASSIC_SOLO_TIE_MANO_OPPONENT = rec(
    "classic",
    ["3e 3o 10e 11o 11c", "3c 10c 1b 12b 11b", "11e 1o 12c 12e 1c", "12o 1e 10o 10b 3b"],
    "pass solo pass pass 11b 1c 10b 12e 1e 10c 1b 12c 3b 11e 12o 3c 12b 1o 10o",
)
# Seat 3 bids solo, so the mano (seat 1) sits out; 50-50.
CLASSIC_SOLO_TIE_MANO_SITS_OUT = rec(
    "classic",
    ["1e 10c 3b 12e 12c", "10o 1o 12b 11c 3c", "10e 10b 1b 12o 11b", "3e 11o 3o 11e 1c"],
    "pass pass solo pass 11b 1c 3b 11o 12c 12o 10c 10e 3o 1e 1b 11e 12e 10b 3e",
)
CLASSIC_SOLO_WITH_DECLARATIONS = rec(
    "classic",
    ["12e 10e 11c 11e 10b", "12b 3b 11b 12o 12c", "10c 10o 3c 3e 1c", "3o 11o 1e 1o 1b"],
    "solo pass pass pass 12o 10o 10b 12e 3b 3e 12c 1c 11c 3c 11e 11b 12b 10c 10e",
)
# Classic pass hand in which pair 0 declares three times.
THREE_DECLARATIONS = rec(
    "classic",
    ["12e 1b 11e 12b 11b", "11c 1o 12c 3c 10b", "10o 1e 12o 11o 3o", "10e 3b 10c 3e 1c"],
    PASSES + "1o 3o 3b 1b 11b 10b 10o 10c 11e 3c 1e 10e 11o 1c 12b 12c 12e 11c 12o 3e",
)
# After trick 1 the winner (seat 2) holds 12o+11o, its partner the trump 40 (espadas).
FORTY_BEFORE_TWENTY = rec(
    "online",
    ["12b 10c 11b 11e 12e", "3b 10b 3c 12c 11c", "11o 1b 12o 1o 3e", "3o 10e 10o 1e 1c"],
    PASSES + "12c 3e 1c 10c 1b 10e 11b 3b 1e 12e 11c 12o 10o 11e 3c 11o 12b 10b 1o 3o",
)
# After trick 1 the winner (seat 0) holds 12e+11e and its partner 12o+11o.
WINNER_BEFORE_PARTNER = rec(
    "online",
    ["11c 11e 12e 1c 3c", "10b 12c 1b 11b 3o", "10o 10c 12o 11o 3b", "12b 3e 1e 10e 1o"],
    PASSES + "10b 3b 12b 11c 3c 12c 10c 3e 11e 11b 10o 1e 1o 1c 3o 11o 12e 1b 12o 10e",
)
# After trick 1 the winner (seat 0) holds 12e+11e and 12b+11b (trumps are oros).
SUIT_ORDER = rec(
    "online",
    ["12b 11b 12e 11e 3o", "1o 3e 11o 1e 12c", "10e 10c 1b 3c 10o", "12o 11c 3b 10b 1c"],
    PASSES + "12c 3c 1c 3o 12b 11o 1b 3b 1o 10o 12o 11b 1e 10e 10b 11e 3e 10c 11c 12e",
)
# Trick 2 is won by seat 1 while its partner (seat 3) plays 11e from 12e+11e.
JUST_PLAYED = rec(
    "online",
    ["1e 10e 11b 10b 1b", "10c 1o 12b 3o 12c", "10o 12o 11o 1c 3e", "3c 3b 11e 12e 11c"],
    PASSES + "1o 11o 3b 1b 1e 12b 3e 11e 3o 10o 3c 11b 10e 12c 1c 12e 11c 10b 10c 12o",
)
# Classic solo by seat 1; seat 3 (sitting out) holds 12b+11b, seat 1 wins a trick.
OUT_SEAT_HOLDS_A_PAIR = rec(
    "classic",
    ["10b 3o 11e 11o 10o", "3e 10c 1b 10e 11c", "1c 1o 3c 12e 12o", "12b 3b 1e 12c 11b"],
    "solo pass pass pass 10c 1c 10o 11o 1b 1o 3c 3o 11c 10b 10e 12o 12e 11e 3e",
)
# Online solo by seat 1 holding 12e+11e; it wins trick 2 still holding both.
ONLINE_SOLO_DECLARER_HOLDS_A_PAIR = rec(
    "online",
    ["12o 11c 3e 1e 1b", "10e 10c 11e 12e 3c", "3o 11o 12c 11b 12b", "3b 10b 1o 10o 1c"],
    "solo pass pass pass 3c 12c 11c 10e 11b 1e 3o 12o 11e 12b 1b 12e",
)
# Online cuatrola by seat 2 holding 12e+11e; it wins trick 1 still holding both.
CUATROLA_DECLARER_HOLDS_A_PAIR = rec(
    "online",
    ["3b 1b 12o 3c 12c", "10b 10c 1e 3o 10o", "10e 11e 11c 1o 12e", "12b 1c 11o 11b 3e"],
    "pass cuatrola pass pass 10o 1o 11o 10e 3e 1e 10b 11c 12b 11e 1c 3o",
)
