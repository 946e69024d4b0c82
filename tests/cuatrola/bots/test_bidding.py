"""The bid decision of the search levels: estimates (`bid_estimate`), then the choice."""

import random

import pytest

from cuatrola.bots.knowledge import Knowledge
from cuatrola.bots.search import BidEstimate, bid_estimate, bid_from_estimate
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import SUIT_MASK, cards_of

VALUES = (0, 2, 4, 5)


def test_no_estimate_means_pass():
    assert bid_from_estimate(VALUES, None, "hard") == "pass"


def test_the_bid_with_the_best_expected_points_wins():
    # Solo: 2 * (2 * 0.9 - 1) = 1.6 beats passing (0.5) and a cuatrola at 0.2 (+0.15).
    assert bid_from_estimate(VALUES, BidEstimate(0.5, {1: 0.9, 2: 0.2, 3: 0.0}), "hard") == "solo"
    # Cuatrola at 0.85 (+0.15 for hard) is worth 4; the sure solo only 2.
    estimate = BidEstimate(0.5, {1: 1.0, 2: 0.85, 3: 0.1})
    assert bid_from_estimate(VALUES, estimate, "hard") == "cuatrola"


def test_passing_wins_when_it_is_worth_more():
    assert bid_from_estimate(VALUES, BidEstimate(1.7, {1: 0.9, 2: 0.1, 3: 0.0}), "hard") == "pass"


def test_medium_needs_its_margin_and_discount():
    # Solo at 0.7: hard values it 0.8 > 0.7; medium 2 * (2 * 0.65 - 1) = 0.6 < 0.7 + 0.1.
    estimate = BidEstimate(0.7, {1: 0.7})
    assert bid_from_estimate(VALUES, estimate, "hard") == "solo"
    assert bid_from_estimate(VALUES, estimate, "medium") == "pass"


def _first_view_with(predicate, seeds=range(200)):
    for seed in seeds:
        hand = Hand.deal("online", dealer=3, seed=seed)
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        if predicate(k):
            return k
    raise AssertionError("no such hand in the seeds tried")


def test_a_hopeless_hand_is_not_searched():
    # At most one trump and no ace.
    def hopeless(k):
        aces = sum(1 for c in cards_of(k.own) if c % 5 == 0)
        return (k.own & SUIT_MASK[k.trump_suit]).bit_count() <= 1 and aces == 0

    k = _first_view_with(hopeless)
    assert bid_estimate(k, random.Random(1), "hard", 400) is None


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_estimates_cover_every_legal_bid(level):
    k = _first_view_with(lambda k: (k.own & SUIT_MASK[k.trump_suit]).bit_count() >= 2)
    estimate = bid_estimate(k, random.Random(1), level, 100)
    assert estimate is not None
    assert set(estimate.chances) == {1, 2, 3}
    assert all(0.0 <= p <= 1.0 for p in estimate.chances.values())
    # Higher contracts are never likelier to be made.
    assert estimate.chances[1] >= estimate.chances[2] >= estimate.chances[3]
