import copy
import json

import pytest

from cuatrola.bots import LEVELS, BotError, UnknownLevel, choose_action
from cuatrola.engine import Hand, Match, public_view, seat_view
from tests.cuatrola.bots.positions import random_positions


def test_the_levels_are_easy_medium_and_hard():
    assert LEVELS == ("easy", "medium", "hard")


def test_an_unknown_level_is_a_clear_value_error():
    hand = Hand.deal("online", dealer=0, seed=1)
    with pytest.raises(ValueError, match="unknown bot level 'expert'"):
        choose_action(seat_view(hand, hand.to_play), level="expert", seed=0)
    with pytest.raises(UnknownLevel):
        choose_action(seat_view(hand, hand.to_play), level="", seed=0)


def test_a_seat_not_to_play_is_refused():
    hand = Hand.deal("online", dealer=0, seed=1)
    other = (hand.to_play + 1) % 4
    with pytest.raises(BotError):
        choose_action(seat_view(hand, other), level="easy", seed=0)


def test_a_public_view_is_refused():
    hand = Hand.deal("online", dealer=0, seed=1)
    with pytest.raises(BotError):
        choose_action(public_view(hand), level="easy", seed=0)


def test_garbage_is_refused_with_a_bot_error():
    with pytest.raises(BotError):
        choose_action({"nothing": 1}, level="easy", seed=0)


@pytest.mark.parametrize("level", LEVELS)
def test_only_legal_actions_are_returned_in_random_positions(level):
    count = {"easy": 300, "medium": 40, "hard": 25}[level]
    for i, hand in enumerate(random_positions(count, seed=LEVELS.index(level))):
        view = seat_view(hand, hand.to_play)
        action = choose_action(view, level=level, seed=i, time_budget_ms=40)
        assert action in hand.legal_actions()


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_works_from_a_json_round_tripped_view_alone(level):
    match = Match.new("online", seed=5)
    for step in range(12):
        view = json.loads(json.dumps(seat_view(match, match.to_play)))
        action = choose_action(view, level=level, seed=step, time_budget_ms=30)
        match, _ = match.apply(action)


@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_action(level):
    for i, hand in enumerate(random_positions(6, seed=77)):
        view = seat_view(hand, hand.to_play)
        first = choose_action(copy.deepcopy(view), level=level, seed=i)
        assert choose_action(copy.deepcopy(view), level=level, seed=i) == first


def test_the_view_is_not_modified():
    hand = random_positions(1, seed=3)[0]
    view = seat_view(hand, hand.to_play)
    before = copy.deepcopy(view)
    choose_action(view, level="hard", seed=1, time_budget_ms=30)
    assert view == before


@pytest.mark.parametrize("level", LEVELS)
def test_a_pair_at_the_cap_never_bids_above_it(level):
    # Pair 0 on 20 of 21 may bid nothing; pair 1 on 17 may bid at most cuatrola.
    for seed in range(8):
        hand = Hand.deal("online", dealer=3, seed=seed, scores=(20, 17))
        while hand.phase == "bidding":
            action = choose_action(seat_view(hand, hand.to_play), level=level, seed=seed)
            if hand.to_play % 2 == 0:
                assert action == "pass"
            else:
                assert action != "quintola"
            hand, _ = hand.apply(action)
