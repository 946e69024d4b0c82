import random

from games.bots.knowledge import Knowledge
from games.bots.sampling import all_deals, bid_weight, deal_count, sample_deals
from games.engine import Hand, seat_view
from games.engine.core import FULL_DECK
from tests.bots.positions import random_positions


def _consistent(k, hands):
    assert hands[k.seat] == k.own
    seen = k.played
    for s in range(4):
        assert hands[s] & seen == 0
        if s != k.seat:
            assert hands[s].bit_count() == k.hand_sizes[s]
            assert hands[s] & k.forbidden[s] == 0
            assert k.known[s] & ~hands[s] == 0
    union = 0
    for h in hands:
        assert union & h == 0
        union |= h
    assert union | seen == FULL_DECK


def test_sampled_deals_respect_everything_the_seat_knows():
    rng = random.Random(1)
    for hand in random_positions(120, seed=8):
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        deals = sample_deals(k, rng, 6, use_bids=True)
        assert deals
        for hands, weight in deals:
            _consistent(k, hands)
            assert weight >= 0


def test_enumeration_lists_the_true_deal_once():
    found = 0
    for hand in random_positions(200, seed=9):
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        if deal_count(k) > 400:
            continue
        true = [hand.hand_mask(s) for s in range(4)]
        deals = list(all_deals(k))
        assert deals.count(true) == 1
        for hands in deals:
            _consistent(k, hands)
        found += 1
    assert found > 10


def test_a_seat_that_passed_is_unlikely_to_hold_a_very_strong_hand():
    # Seat 1 (the mano) passed; seat 2 speaks. Deals giving seat 1 all the top
    # trumps fit that pass worse than deals giving it nothing.
    deal = [
        ["1c", "3c", "12c", "11c", "10b"],
        ["3o", "12o", "11o", "10o", "1e"],
        ["12b", "10c", "3e", "12e", "11e"],
        ["1o", "10e", "1b", "3b", "11b"],
    ]
    hand = Hand.from_deal("online", dealer=0, hands=deal)
    hand, _ = hand.apply("pass")
    k = Knowledge.from_view(seat_view(hand, 2))
    weak = [hand.hand_mask(s) for s in range(4)]
    strong = list(weak)
    # Swap seat 1's oros for seat 3's top trumps and ace of oros.
    strong[1], strong[3] = weak[3] & ~(1 << 0), weak[1] | (1 << 0)
    strong[1] |= 1 << 1  # keep five cards: 3o stays with seat 1
    strong[3] &= ~(1 << 1)
    assert bid_weight(k, strong) < bid_weight(k, weak)
