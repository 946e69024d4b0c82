"""Playing tricks (docs/rules.md §3, §5 and the worked examples of §11).

Dealer 0 in every deal here, so seat 1 is the mano and leads the first trick;
the dealer's fifth card is the trump card.
"""

from __future__ import annotations

import pytest

from cuatrola.engine import (
    CardNotHeld,
    Hand,
    IllegalCard,
    MalformedAction,
    NotYourTurn,
    WrongPhase,
)
from cuatrola.engine.events import CardPlayed, TrickWon

from .util import hand_after, play_out

# Trumps bastos (dealer's fifth card 10b); seat 2 holds 1o 10o 12b 11c 3e.
EXAMPLE_1 = ["10e 1b 3b 11b 10b", "3o 12o 1c 3c 10c", "1o 10o 12b 11c 3e", "11o 12c 1e 12e 11e"]
# Seat 2 holds 10o 12o 12b 11c 3e.
EXAMPLE_2 = ["10e 1b 3b 11b 10b", "3o 1o 1c 3c 10c", "10o 12o 12b 11c 3e", "11o 12c 1e 12e 11e"]
# Seat 2 holds 12b 10b 1c 3e 11c (no oros).
EXAMPLE_3 = ["10e 12e 1b 3b 11b", "3o 12o 1o 11o 10o", "12b 10b 1c 3e 11c", "3c 12c 10c 1e 11e"]


def test_seat_2_must_play_the_only_oro_that_beats_the_three() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass 3o")
    assert hand.trump_suit == "b"
    assert hand.to_play == 2
    assert hand.legal_actions() == ("1o",)
    with pytest.raises(IllegalCard, match="1o must be played to overtake 3o") as refused:
        hand.apply("10o")
    assert refused.value.code == "must_overtake"
    assert dict(refused.value.params) == {"card": "10o", "allowed": ["1o"], "winning": "3o"}
    assert hand.refusal("10o").as_dict() == refused.value.as_dict()
    assert hand.refusal("1o") is None


def test_with_no_oro_beating_the_three_seat_2_may_play_either_oro() -> None:
    hand = hand_after(EXAMPLE_2, "pass pass pass pass 3o")
    assert hand.legal_actions() == ("12o", "10o")
    with pytest.raises(IllegalCard, match="follow suit") as refused:
        hand.apply("12b")
    assert (refused.value.code, refused.value.params["suit"]) == ("must_follow", "o")


def test_void_in_oros_seat_2_must_trump() -> None:
    hand = hand_after(EXAMPLE_3, "pass pass pass pass 3o")
    assert hand.legal_actions() == ("12b", "10b")
    with pytest.raises(IllegalCard, match=r"void in suit o, a trump \(suit b\) is required") as no:
        hand.apply("1c")
    assert (no.value.code, no.value.params["suit"]) == ("must_trump", "b")


# 12o led by seat 1, seat 2 (void in oros) trumps with 10b.
HOLDING_OROS_AFTER_A_TRUMP = [
    "1e 11e 3b 12b 11b",
    "12o 3o 10o 10c 12e",
    "10b 1c 3c 12c 11c",
    "1o 11o 1b 3e 10e",
]
NO_OROS_MUST_OVERTRUMP = [
    "10c 12e 11e 3b 12b",
    "12o 3o 10o 1o 11o",
    "10b 1c 3c 12c 11c",
    "1b 11b 3e 10e 1e",
]
NO_OROS_NO_TRUMPS = [
    "12e 1b 3b 12b 11b",
    "12o 1o 3o 11o 10o",
    "10b 1c 3c 11c 10c",
    "3e 12c 1e 10e 11e",
]
CANNOT_OVERTRUMP = [
    "12e 11e 10e 1b 3b",
    "12o 1o 3o 11o 10o",
    "12b 1c 3c 12c 11c",
    "11b 10b 3e 1e 10c",
]


