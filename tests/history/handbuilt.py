"""A match record built by hand, whose every figure is counted by hand below.

Trumps are oros in all three hands; each seat holds one whole suit.

Hand 1 (dealer 1): seat 1 holds every oro and bids quintola; seat 3 sits out. Seat 1
trumps the first trick and leads trumps to the end: quintola made. Seats 0 and 2
defended and did not break it.

Hand 2 (dealer 2): everybody passes. Seat 2 holds every oro, trumps the first trick
and wins all five: 120 card points and the last trick. Pair 0 declares 40 in oros
(seat 2, after trick 1) and 20 in espadas (seat 0, after trick 2).

Hand 3 (dealer 3): seat 0 bids solo with copas; seat 2 sits out. Seat 3 holds every
oro and wins the first three tricks: the solo is broken by seats 1 and 3.

Hand 4 is dealt and not played (it counts for nobody).
"""

COPAS = ["1c", "3c", "12c", "11c", "10c"]
OROS = ["1o", "3o", "12o", "11o", "10o"]
ESPADAS = ["1e", "3e", "12e", "11e", "10e"]
BASTOS = ["1b", "3b", "12b", "11b", "10b"]

RECORD = {
    "format": 1,
    "rules": "online",
    "seed": 7,
    "first_dealer": 1,
    "hands": [
        {
            "rules": "online",
            "dealer": 1,
            "scores": [0, 0],
            "deal": [COPAS, OROS, ESPADAS, BASTOS],
            "trump": "10o",
            "actions": [
                *["pass", "pass", "pass", "quintola"],
                *["1e", "1c", "3o"],
                *["1o", "3e", "3c"],
                *["12o", "12e", "12c"],
                *["11o", "11e", "11c"],
                *["10o", "10e", "10c"],
            ],
        },
        {
            "rules": "online",
            "dealer": 2,
            "scores": [0, 5],
            "deal": [ESPADAS, BASTOS, OROS, COPAS],
            "trump": "10o",
            "actions": [
                *["pass", "pass", "pass", "pass"],
                *["1c", "1e", "1b", "10o"],
                *["1o", "3c", "3e", "3b"],
                *["3o", "12c", "10e", "12b"],
                *["12o", "11c", "12e", "11b"],
                *["11o", "10c", "11e", "10b"],
            ],
        },
        {
            "rules": "online",
            "dealer": 3,
            "scores": [2, 5],
            "deal": [COPAS, BASTOS, ESPADAS, OROS],
            "trump": "10o",
            "actions": [
                *["solo", "pass", "pass", "pass"],
                *["1c", "1b", "10o"],
                *["1o", "3c", "3b"],
                *["3o", "12c", "12b"],
            ],
        },
        # Dealt, not played: a record's last hand is the one in progress.
        {
            "rules": "online",
            "dealer": 0,
            "scores": [2, 7],
            "deal": [OROS, COPAS, ESPADAS, BASTOS],
            "trump": "10o",
            "actions": [],
        },
    ],
}

ZERO = {
    "hands": 0,
    "solo_bids": 0,
    "solo_played": 0,
    "solo_made": 0,
    "cuatrola_bids": 0,
    "cuatrola_played": 0,
    "cuatrola_made": 0,
    "quintola_bids": 0,
    "quintola_played": 0,
    "quintola_made": 0,
    "defended": 0,
    "broken": 0,
    "pass_hands": 0,
    "pass_card_points": 0,
    "pass_last_tricks": 0,
    "declared_40": 0,
    "declared_20": 0,
}

# Counted by hand from the story above.
FIGURES = {
    0: {
        **ZERO,
        "hands": 3,
        "defended": 1,  # hand 1
        "pass_hands": 1,
        "declared_20": 1,  # hand 2
        "solo_bids": 1,  # hand 3, failed
        "solo_played": 1,
    },
    1: {
        **ZERO,
        "hands": 3,
        "quintola_bids": 1,  # hand 1, made
        "quintola_played": 1,
        "quintola_made": 1,
        "pass_hands": 1,
        "defended": 1,  # hand 3, broken
        "broken": 1,
    },
    2: {
        **ZERO,
        "hands": 3,
        "defended": 1,  # hand 1
        "pass_hands": 1,
        "pass_card_points": 120,  # hand 2: every trick
        "pass_last_tricks": 1,
        "declared_40": 1,
        # hand 3: sits out
    },
}
SCORES_AFTER = [(0, 5), (2, 5), (2, 7)]
