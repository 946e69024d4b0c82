"""Hard's defence of trick contracts: information-set MCTS (`cuatrola.bots.ismcts`)."""

import random
import time

import pytest

from cuatrola.bots import choose_action
from cuatrola.bots.ismcts import search
from cuatrola.bots.knowledge import Knowledge
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CODE_INDEX, cards_of


def defence_positions(n: int) -> list[Hand]:
    """Online solos part-played, a defender to move with a choice of cards."""
    out = []
    seed = 0
    while len(out) < n:
        seed += 1
        rng = random.Random(seed)
        hand = Hand.deal("online", dealer=rng.randrange(4), seed=seed)
        hand, _ = hand.apply("solo")
        for _ in range(3):
            hand, _ = hand.apply("pass")
        for _ in range(rng.randrange(7)):
            if hand.is_over:
                break
            hand, _ = hand.apply(rng.choice(hand.legal_actions()))
        if (
            not hand.is_over
            and hand.to_play % 2 != hand.declarer % 2
            and len(hand.legal_actions()) > 1
        ):
            out.append(hand)
    return out


@pytest.mark.parametrize("hand", defence_positions(6))
def test_the_defence_plays_a_legal_card_the_same_way_for_a_seed(hand):
    view = seat_view(hand, hand.to_play)
    action = choose_action(view, level="hard", seed=5, time_budget_ms=40)
    assert action in hand.legal_actions()
    assert choose_action(view, level="hard", seed=5, time_budget_ms=40) == action


def test_the_search_scores_only_the_moves_it_is_given():
    hand = defence_positions(1)[0]
    k = Knowledge.from_view(seat_view(hand, hand.to_play))
    moves = [CODE_INDEX[c] for c in hand.legal_actions()]
    allowed = moves[:1] if len(moves) == 1 else moves[1:]
    stats = search(k, random.Random(1), allowed, 500, time.perf_counter() + 60)
    assert stats and set(stats) <= set(allowed)
    assert sum(visits for visits, _ in stats.values()) == 500
    assert all(0.0 <= share <= 1.0 for _, share in stats.values())


def test_the_clock_stops_a_search_that_overruns():
    hand = defence_positions(1)[0]
    k = Knowledge.from_view(seat_view(hand, hand.to_play))
    moves = list(cards_of(k.legal_mask()))
    stats = search(k, random.Random(1), moves, 10**9, time.perf_counter())
    assert stats is not None
    # The clock is read before every 256th iteration: 255 ran before it said stop.
    assert sum(visits for visits, _ in stats.values()) == 255
