"""Views: what a seat, a spectator, or anyone after the match may see."""

from __future__ import annotations

import json
import random

import pytest

from cuatrola.engine import (
    EngineError,
    Hand,
    Match,
    ViewNotAllowed,
    full_view,
    public_view,
    seat_view,
)

from . import records as R


def test_a_seat_sees_its_own_cards_and_legal_actions_on_its_turn() -> None:
    hand = Hand.deal("online", 0, seed=3)
    view = seat_view(hand, 1)
    assert view["hand"] == list(hand.hand_of(1))
    assert view["legal_actions"] == list(hand.legal_actions())
    assert seat_view(hand, 2)["legal_actions"] == []


def test_a_seat_view_says_why_each_held_card_cannot_be_played_now() -> None:
    hand = Hand.deal("online", 0, seed=3)
    bidding = seat_view(hand, 1)["refusals"]
    assert set(bidding) == set(hand.hand_of(1))
    assert {r["code"] for r in bidding.values()} == {"bidding_not_over"}
    waiting = seat_view(hand, 2)["refusals"]
    assert {r["code"] for r in waiting.values()} == {"not_your_turn"}
    for action in ("pass", "pass", "pass", "pass"):
        hand, _ = hand.apply(action)
    leader = hand.to_play
    hand, _ = hand.apply(hand.legal_actions()[0])
    view = seat_view(hand, hand.to_play)
    legal, refusals = view["legal_actions"], view["refusals"]
    assert set(legal) | set(refusals) == set(view["hand"]) and not set(legal) & set(refusals)
    for code, refusal in refusals.items():
        error = hand.refusal(code)
        assert error is not None and refusal == error.as_dict()
        assert refusal["code"] in {"must_follow", "must_overtake", "must_trump", "must_overtrump"}
    assert public_view(hand)["refusals"] == {} and leader is not None


def test_a_views_refusals_are_what_apply_would_raise_for_every_seat_and_card() -> None:
    rng = random.Random(4)
    for n in range(150):
        hand = Hand.deal("classic" if n % 2 else "online", rng.randrange(4), seed=n)
        while True:
            for seat in range(4):
                refusals = seat_view(hand, seat)["refusals"]
                for code in hand.hand_of(seat):
                    error = hand.refusal(code, seat)
                    assert refusals.get(code) == (error.as_dict() if error else None)
            if hand.is_over:
                break
            hand, _ = hand.apply(rng.choice(hand.legal_actions()))


def test_a_seat_view_never_contains_another_seats_hidden_card() -> None:
    hand = Hand.deal("online", 0, seed=3)
    for seat in range(4):
        view = json.dumps(seat_view(hand, seat))
        for other in range(4):
            if other == seat:
                continue
            for card in hand.hand_of(other):
                if card == hand.trump_card:
                    continue  # the trump card is public
                assert f'"{card}"' not in view


def test_the_trump_card_is_public_with_whether_the_dealer_still_holds_it() -> None:
    hand = Hand.deal("online", 0, seed=3)
    view = public_view(hand)
    assert view["trump"] == {"card": hand.trump_card, "suit": hand.trump_suit, "dealer_holds": True}


def test_the_sitting_out_hand_is_seen_only_by_its_owner() -> None:
    hand = Hand.from_dict(R.SOLO_FAILED_AFTER_3)
    out_cards = hand.hand_of(3)
    assert seat_view(hand, 3)["hand"] == list(out_cards)
    assert seat_view(hand, 3)["legal_actions"] == []
    for seat in (0, 1, 2):
        view = json.dumps(seat_view(hand, seat))
        for card in out_cards:
            if card != hand.trump_card:
                assert f'"{card}"' not in view
    assert public_view(hand)["hand_sizes"][3] == 5


def test_declared_cards_are_shown_to_everyone() -> None:
    hand = Hand.from_dict(R.THREE_DECLARATIONS)
    decls = public_view(hand)["declarations"]
    assert decls[0] == {"seat": 0, "suit": "b", "points": 40, "cards": ["12b", "11b"], "trick": 1}


def test_a_spectator_sees_no_cards_in_hand_and_no_legal_actions() -> None:
    match = Match.new("online", seed=1)
    view = public_view(match)
    assert view["hand"]["hand"] is None
    assert view["hand"]["legal_actions"] == []
    for seat in range(4):
        for card in match.hand.hand_of(seat):
            if card != match.hand.trump_card:
                assert f'"{card}"' not in json.dumps(view)


def test_a_match_view_has_scores_turn_bids_and_the_trick() -> None:
    match = Match.new("classic", seed=2)
    match, _ = match.apply("solo")
    view = seat_view(match, 0)
    assert view["scores"] == [0, 0]
    assert view["target"] == 11
    assert view["to_play"] == match.to_play
    assert view["hand"]["bids"] == [{"seat": match.hand.mano, "bid": "solo"}]
    assert json.dumps(view)


def test_the_full_view_is_refused_until_the_match_is_over() -> None:
    match = Match.new("online", seed=4)
    with pytest.raises(ViewNotAllowed):
        full_view(match)
    rng = random.Random(0)
    while not match.is_over:
        match, _ = match.apply(rng.choice(match.legal_actions()))
    view = full_view(match)
    assert len(view["deals"]) == len(match.hands)
    assert json.dumps(view)


def test_the_full_view_of_a_lone_hand_waits_for_its_end() -> None:
    hand = Hand.deal("online", 0, seed=3)
    with pytest.raises(ViewNotAllowed):
        full_view(hand)
    assert full_view(Hand.from_dict(R.QUINTOLA_MADE))["deal"][0] == R.QUINTOLA_MADE["deal"][0]


def test_a_view_for_a_seat_that_does_not_exist_is_refused() -> None:
    with pytest.raises(EngineError):
        seat_view(Hand.deal("online", 0, seed=3), 4)


def test_each_seat_sees_itself_at_the_bottom_the_next_seat_on_the_right() -> None:
    from cuatrola.engine import screen_position

    assert [screen_position(0, s) for s in range(4)] == ["bottom", "right", "top", "left"]
    assert [screen_position(3, s) for s in range(4)] == ["right", "top", "left", "bottom"]
    view = seat_view(Hand.deal("online", 0, seed=3), 1)
    assert view["positions"] == ["left", "bottom", "right", "top"]
