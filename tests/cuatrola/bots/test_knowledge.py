from cuatrola.bots.knowledge import Knowledge
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CODE_INDEX, SUIT_MASK
from tests.cuatrola.bots.positions import random_positions


def test_the_true_hands_always_fit_what_the_seat_infers():
    # Inferences must be sound: a seat never rules out a card another seat holds.
    for hand in random_positions(300, seed=21):
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        for s in range(4):
            if s == k.seat:
                assert k.own == hand.hand_mask(s)
                continue
            assert hand.hand_mask(s) & k.forbidden[s] == 0
            assert k.known[s] & ~hand.hand_mask(s) == 0


def test_failing_to_follow_suit_shows_a_void_and_the_dealer_holds_the_trump_card():
    # Trumps bastos (dealer 0's fifth card). Seat 1 leads 3o; seat 2 has no oros and trumps.
    deal = [
        ["1c", "3c", "12c", "11c", "10b"],
        ["3o", "12o", "11o", "10o", "1e"],
        ["12b", "10c", "3e", "12e", "11e"],
        ["1o", "10e", "1b", "3b", "11b"],
    ]
    hand = Hand.from_deal("online", dealer=0, hands=deal)
    for _ in range(4):
        hand, _ = hand.apply("pass")
    hand, _ = hand.apply("3o")
    hand, _ = hand.apply("12b")
    k = Knowledge.from_view(seat_view(hand, 3))
    assert k.forbidden[2] & SUIT_MASK[0] == SUIT_MASK[0]
    assert k.known[0] == 1 << CODE_INDEX["10b"]
    assert k.trick == [(1, CODE_INDEX["3o"]), (2, CODE_INDEX["12b"])]


def test_a_seat_that_does_not_overtake_cannot_hold_a_higher_card():
    checked = 0
    for hand in random_positions(400, seed=5):
        plays = hand.current_trick
        if len(plays) >= 2 and plays[1][1][-1] == plays[0][1][-1]:
            first, second = CODE_INDEX[plays[0][1]], CODE_INDEX[plays[1][1]]
            trump = "oceb".index(hand.trump_suit)
            if second > first and first // 5 != trump:
                k = Knowledge.from_view(seat_view(hand, hand.to_play))
                higher = SUIT_MASK[first // 5] & ((1 << first) - 1)
                if plays[1][0] != k.seat:
                    assert k.forbidden[plays[1][0]] & higher == higher
                    checked += 1
    assert checked > 0
