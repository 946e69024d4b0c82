"""Declarations (docs/rules.md §6), made automatically by the engine."""

from __future__ import annotations

import copy

from cuatrola.engine import Hand
from cuatrola.engine.events import DeclarationMade, TrickWon

from . import records as R


def events_of(record: dict[str, object]) -> list[object]:
    _states, events = Hand.replay(record)
    return [e for evs in events for e in evs]


def test_a_declaration_follows_the_trick_won_and_shows_king_and_knight() -> None:
    events = events_of(R.BONUS_112)
    i = next(i for i, e in enumerate(events) if isinstance(e, DeclarationMade))
    assert isinstance(events[i - 1], TrickWon)
    assert events[i] == DeclarationMade(2, "c", 40, ("12c", "11c"), 2)


def test_the_declared_cards_stay_in_the_hand_and_are_played_later() -> None:
    states, _ = Hand.replay(R.BONUS_112)
    after_trick_2 = next(s for s in states if len(s.tricks) == 2)
    assert {"12c", "11c"} <= set(after_trick_2.hand_of(2))
    assert "12c" in R.BONUS_112["actions"]


def test_forty_in_trumps_comes_before_any_twenty() -> None:
    # The winner (seat 2) holds 12o+11o, its partner (seat 0) the trump pair.
    hand = Hand.from_dict(R.FORTY_BEFORE_TWENTY)
    assert hand.declarations[0][:3] == (0, "e", 40)


def test_between_twenties_the_trick_winner_declares_before_the_partner() -> None:
    hand = Hand.from_dict(R.WINNER_BEFORE_PARTNER)
    first, second = hand.declarations
    assert (first.seat, first.suit, first.trick) == (
        0,
        "e",
        1,
    )  # winner's espadas, though oros come first in order
    assert (second.seat, second.suit, second.trick) == (2, "o", 2)


def test_within_one_hand_suits_go_in_the_order_o_c_e_b() -> None:
    # Seat 0 holds 12e+11e and 12b+11b (trumps oros): espadas first.
    hand = Hand.from_dict(R.SUIT_ORDER)
    assert [d.suit for d in hand.declarations] == ["e"]


def test_a_card_just_played_to_the_trick_no_longer_counts() -> None:
    # Seat 3 plays 11e from 12e+11e to a trick its partner wins: nothing declared.
    hand = Hand.from_dict(R.JUST_PLAYED)
    assert hand.declarations == ()


def test_at_most_one_declaration_per_trick_and_a_suit_only_once() -> None:
    hand = Hand.from_dict(R.THREE_DECLARATIONS)
    tricks = [d.trick for d in hand.declarations]
    assert len(tricks) == len(set(tricks))
    # Seat 0 kept 12e+11e across tricks 1-2 and 12b+11b after trick 1: each declared once.
    assert [(d.seat, d.suit) for d in hand.declarations] == [(0, "b"), (0, "e"), (2, "o")]


def test_classic_rules_have_no_limit_on_declarations() -> None:
    hand = Hand.from_dict(R.THREE_DECLARATIONS)
    assert len(hand.declarations) == 3
    assert hand.result is not None
    assert hand.result.hand_points == (99 + 40 + 20 + 20, 21 + 10)


def test_online_rules_allow_at_most_two_declarations_per_pair() -> None:
    record = copy.deepcopy(R.THREE_DECLARATIONS)
    record["rules"] = "online"
    hand = Hand.from_dict(record)
    assert [(d.seat, d.suit) for d in hand.declarations] == [(0, "b"), (0, "e")]


def test_the_seat_sitting_out_never_declares() -> None:
    hand = Hand.from_dict(R.OUT_SEAT_HOLDS_A_PAIR)
    assert hand.sitting_out == 3
    assert {"12b", "11b"} <= set(hand.hand_of(3))
    assert hand.tricks_won[1] > 0
    assert hand.declarations == ()


def test_a_classic_solo_has_declarations_on_both_sides() -> None:
    hand = Hand.from_dict(R.CLASSIC_SOLO_WITH_DECLARATIONS)
    assert [(d.seat, d.suit, d.points) for d in hand.declarations] == [(0, "e", 20), (1, "b", 40)]
    assert hand.result is not None
    # Declarer: 48 card points + 10 last trick + 40; opponents: 26 + 20.
    assert hand.result.hand_points == (26 + 20, 48 + 10 + 40)


def test_an_online_solo_has_no_declarations() -> None:
    hand = Hand.from_dict(R.ONLINE_SOLO_DECLARER_HOLDS_A_PAIR)
    assert hand.declarations == ()


def test_a_cuatrola_has_no_declarations() -> None:
    hand = Hand.from_dict(R.CUATROLA_DECLARER_HOLDS_A_PAIR)
    assert hand.declarations == ()
