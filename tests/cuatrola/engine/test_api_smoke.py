"""The public API works end to end: deal, play out, record, replay, views."""

from __future__ import annotations

import json
import random

import pytest

from cuatrola.engine import EngineError, Hand, Match, full_view, public_view, seat_view


def test_a_dealt_hand_plays_out_to_a_result() -> None:
    hand = Hand.deal("online", dealer=0, seed=42)
    while hand.to_play is not None:
        hand, _events = hand.apply(hand.legal_actions()[0])
    assert hand.result is not None
    assert hand.phase == "over"


def test_a_random_match_round_trips_through_json() -> None:
    rng = random.Random(3)
    match = Match.new("online", seed=11)
    while not match.is_over:
        match, _events = match.apply(rng.choice(match.legal_actions()))
    record = json.loads(json.dumps(match.to_dict()))
    assert Match.from_dict(record) == match
    assert json.dumps(full_view(match))


def test_views_are_json_and_the_full_view_waits_for_the_end() -> None:
    match = Match.new("classic", seed=5)
    json.dumps(seat_view(match, 0))
    json.dumps(public_view(match))
    with pytest.raises(EngineError):
        full_view(match)
