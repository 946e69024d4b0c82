"""A bot decides from its seat's view alone: hidden cards cannot change its choice."""

import random

import pytest

from cuatrola.bots import LEVELS, choose_action
from cuatrola.engine import Hand, seat_view


def _swap_hidden(hand: Hand, seat: int, rng: random.Random) -> Hand:
    """The same hand with one card swapped between two other seats (not the trump card)."""
    deal = [list(cards) for cards in hand.dealt_hands]
    a, b = rng.sample([s for s in range(4) if s != seat], 2)
    i = rng.randrange(4 if a == hand.dealer else 5)
    j = rng.randrange(4 if b == hand.dealer else 5)
    deal[a][i], deal[b][j] = deal[b][j], deal[a][i]
    other = Hand.from_deal(hand.rules, hand.dealer, deal, hand.scores)
    for action in hand.actions:
        other, _ = other.apply(action)
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_cards_do_not_change_the_choice(level):
    rng = random.Random(2)
    for n in range(6):
        hand = Hand.deal("online", dealer=n % 4, seed=100 + n)
        if n % 2:
            for _ in range(4):
                hand, _ = hand.apply("pass")
        seat = hand.to_play
        other = _swap_hidden(hand, seat, rng)
        view = seat_view(hand, seat)
        assert seat_view(other, seat) == view
        assert [hand.hand_of(s) for s in range(4)] != [other.hand_of(s) for s in range(4)]
        first = choose_action(view, level=level, seed=n)
        assert choose_action(seat_view(other, seat), level=level, seed=n) == first
