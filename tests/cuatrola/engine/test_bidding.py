"""Bidding (docs/rules.md §4)."""

from __future__ import annotations

import pytest

from cuatrola.engine import BidOverCap, BidTooLow, Hand, MalformedAction, WrongPhase
from cuatrola.engine.events import BiddingOver, BidMade

from .util import play_out


def fresh(rules: str = "online", dealer: int = 0, scores: tuple[int, int] = (0, 0)) -> Hand:
    return Hand.deal(rules, dealer, seed=7, scores=scores)


def test_the_mano_speaks_first_and_each_seat_speaks_once_in_turn_order() -> None:
    hand = fresh(dealer=2)
    seen = []
    while hand.phase == "bidding":
        seen.append(hand.to_play)
        hand, _ = hand.apply("pass")
    assert seen == [3, 0, 1, 2]
    assert hand.bids == ((3, "pass"), (0, "pass"), (1, "pass"), (2, "pass"))


def test_legal_bids_are_pass_then_higher_bids_low_to_high() -> None:
    hand = fresh()
    assert hand.legal_actions() == ("pass", "solo", "cuatrola", "quintola")
    hand, _ = hand.apply("solo")
    assert hand.legal_actions() == ("pass", "cuatrola", "quintola")
    hand, _ = hand.apply("quintola")
    assert hand.legal_actions() == ("pass",)


def test_a_bid_must_be_strictly_higher_than_the_highest_so_far() -> None:
    hand, _ = fresh().apply("cuatrola")
    with pytest.raises(BidTooLow, match="higher than cuatrola") as refused:
        hand.apply("cuatrola")
    assert refused.value.as_dict() == {
        "code": "bid_too_low",
        "params": {"bid": "cuatrola", "highest": "cuatrola", "highest_seat": 1},
    }
    with pytest.raises(BidTooLow):
        hand.apply("solo")


def test_all_four_passing_makes_a_pass_hand_led_by_the_mano() -> None:
    hand = play_out(fresh(dealer=1), "pass pass pass pass")
    assert hand.phase == "playing"
    assert not hand.is_contract_hand
    assert hand.declarer is None and hand.sitting_out is None
    assert hand.to_play == 2
    assert hand.players == (0, 1, 2, 3)


def test_the_highest_bidder_declares_and_the_partner_sits_out() -> None:
    hand = fresh(dealer=0)
    hand, _ = hand.apply("pass")  # seat 1
    hand, events = hand.apply("solo")  # seat 2
    assert events == (BidMade(2, "solo"),)
    hand = play_out(hand, "pass pass")
    assert hand.declarer == 2
    assert hand.contract == "solo"
    assert hand.sitting_out == 0
    assert hand.players == (1, 2, 3)


def test_the_partner_may_overcall_and_the_earlier_bidder_then_sits_out() -> None:
    hand = fresh(dealer=0)
    hand, _ = hand.apply("solo")  # seat 1
    hand, _ = hand.apply("pass")  # seat 2
    hand, events = hand.apply("cuatrola")  # seat 3, partner of seat 1
    hand, events = hand.apply("pass")  # seat 0
    assert hand.declarer == 3
    assert hand.contract == "cuatrola"
    assert hand.sitting_out == 1
    assert events[-1] == BiddingOver(3, "cuatrola", 1, 2)


def test_when_the_mano_sits_out_the_next_seat_leads() -> None:
    # Dealer 0: the mano is seat 1; seat 3 declares, so seat 1 sits out.
    hand = play_out(fresh(dealer=0), "pass pass solo pass")
    assert hand.sitting_out == 1
    assert hand.trick_leader == 2
    assert hand.to_play == 2


def test_a_card_during_the_bidding_is_the_wrong_phase() -> None:
    hand = fresh()
    with pytest.raises(WrongPhase) as refused:
        hand.apply(hand.hand_of(1)[0])
    assert refused.value.code == "bidding_not_over"


@pytest.mark.parametrize("bad", ["tute", "", "PASS", None, 0, ["pass"]])
def test_an_unknown_word_is_malformed(bad: object) -> None:
    with pytest.raises(MalformedAction):
        fresh().apply(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rules", "score", "allowed"),
    [
        ("online", 16, ("pass", "solo", "cuatrola", "quintola")),
        ("online", 17, ("pass", "solo", "cuatrola")),
        ("online", 19, ("pass", "solo")),
        ("online", 20, ("pass",)),
        ("online", 21, ("pass",)),
        ("classic", 7, ("pass", "solo", "cuatrola")),
        ("classic", 8, ("pass", "solo")),
        ("classic", 9, ("pass", "solo")),
        ("classic", 10, ("pass",)),
    ],
)
def test_the_cap_limits_bids_to_what_keeps_the_pair_within_the_target(
    rules: str, score: int, allowed: tuple[str, ...]
) -> None:
    # Dealer 0: the mano is seat 1, pair 1.
    hand = fresh(rules, dealer=0, scores=(0, score))
    assert hand.legal_actions() == allowed


def test_a_bid_over_the_cap_is_refused_with_the_reason() -> None:
    hand = fresh("online", dealer=0, scores=(0, 17))
    with pytest.raises(BidOverCap, match="would exceed the target 21") as refused:
        hand.apply("quintola")
    assert refused.value.code == "bid_over_cap"
    assert dict(refused.value.params) == {"bid": "quintola", "value": 5, "score": 17, "target": 21}
    hand = fresh("online", dealer=0, scores=(0, 20))
    with pytest.raises(BidOverCap):
        hand.apply("solo")


def test_the_cap_is_per_pair() -> None:
    hand = fresh("classic", dealer=0, scores=(0, 10))
    assert hand.legal_actions() == ("pass",)  # seat 1, pair 1 on 10
    hand, _ = hand.apply("pass")
    assert hand.legal_actions() == ("pass", "solo", "cuatrola", "quintola")  # seat 2, pair 0


def test_reaching_the_target_exactly_is_allowed() -> None:
    hand = fresh("online", dealer=0, scores=(0, 16))
    hand, _ = hand.apply("quintola")
    assert hand.highest_bid == (1, "quintola")
    hand = fresh("classic", dealer=0, scores=(0, 9))
    hand, _ = hand.apply("solo")
    assert hand.highest_bid == (1, "solo")


def test_passing_is_always_allowed() -> None:
    hand = fresh("online", dealer=0, scores=(20, 20))
    assert play_out(hand, "pass pass pass pass").phase == "playing"
