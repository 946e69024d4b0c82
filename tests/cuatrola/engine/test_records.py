"""Serialisation and replay (docs/rules.md §10)."""

from __future__ import annotations

import copy
import json
import random

import pytest

from cuatrola.engine import Hand, InvalidDeal, InvalidRecord, Match

from . import records as R


def random_match(seed: int) -> tuple[Match, list[tuple[object, ...]]]:
    rng = random.Random(seed)
    match = Match.new("classic" if seed % 2 else "online", seed=seed)
    events = []
    while not match.is_over:
        match, evs = match.apply(rng.choice(match.legal_actions()))
        events.append(evs)
    return match, events


def test_a_hand_record_names_rules_dealer_scores_deal_trump_and_actions() -> None:
    hand = Hand.from_dict(R.BONUS_112)
    record = hand.to_dict()
    assert set(record) == {"rules", "dealer", "scores", "deal", "trump", "actions"}
    assert record["trump"] == record["deal"][record["dealer"]][4]
    assert record == R.BONUS_112


def test_a_match_round_trips_through_json() -> None:
    match, _ = random_match(21)
    record = json.loads(json.dumps(match.to_dict()))
    again = Match.from_dict(record)
    assert again == match
    assert again.to_dict() == match.to_dict()
    assert again.scores == match.scores and again.winner == match.winner


def test_an_unfinished_match_round_trips_too() -> None:
    rng = random.Random(1)
    match = Match.new("online", seed=30)
    for _ in range(40):
        match, _ = match.apply(rng.choice(match.legal_actions()))
    again = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert again == match
    assert again.legal_actions() == match.legal_actions()


def test_replaying_a_match_reproduces_every_state_and_every_event() -> None:
    rng = random.Random(2)
    match = Match.new("online", seed=77)
    states = [match]
    events = []
    while not match.is_over:
        match, evs = match.apply(rng.choice(match.legal_actions()))
        states.append(match)
        events.append(evs)
    steps = Match.replay(match.to_dict())
    assert [m for m, _ in steps] == states
    assert [e for _, e in steps[1:]] == events


def test_replay_uses_the_recorded_deal_not_the_generator() -> None:
    match, _ = random_match(5)
    record = match.to_dict()
    record["seed"] = 123456  # a different seed would deal differently
    assert Match.from_dict(record).hands == match.hands


def test_a_tampered_record_is_refused() -> None:
    match, _ = random_match(9)
    record = match.to_dict()
    bad = copy.deepcopy(record)
    bad["hands"][0]["actions"].insert(0, "1o")
    with pytest.raises(ValueError):
        Match.from_dict(bad)
    bad = copy.deepcopy(record)
    bad["hands"][1]["dealer"] = (bad["hands"][1]["dealer"] + 1) % 4
    with pytest.raises(InvalidRecord):
        Match.from_dict(bad)
    with pytest.raises(InvalidRecord):
        Match.from_dict({"rules": "online"})
    bad_hand = copy.deepcopy(R.BONUS_112)
    bad_hand["trump"] = "1o"
    with pytest.raises(InvalidRecord):
        Hand.from_dict(bad_hand)


@pytest.mark.parametrize(
    "deal",
    [
        [["1o"] * 5] * 4,
        [["1o", "3o", "12o", "11o"], ["10o", "1c", "3c", "12c", "11c"]] * 2,
        [["1o", "3o", "12o", "11o", "99x"]] * 4,
    ],
)
def test_a_bad_deal_is_refused(deal: list[list[str]]) -> None:
    with pytest.raises(InvalidDeal):
        Hand.from_deal("online", 0, deal)


def test_a_bad_dealer_or_scores_are_refused() -> None:
    deal = R.BONUS_112["deal"]
    with pytest.raises(InvalidDeal):
        Hand.from_deal("online", 4, deal)
    with pytest.raises(InvalidDeal):
        Hand.from_deal("online", 0, deal, (-1, 0))
