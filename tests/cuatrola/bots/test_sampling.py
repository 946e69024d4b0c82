import random

import pytest

from cuatrola.bots.knowledge import Knowledge
from cuatrola.bots.sampling import (
    PLAY_AGREE,
    all_deals,
    bid_weight,
    deal_count,
    play_weight,
    sample_deals,
)
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CARD_BIT, CODE_INDEX, FULL_DECK
from tests.cuatrola.bots.positions import random_positions


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


def _played_by_the_rules(n, seed):
    """Hands where every card so far was the rule-based card (easy without slips)."""
    from cuatrola.bots.easy import choose

    rng = random.Random(seed)
    out = []
    while len(out) < n:
        hand = Hand.deal("online", dealer=rng.randrange(4), seed=rng.randrange(10**9))
        stop = rng.randrange(8, 24)
        while hand.to_play is not None and len(hand.actions) < stop:
            k = Knowledge.from_view(seat_view(hand, hand.to_play))
            action = "pass" if hand.phase == "bidding" else choose(k, rng, mistakes=False)
            hand, _ = hand.apply(action)
        if hand.to_play is not None and hand.phase == "playing":
            out.append(hand)
    return out


def test_deals_that_explain_the_play_seen_weigh_more():
    # Every card so far was the rule-based one, so the true deal explains all of
    # them: it weighs more than most deals consistent with the hard facts (a deal
    # where a card was forced can still weigh more: a forced card is no evidence).
    rng = random.Random(3)
    above = 0
    positions = _played_by_the_rules(40, seed=11)
    for hand in positions:
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        true = [hand.hand_mask(s) for s in range(4)]
        w_true = play_weight(k, true)
        weights = sorted(play_weight(k, h) for h, _ in sample_deals(k, rng, 21, use_bids=False))
        above += w_true >= weights[len(weights) // 2]
        # Weighing by the play keeps every deal consistent with the hard facts.
        for hands, w in sample_deals(k, rng, 6, use_bids=False, use_plays=True):
            _consistent(k, hands)
            assert w > 0
    assert above >= 0.8 * len(positions)


def test_a_card_the_rules_would_play_is_evidence_for_the_hand_behind_it():
    # Pass hand, dealer 0, trumps bastos. Seat 1 leads the sota of oros, not what
    # the rules lead with its real cards (they cash a plain ace). Seen from seat 2,
    # a deal where seat 1 holds no ace, so that the sota is the rules' lead (its
    # cheapest card outside trumps and the king-knight pair), fits better.
    deal = [
        ["1c", "3c", "12c", "11c", "10b"],
        ["1o", "12o", "11o", "10o", "1e"],
        ["12b", "10c", "3e", "12e", "11e"],
        ["3o", "10e", "1b", "3b", "11b"],
    ]
    hand = Hand.from_deal("online", dealer=0, hands=deal)
    for _ in range(4):
        hand, _ = hand.apply("pass")
    hand, _ = hand.apply("10o")
    k = Knowledge.from_view(seat_view(hand, 2))
    true = [hand.hand_mask(s) for s in range(4)]
    alt = list(true)
    aces = CARD_BIT[CODE_INDEX["1o"]] | CARD_BIT[CODE_INDEX["1e"]]
    others = CARD_BIT[CODE_INDEX["3o"]] | CARD_BIT[CODE_INDEX["11b"]]
    alt[1] = true[1] & ~aces | others
    alt[3] = true[3] & ~others | aces
    assert play_weight(k, alt) > play_weight(k, true)
    assert play_weight(k, alt) == pytest.approx(PLAY_AGREE)
    assert play_weight(k, true) == pytest.approx((1 - PLAY_AGREE) / 4)