def test_holding_the_suit_led_after_a_trump_any_card_of_it_will_do() -> None:
    hand = hand_after(HOLDING_OROS_AFTER_A_TRUMP, "pass pass pass pass 12o 10b")
    assert hand.legal_actions() == ("1o", "11o")


def test_void_in_the_suit_led_after_a_trump_one_must_over_trump() -> None:
    hand = hand_after(NO_OROS_MUST_OVERTRUMP, "pass pass pass pass 12o 10b")
    assert hand.legal_actions() == ("1b", "11b")
    with pytest.raises(IllegalCard, match="over-trump 10b") as refused:
        hand.apply("3e")
    assert (refused.value.code, refused.value.params["winning"]) == ("must_overtrump", "10b")


def test_void_in_the_suit_led_and_in_trumps_any_card() -> None:
    hand = hand_after(NO_OROS_NO_TRUMPS, "pass pass pass pass 12o 10b")
    assert hand.legal_actions() == ("12c", "1e", "3e", "11e", "10e")


def test_unable_to_over_trump_any_card_may_be_played() -> None:
    hand = hand_after(CANNOT_OVERTRUMP, "pass pass pass pass 12o 12b")
    assert hand.legal_actions() == ("10c", "1e", "3e", "11b", "10b")


def test_obligations_hold_even_when_the_partner_is_winning() -> None:
    # Seat 1 leads 3o; seat 3, partner of seat 1, must still overtake with 1o.
    deal = ["10e 1b 3b 11b 10b", "3o 12o 1c 3c 10c", "11o 12c 1e 12e 11e", "1o 10o 12b 11c 3e"]
    hand = hand_after(deal, "pass pass pass pass 3o 11o")
    assert hand.to_play == 3
    assert hand.legal_actions() == ("1o",)


def test_the_highest_trump_wins_and_leads_next() -> None:
    hand = hand_after(HOLDING_OROS_AFTER_A_TRUMP, "pass pass pass pass 12o 10b 1o")
    assert hand.legal_actions() == ("3b", "12b", "11b")
    hand, events = hand.apply("3b")
    assert events[0] == CardPlayed(0, "3b")
    assert events[1] == TrickWon(0, 1, 1, ("12o", "10b", "1o", "3b"), 4 + 2 + 11 + 10)
    assert hand.to_play == 0
    assert hand.trick_leader == 0
    assert hand.tricks_won == (1, 0, 0, 0)


def test_with_no_trump_the_highest_card_of_the_suit_led_wins() -> None:
    deal = ["1c 12e 11e 3b 10b", "12c 3o 12o 1o 11o", "3c 10o 12b 11b 1b", "11c 10c 1e 3e 10e"]
    hand = hand_after(deal, "pass pass pass pass 12c 3c 11c")
    hand, events = hand.apply("1c")
    assert events[1] == TrickWon(0, 1, 1, ("12c", "3c", "11c", "1c"), 4 + 10 + 3 + 11)


def test_the_first_trick_is_led_by_the_mano() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass")
    assert hand.to_play == hand.mano == 1
    with pytest.raises(NotYourTurn) as refused:
        hand.apply("1o", seat=2)
    assert refused.value.as_dict() == {"code": "not_your_turn", "params": {"seat": 2, "turn": 1}}


def test_in_a_contract_hand_tricks_have_three_cards_and_skip_the_seat_out() -> None:
    hand = hand_after(EXAMPLE_1, "solo pass pass pass")  # seat 1 declares, seat 3 out
    assert hand.sitting_out == 3
    hand = play_out(hand, "3o 1o")
    assert hand.to_play == 0
    hand, events = hand.apply("1b")
    assert isinstance(events[-1], TrickWon)
    assert len(events[-1].cards) == 3
    assert hand.to_play == 0  # seat 0 trumped and won; seat 3 never plays
    hand = play_out(hand, "3b 12o")
    assert hand.to_play == 2


def test_a_card_not_held_is_refused() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass")
    with pytest.raises(CardNotHeld, match="seat 1 does not hold 1o") as refused:
        hand.apply("1o")
    assert refused.value.as_dict() == {"code": "card_not_held", "params": {"seat": 1, "card": "1o"}}


