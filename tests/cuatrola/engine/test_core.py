"""The low-level primitives bots build on (cuatrola/engine/core.py)."""

from __future__ import annotations

from cuatrola.engine import core
from cuatrola.engine.core import (
    CARD_CODES,
    CODE_INDEX,
    FULL_DECK,
    beats,
    cards_of,
    codes_of,
    legal_mask,
    legal_mask_for_trick,
    mask_of,
    mask_points,
    trick_winner,
)

OROS, COPAS, ESPADAS, BASTOS = range(4)


def m(codes: str) -> int:
    return mask_of(CODE_INDEX[c] for c in codes.split())


def idx(codes: str) -> list[int]:
    return [CODE_INDEX[c] for c in codes.split()]


def test_there_are_twenty_cards_holding_120_points() -> None:
    assert len(CARD_CODES) == 20
    assert len(set(CARD_CODES)) == 20
    assert mask_points(FULL_DECK) == 120


def test_card_indices_are_suit_major_strongest_first() -> None:
    assert CARD_CODES[:5] == ("1o", "3o", "12o", "11o", "10o")
    assert CARD_CODES[15:] == ("1b", "3b", "12b", "11b", "10b")
    assert [core.CARD_POINTS[i] for i in range(5)] == [11, 10, 4, 3, 2]
    assert core.CARD_SUIT[CODE_INDEX["12e"]] == ESPADAS
    assert core.CARD_NUMBER[CODE_INDEX["11b"]] == 11


def test_cards_of_lists_a_mask_in_card_order() -> None:
    assert codes_of(m("10b 1o 12e 3o")) == ("1o", "3o", "12e", "10b")
    assert cards_of(0) == ()


def test_each_rank_beats_the_lower_ones_of_its_suit() -> None:
    order = ["1o", "3o", "12o", "11o", "10o"]
    for i, high in enumerate(order):
        for low in order[i + 1 :]:
            assert beats(CODE_INDEX[high], CODE_INDEX[low], BASTOS)
            assert not beats(CODE_INDEX[low], CODE_INDEX[high], BASTOS)


def test_a_trump_beats_any_other_suit_and_a_third_suit_never_wins() -> None:
    assert beats(CODE_INDEX["10b"], CODE_INDEX["1o"], BASTOS)
    assert not beats(CODE_INDEX["1c"], CODE_INDEX["10o"], BASTOS)


def test_the_trick_goes_to_the_highest_trump_else_the_highest_card_led() -> None:
    assert trick_winner(idx("3o 1o 10b 1c"), BASTOS) == 2
    assert trick_winner(idx("3o 1o 1c 12o"), BASTOS) == 1
    assert trick_winner(idx("12o 10b 12b"), BASTOS) == 2


def test_the_leader_may_play_any_card() -> None:
    hand = m("1o 10o 12b 11c 3e")
    assert legal_mask(hand, -1, -1, BASTOS) == hand


def test_legal_mask_applies_the_worked_examples() -> None:
    # Seat 1 leads 3o, trumps bastos.
    assert legal_mask_for_trick(m("1o 10o 12b 11c 3e"), idx("3o"), BASTOS) == m("1o")
    assert legal_mask_for_trick(m("10o 12o 12b 11c 3e"), idx("3o"), BASTOS) == m("10o 12o")
    assert legal_mask_for_trick(m("12b 10b 1c 3e 11c"), idx("3o"), BASTOS) == m("12b 10b")
    # 12o led, 10b trumped in.
    assert legal_mask_for_trick(m("1o 11o 1b 3e"), idx("12o 10b"), BASTOS) == m("1o 11o")
    assert legal_mask_for_trick(m("1b 11b 3e"), idx("12o 10b"), BASTOS) == m("1b 11b")
    assert legal_mask_for_trick(m("3e 12c"), idx("12o 10b"), BASTOS) == m("3e 12c")
    # 12o led, 12b trumped in: 11b 10b cannot over-trump, so any card.
    assert legal_mask_for_trick(m("11b 10b 3e"), idx("12o 12b"), BASTOS) == m("11b 10b 3e")


def test_montar_applies_when_trumps_are_led() -> None:
    assert legal_mask_for_trick(m("1b 10b 3e"), idx("3b"), BASTOS) == m("1b")
    assert legal_mask_for_trick(m("11b 10b 3e"), idx("3b"), BASTOS) == m("11b 10b")


def test_montar_is_measured_against_the_highest_card_of_the_suit_led() -> None:
    # 11o led, then 3o: the next seat must beat the 3, not the 11.
    assert legal_mask_for_trick(m("12o 1o 3e"), idx("11o 3o"), BASTOS) == m("1o")


def test_next_seat_skips_the_seat_that_sits_out() -> None:
    assert core.next_seat(0) == 1
    assert core.next_seat(3) == 0
    assert core.next_seat(0, sitting_out=1) == 2
    assert core.next_seat(2, sitting_out=3) == 0
    assert [core.pair_of(s) for s in range(4)] == [0, 1, 0, 1]


def test_declaration_choice_prefers_the_forty_wherever_it_is() -> None:
    winner = m("12o 11o 3e")
    partner = m("12b 11b 1c")
    assert core.declaration_choice(winner, partner, BASTOS, 0) == (1, BASTOS)


def test_declaration_choice_takes_the_winners_twenty_before_the_partners() -> None:
    assert core.declaration_choice(m("12e 11e"), m("12o 11o"), BASTOS, 0) == (0, ESPADAS)


def test_declaration_choice_goes_through_suits_in_order_and_skips_used_ones() -> None:
    hand = m("12e 11e 12c 11c 1o")
    assert core.declaration_choice(hand, 0, BASTOS, 0) == (0, COPAS)
    assert core.declaration_choice(hand, 0, BASTOS, 1 << COPAS) == (0, ESPADAS)
    assert core.declaration_choice(hand, 0, BASTOS, (1 << COPAS) | (1 << ESPADAS)) is None


def test_declaration_choice_needs_both_king_and_knight() -> None:
    assert core.declaration_choice(m("12e 10e 11o 12c"), m("11e"), BASTOS, 0) is None
    assert core.declaration_choice(m("12b 11b"), 0, BASTOS, 1 << BASTOS) is None
