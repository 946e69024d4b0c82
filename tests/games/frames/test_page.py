"""What the server-rendered board shows (games/frames/page.py)."""

from __future__ import annotations

import random

from cuatrola.engine import Match as EngineMatch
from cuatrola.engine import public_view, seat_view
from games.frames import builder
from games.frames.page import board_context
from games.words.catalogue import fill
from games.words.translated import game_words


def play_until(engine: EngineMatch, stop, seed: int = 0) -> EngineMatch:
    rng = random.Random(seed)
    while not stop(engine):
        engine, _ = engine.apply(rng.choice(engine.legal_actions()))
    return engine


def bare_frame(engine, position):
    """The `state` frame of `position` at a bare table of bots (nothing paid)."""
    names = builder.player_names(seed=1, people={}, bots=range(4))
    table = builder.table_fields(
        id=1,
        mode="practice",
        rules="online",
        stake=None,
        pot=None,
        status="finished" if engine.is_over else "playing",
        owner=None,
        bot_level="easy",
        match=None,
        deadline=None,
        seats=[
            builder.seat_fields(
                position=p,
                kind="bot",
                name=names[p],
                level="easy",
                connected=False,
                absent=False,
                abandoned=False,
                reliability=None,
            )
            for p in range(4)
        ],
    )
    return builder.frame(
        kind="state",
        seq=1,
        version=len(engine.hands),
        seat=position,
        table=table,
        view=seat_view(engine, position) if position is not None else public_view(engine),
        shared=builder.shared_parts(engine),
        result=builder.result_for(builder.unpaid_outcome(engine), position, None),
    )


def _board_for(engine, position):
    """The server-rendered board's context for `position` at a bare table."""
    return board_context(bare_frame(engine, position))


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


def test_the_board_says_what_the_frame_says_of_the_hand_just_finished_and_the_result():
    from django.utils import translation

    engine = play_until(EngineMatch.new("online", seed=3), lambda e: e.is_over, seed=3)
    for position in range(4):
        frame = bare_frame(engine, position)
        with translation.override("en"):
            board = board_context(frame)
        summary = frame["summary"]
        pair = position % 2
        assert board["last_hand"]["number"] == summary["hand_no"] and summary["final"]
        assert board["last_hand"]["we_scored"] == (summary["scoring_pair"] == pair)
        assert board["last_hand"]["card_points_us"] == summary["card_points"][pair]
        assert board["we_won"] == (frame["result"]["winner"] == pair)
        assert [box["position"] for box in board["seat_order"]] == [
            (position + k) % 4 for k in range(4)
        ]
        places = {box["position"]: box["place"]["place"] for box in board["seat_order"]}
        assert places == {p["position"]: p["place"] for p in frame["result"]["places"]}
        assert board["score_us"] == frame["view"]["scores"][pair]
        # every seat named as the frame names it (bots by their drawn names)
        names = {seat["position"]: seat["name"] for seat in frame["table"]["seats"]}
        assert {box["position"]: box["name"] for box in board["seat_order"]} == names


def test_a_watcher_sees_no_hand_and_no_result_of_their_own():
    engine = play_until(EngineMatch.new("online", seed=4), lambda e: len(e.hands) >= 2, seed=4)
    board = board_context(bare_frame(engine, None))
    assert board["spectator"] and board["my_cards"] == [] and "we_won" not in board
    assert board["last_hand"]["number"] == 1
