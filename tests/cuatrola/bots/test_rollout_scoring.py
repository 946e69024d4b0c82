"""The medium bot's rollouts score a hand as the engine does.

`search._rollout` plays a hand out with the rule-based policy and scores it with
its own fast bookkeeping (trick winners, card points, the last-trick bonus,
declarations, ties, the pass-hand bonus). This replays every rollout's cards
through the engine and checks that the rollout's score is the engine's result:
+1 / -1 for the rolling-out seat's pair winning or losing a contract (its value is
the same whatever is played), and ± the engine's match points in a pass hand.
"""

from __future__ import annotations

import random

from cuatrola.bots import search
from cuatrola.bots.knowledge import Knowledge
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CARD_CODES, cards_of

HANDS = 10_000


def _random_position(rng: random.Random, n: int) -> Hand:
    """A random deal and bidding (either rule set), then up to 18 random cards, short of
    the end of the hand."""
    rules = "classic" if n % 2 else "online"
    hand = Hand.deal(rules, dealer=rng.randrange(4), seed=rng.random())
    while hand.phase == "bidding":
        legal = hand.legal_actions()
        hand, _ = hand.apply(rng.choice(legal) if rng.random() < 0.35 else "pass")
    for _ in range(rng.randrange(0, 19)):
        after, _ = hand.apply(rng.choice(hand.legal_actions()))
        if after.is_over:
            break
        hand = after
    return hand


def test_rollout_scores_equal_the_engines_on_ten_thousand_random_hands(monkeypatch):
    policy_cards: list[int] = []
    policy = search.rule_based_card

    def recorded(*args: object) -> int:
        card = policy(*args)
        policy_cards.append(card)
        return card

    monkeypatch.setattr(search, "rule_based_card", recorded)
    rng = random.Random(20)
    checked = 0
    seen: set[tuple[str, str | None, int]] = set()
    while checked < HANDS:
        hand = _random_position(rng, checked)
        seat = hand.to_play
        k = Knowledge.from_view(seat_view(hand, seat))
        hands = [hand.hand_mask(s) for s in range(4)]
        moves = list(cards_of(k.legal_mask()))
        move = rng.choice(moves) if rng.random() < 0.8 else -1
        policy_cards.clear()
        score = search._rollout(k, hands, seat, move)
        cards = ([move] if move >= 0 else []) + policy_cards
        end = hand
        for card in cards:
            end, _ = end.apply(CARD_CODES[card])
        # A rollout stops once a contract is decided on tricks; the rest changes nothing.
        while not end.is_over:
            assert hand.contract is not None
            end, _ = end.apply(end.legal_actions()[0])
        result = end.result
        assert result is not None
        sign = 1 if result.scoring_pair == seat & 1 else -1
        expected = sign * (result.match_points if result.kind == "pass" else 1)
        assert score == expected, (hand.to_dict(), CARD_CODES[move] if move >= 0 else None)
        seen.add((hand.rules.name, result.contract, result.match_points))
        checked += 1
    # Pass hands with and without the bonus, each contract, both rule sets.
    assert len(seen) >= 8, seen
