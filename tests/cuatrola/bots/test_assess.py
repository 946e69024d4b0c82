"""The coach's search (cuatrola/bots/assess.py): every legal action's expected match
points from a seat view, reproducible, with its error."""

from __future__ import annotations

import pytest

from cuatrola.bots import BotError
from cuatrola.bots.assess import assess
from cuatrola.engine import Hand, public_view, seat_view

from .positions import random_positions

#: Seat 0 (the mano, dealer seat 3) holds the four top trumps and the ace of cups; the
#: last trump, the jack, is the dealer's turned card.
STRONG = [
    ["1o", "3o", "12o", "11o", "1c"],
    ["3c", "12c", "1e", "3e", "12e"],
    ["11c", "11e", "10e", "1b", "3b"],
    ["12b", "11b", "10b", "10c", "10o"],
]


def strong_hand(*bids: str) -> Hand:
    hand = Hand.from_deal("online", 3, STRONG, (0, 0))
    for bid in bids:
        hand, _ = hand.apply(bid)
    return hand


def test_every_legal_action_gets_a_value_and_the_best_is_the_highest():
    a = assess(seat_view(strong_hand(), 0), seed=1, samples=40)
    assert a.actions == ("pass", "solo", "cuatrola", "quintola")
    assert a.best == "quintola"
    assert a.value("quintola") == max(a.values)
    assert a.loss("quintola") == 0
    assert all(a.loss(x) >= 0 for x in a.actions)
    # Four top trumps: every contract is made on every deal (its value, exactly).
    assert (a.value("solo"), a.value("cuatrola"), a.value("quintola")) == (2.0, 4.0, 5.0)


def test_the_same_view_seed_and_samples_give_the_same_figures():
    for hand in random_positions(12, seed=5):
        view = seat_view(hand, hand.to_play)
        assert assess(view, seed=3, samples=24) == assess(view, seed=3, samples=24)


def test_a_lead_that_risks_the_contract_costs_what_it_risks():
    # Quintola bid: a trump first draws the dealer's jack of trumps; the ace of cups
    # first loses the contract whenever the dealer has no cup to follow with.
    hand = strong_hand("quintola", "pass", "pass", "pass")
    a = assess(seat_view(hand, 0), seed=2, samples=80)
    for trump in ("1o", "3o", "12o", "11o"):
        assert a.value(trump) == 5.0
    assert 0 < a.value("1c") < 5.0
    assert a.loss("1c") == pytest.approx(5.0 - a.value("1c"))
    assert a.error("1c") > 0


def test_a_forced_action_is_not_searched():
    hand = strong_hand("pass", "pass", "pass", "pass")
    while len(hand.legal_actions()) > 1:
        hand, _ = hand.apply(hand.legal_actions()[0])
    a = assess(seat_view(hand, hand.to_play), seed=1)
    assert a.forced and a.deals == 0 and a.actions == hand.legal_actions()


def test_late_in_a_hand_every_consistent_deal_is_weighed_with_no_error():
    hand = strong_hand("pass", "pass", "pass", "pass")
    while len(hand.tricks) < 3 or len(hand.legal_actions()) < 2:
        hand, _ = hand.apply(hand.legal_actions()[-1])
        if hand.to_play is None:
            pytest.skip("no choice left in this hand")
    a = assess(seat_view(hand, hand.to_play), seed=1, samples=400)
    assert a.exact and all(e == 0 for e in a.errors)


def test_it_reads_a_seat_view_only():
    hand = strong_hand()
    with pytest.raises(BotError) as public:
        assess(public_view(hand), seed=1)
    assert public.value.code == "not_a_seat_view"
    with pytest.raises(BotError) as waiting:
        assess(seat_view(hand, 1), seed=1)
    assert waiting.value.code == "nothing_to_play"
    a = assess(seat_view(hand, 0), seed=1, samples=8)
    with pytest.raises(BotError) as illegal:
        a.loss("1b")
    assert illegal.value.code == "not_legal"