def test_a_bid_while_playing_is_the_wrong_phase() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass")
    with pytest.raises(WrongPhase) as refused:
        hand.apply("solo")
    assert refused.value.code == "bidding_over"


@pytest.mark.parametrize("bad", ["", "13o", "pasar", "1O", None, 3, ["1o"], {"card": "1o"}])
def test_garbage_is_malformed(bad: object) -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass")
    with pytest.raises(MalformedAction) as refused:
        hand.apply(bad)  # type: ignore[arg-type]
    assert refused.value.code == "malformed_action"
    assert refused.value.params["action"] == (bad if isinstance(bad, str) else repr(bad))


def test_a_refused_action_changes_nothing() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass 3o")
    before = hand.to_dict()
    for bad in ("10o", "1c", "solo", "zz"):
        with pytest.raises(ValueError):
            hand.apply(bad)
    assert hand.to_dict() == before
    assert hand.legal_actions() == ("1o",)


def test_nothing_applies_once_the_hand_is_over() -> None:
    hand = Hand.deal("online", 0, seed=1)
    while hand.to_play is not None:
        hand, _ = hand.apply(hand.legal_actions()[-1])
    assert hand.legal_actions() == ()
    with pytest.raises(WrongPhase) as refused:
        hand.apply("pass")
    assert refused.value.code == "hand_over"
    with pytest.raises(WrongPhase) as refused:
        hand.apply("1o", seat=0)
    assert refused.value.code == "hand_over"


def test_the_trump_card_is_the_dealers_fifth_card_and_is_played_like_any_other() -> None:
    hand = hand_after(EXAMPLE_1, "pass pass pass pass 3o 1o 11o")
    assert hand.trump_card == "10b"
    assert hand.dealer_holds_trump_card
    # Seat 0 (dealer) is void in oros and must trump: the trump card is one option.
    assert "10b" in hand.legal_actions()
    hand, _ = hand.apply("10b")
    assert not hand.dealer_holds_trump_card


def test_a_dealer_who_sits_out_keeps_the_trump_card() -> None:
    # Seat 2 declares, so the dealer (seat 0) sits out.
    hand = hand_after(EXAMPLE_1, "pass solo pass pass")
    assert hand.sitting_out == 0
    while hand.to_play is not None:
        hand, _ = hand.apply(hand.legal_actions()[0])
        assert hand.dealer_holds_trump_card
    assert "10b" in hand.hand_of(0)


def test_dealing_goes_one_card_at_a_time_from_the_mano_and_the_20th_to_the_dealer() -> None:
    import random

    from cuatrola.engine import CARD_CODES, deal_cards
    from cuatrola.engine.hand import shuffled_deck

    deck = [CARD_CODES[c] for c in shuffled_deck(random.Random(99))]
    assert sorted(deck) == sorted(CARD_CODES)
    hands = deal_cards(random.Random(99), dealer=2)
    assert hands[3] == tuple(deck[0::4])  # mano first
    assert hands[2] == tuple(deck[3::4])  # dealer last
    assert hands[2][4] == deck[19]
    assert Hand.from_deal("online", 2, hands).trump_card == deck[19]


def test_a_seeded_deal_is_reproducible_and_seeds_differ() -> None:
    assert Hand.deal("online", 1, seed=5).dealt_hands == Hand.deal("online", 1, seed=5).dealt_hands
    deals = {Hand.deal("online", 1, seed=s).dealt_hands for s in range(50)}
    assert len(deals) == 50


def test_the_shuffle_puts_every_card_first_about_equally_often() -> None:
    import random

    from cuatrola.engine.hand import shuffled_deck

    rng = random.Random(2026)
    counts = [0] * 20
    for _ in range(4000):
        counts[shuffled_deck(rng)[0]] += 1
    assert min(counts) > 140 and max(counts) < 260  # expected 200 each
