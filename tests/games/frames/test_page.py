"""What the server-rendered board shows (games/frames/page.py)."""

from __future__ import annotations

import random

from games.engine import Match as EngineMatch
from games.words.catalogue import fill
from games.words.translated import game_words


def play_until(engine: EngineMatch, stop, seed: int = 0) -> EngineMatch:
    rng = random.Random(seed)
    while not stop(engine):
        engine, _ = engine.apply(rng.choice(engine.legal_actions()))
    return engine


def _board_for(engine, position):
    """The server-rendered board's context for `position` at a bare table."""
    from types import SimpleNamespace

    from games.engine import seat_view
    from games.frames.page import board_context

    table = SimpleNamespace(pk=1, mode="practice", bot_level="easy")
    seats = [
        SimpleNamespace(position=p, kind="bot", user_id=None, absent_since=None, abandoned=False)
        for p in range(4)
    ]
    view = seat_view(engine, position)
    return board_context(table=table, seats=seats, match=None, view=view, position=position)


def test_a_card_that_cannot_be_played_says_why_from_the_engines_refusal():
    from django.utils import translation

    def some_card_refused(engine):
        hand = engine.hand
        return hand.phase == "playing" and len(hand.legal_actions()) < len(
            hand.hand_of(hand.to_play)
        )

    engine = play_until(EngineMatch.new("online", seed=5), some_card_refused, seed=5)
    seat = engine.to_play
    expected = {
        "must_follow": "You must follow suit ({suit})",
        "must_overtake": "You must beat the winning card if you can",
        "must_trump": "You must play a trump ({suit})",
        "must_overtrump": "You must overtrump if you can",
    }
    suits = {"o": "coins", "c": "cups", "e": "swords", "b": "clubs"}
    with translation.override("en"):
        mine = _board_for(engine, seat)["my_cards"]
        waiting = _board_for(engine, (seat + 1) % 4)["my_cards"]
    refused = [c for c in mine if not c["playable"]]
    assert refused and all(c["reason"] == "" for c in mine if c["playable"])
    for card in refused:
        error = engine.hand.refusal(card["code"])
        suit = suits.get(error.params.get("suit", ""), "")
        assert card["reason"] == expected[error.code].format(suit=suit)
    # One text per refusal code: the same words as the websocket's refusals.
    assert waiting and {c["reason"] for c in waiting} == {"It is not your turn."}
    with translation.override("es"):
        spanish = _board_for(engine, seat)["my_cards"]
        words = game_words()
    for card in spanish:
        if not card["playable"]:
            error = engine.hand.refusal(card["code"])
            suit = words["suits"].get(error.params.get("suit", ""), "")
            assert card["reason"] == fill(words["refusals"][error.code], {"suit": suit})
