"""Events: immutable records with a JSON-ready `to_dict`."""

from __future__ import annotations

import json

from cuatrola.engine import Hand, Match

from . import records as R


def test_every_event_of_a_hand_turns_into_a_json_object_with_its_type() -> None:
    _states, events = Hand.replay(R.CLASSIC_SOLO_WITH_DECLARATIONS)
    dicts = [e.to_dict() for evs in events for e in evs]
    assert json.loads(json.dumps(dicts)) == dicts
    types = {d["type"] for d in dicts}
    assert types == {
        "bid_made",
        "bidding_over",
        "card_played",
        "trick_won",
        "declaration_made",
        "contract_made",
        "hand_over",
    }
    assert all("kind" not in d for d in dicts)
    won = next(d for d in dicts if d["type"] == "trick_won")
    assert set(won) == {"type", "seat", "trick", "leader", "cards", "points"}


def test_match_events_announce_new_hands_and_the_end() -> None:
    import random

    rng = random.Random(0)
    match = Match.new("classic", seed=1)
    seen = set()
    while not match.is_over:
        match, events = match.apply(rng.choice(match.legal_actions()))
        seen |= {e.to_dict()["type"] for e in events}
    assert {"hand_started", "match_over"} <= seen


def test_events_are_immutable() -> None:
    _states, events = Hand.replay(R.BONUS_112)
    event = events[0][0]
    try:
        event.seat = 3  # type: ignore[misc]
    except AttributeError:
        pass
    else:
        raise AssertionError("an event could be changed")
