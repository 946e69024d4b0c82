"""The other side of the coach's search (cuatrola/bots/assess.py, `perfect`): every legal
card scored on the real deal, every hand seen, for the fair-play screen."""

from __future__ import annotations

import pytest

from cuatrola.bots import BotError
from cuatrola.bots.assess import perfect
from cuatrola.engine import Hand, seat_view

from .positions import random_positions
from .test_assess import STRONG, strong_hand


def hands_of(hand: Hand) -> list[tuple[str, ...]]:
    return [hand.hand_of(seat) for seat in range(4)]


def test_a_trick_contract_scores_each_card_made_or_broken_by_its_value():
    # Quintola by seat 0. On this deal the dealer holds a cup: the ace of cups first is
    # as good as a trump, though the seat, not knowing it, rates it lower.
    hand = strong_hand("quintola", "pass", "pass", "pass")
    deal = perfect(seat_view(hand, 0), hands_of(hand))
    assert deal.unit == "tricks"
    assert deal.actions == ("1o", "3o", "12o", "11o", "1c")
    assert deal.values == (5.0,) * 5
    # Give the dealer's cup to the partner, who sits out: now the dealer trumps the ace
    # of cups with the jack of trumps and breaks the quintola; a trump first draws it.
    void = [list(cards) for cards in STRONG]
    void[2][2], void[3][3] = "10c", "10e"
    hand = Hand.from_deal("online", 3, void, (0, 0))
    for bid in ("quintola", "pass", "pass", "pass"):
        hand, _ = hand.apply(bid)
    deal = perfect(seat_view(hand, 0), hands_of(hand))
    assert deal.values == (5.0, 5.0, 5.0, 5.0, -5.0)


def test_a_hand_for_points_scores_each_card_by_the_final_point_difference():
    hand = strong_hand("pass", "pass", "pass", "pass")
    deal = perfect(seat_view(hand, 0), hands_of(hand))
    assert deal.unit == "points"
    assert deal.actions == hand.legal_actions()
    # Point differences of a whole hand: 120 card points, the last trick's 10 and
    # declarations between the pairs, each an even-sided split of what was won.
    assert all(float(v).is_integer() and -400 < v < 400 for v in deal.values)
    assert len(set(deal.values)) > 1


def test_each_cards_value_is_what_best_play_leaves_after_it():
    """Negamax: after a card, the next seat's best on the whole deal is that card's
    value, from the other pair's side when the next seat is an opponent."""
    checked = 0
    for hand in random_positions(200, seed=9):
        if hand.phase == "bidding" or len(hand.legal_actions()) < 2:
            continue
        seat = hand.to_play
        deal = perfect(seat_view(hand, seat), hands_of(hand))
        for card, value in zip(deal.actions, deal.values, strict=True):
            after, _ = hand.apply(card)
            nxt = after.to_play
            if nxt is None or len(after.legal_actions()) < 2:
                continue
            best = max(perfect(seat_view(after, nxt), hands_of(after)).values)
            assert value == (best if nxt % 2 == seat % 2 else -best)
            checked += 1
    assert checked > 20


def test_bids_are_not_scored_on_the_whole_deal():
    hand = strong_hand()
    with pytest.raises(BotError) as refused:
        perfect(seat_view(hand, 0), hands_of(hand))
    assert refused.value.code == "bidding"


@pytest.mark.parametrize(
    "swap",
    [
        lambda h: [h[1], h[0], h[2], h[3]],  # not this seat's cards
        lambda h: [h[0], h[3], h[2], h[1]],  # the dealer's turned card elsewhere
        lambda h: h[:3],  # three hands
        lambda h: [h[0], h[1], h[2], (*h[3][:-1], "1o")],  # a card twice
        lambda h: [h[0], h[1], h[2], ("99x",)],  # not a card
        lambda h: [h[0], h[1], h[2], (7,)],  # not a card code
    ],
)
def test_hands_that_are_not_the_views_deal_are_refused(swap):
    hand = strong_hand("pass", "pass", "pass", "pass")
    with pytest.raises(BotError) as refused:
        perfect(seat_view(hand, 0), swap(hands_of(hand)))
    assert refused.value.code == "not_this_deal"
