"""Random positions (hands part-played at random) for the bot tests."""

from __future__ import annotations

import random

from cuatrola.engine import Hand


def random_positions(n: int, seed: int) -> list[Hand]:
    """`n` hands stopped at a random point, with random scores (so caps apply), both rule sets."""
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        rules = rng.choice(("online", "classic"))
        target = 21 if rules == "online" else 11
        scores = (rng.randrange(target), rng.randrange(target))
        hand = Hand.deal(rules, dealer=rng.randrange(4), seed=rng.randrange(10**9), scores=scores)
        stop = rng.randrange(24)
        while hand.to_play is not None and len(hand.actions) < stop:
            hand, _ = hand.apply(rng.choice(hand.legal_actions()))
        if hand.to_play is not None:
            out.append(hand)
    return out
