"""Practising a position (coach/redeal.py): the hidden hands dealt again from the
seat's view, so that the seat sees exactly what it saw."""

from __future__ import annotations

import random

from coach.judge import decision_points
from coach.redeal import hand_actions, redeal
from cuatrola.bots.knowledge import hand_part
from cuatrola.engine import Hand, seat_view
from tests.coach.test_judge import random_match


def test_a_redealt_position_shows_the_seat_exactly_its_view():
    changed = 0
    checked = 0
    for seed in range(3):
        match = random_match(seed)
        for point in decision_points(match.to_dict())[::3]:
            position = redeal(point.view, random.Random(point.number))
            hand = Hand.from_deal("online", position.dealer, position.deal, position.scores)
            for action in position.actions:
                hand, _ = hand.apply(action)
            mine = seat_view(hand, point.seat)
            wanted = hand_part(point.view)
            assert {**mine, "hand": sorted(mine["hand"])} == {
                **wanted,
                "hand": sorted(wanted["hand"]),
            }
            assert position.seat == point.seat
            assert position.actions == hand_actions(point.view)
            real = match.hands[point.hand_no - 1].dealt_hands
            changed += [sorted(c) for c in position.deal] != [sorted(c) for c in real]
            checked += 1
    # The hidden hands are drawn again, not copied: most positions differ from the real one.
    assert changed > checked // 2


def test_the_dealer_keeps_the_turned_card_as_its_fifth():
    match = random_match(1)
    point = decision_points(match.to_dict())[0]
    position = redeal(point.view, random.Random(0))
    assert position.deal[position.dealer][-1] == point.view["hand"]["trump"]["card"]
