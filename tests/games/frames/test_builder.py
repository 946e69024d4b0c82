"""The one frame builder (games/frames/builder.py): names, the last trick, the summary."""

from __future__ import annotations

import random

import pytest

from cuatrola.engine import Match as EngineMatch
from games.frames.builder import BOT_NAMES, bot_names, hand_summary, last_summary, last_trick


def play_until(engine: EngineMatch, stop, seed: int = 0) -> EngineMatch:
    rng = random.Random(seed)
    while not stop(engine):
        engine, _ = engine.apply(rng.choice(engine.legal_actions()))
    return engine


def test_bot_names_are_four_distinct_spanish_names_stable_for_a_seed():
    names = bot_names(seed=12345)
    assert len(set(names)) == 4 and set(names) <= set(BOT_NAMES)
    assert bot_names(seed=12345) == names
    assert any(bot_names(seed=s) != names for s in range(5))


def test_bot_names_never_take_a_seated_players_name_in_any_case():
    names = bot_names(seed=1)
    taken = {names[0].casefold(), names[1].casefold()}
    again = bot_names(seed=1, taken=taken)
    assert not {n.casefold() for n in again} & taken


def test_there_is_no_last_trick_before_the_first_one_is_complete():
    engine = EngineMatch.new("online", seed=3)
    assert last_trick(engine) is None
    engine = play_until(engine, lambda e: len(e.hand.current_trick) == 2)
    assert last_trick(engine) is None


def test_the_last_trick_is_the_current_hands_latest_with_its_winner():
    engine = play_until(EngineMatch.new("online", seed=3), lambda e: len(e.hand.tricks) == 2)
    trick = last_trick(engine)
    expected = engine.hand.tricks[-1]
    assert trick == {
        "hand_no": engine.hand_no,
        "number": 2,
        "leader": expected.leader,
        "plays": [{"seat": s, "card": c} for s, c in expected.plays],
        "winner": expected.winner,
        "points": expected.points,
    }
    assert len(trick["plays"]) in (3, 4)  # a seat may sit out


def test_the_last_trick_of_a_hand_stays_shown_once_the_next_hand_is_dealt():
    engine = play_until(EngineMatch.new("online", seed=5), lambda e: e.hand_no == 2)
    assert not engine.hand.tricks
    trick = last_trick(engine)
    previous = engine.hands[0]
    assert trick["hand_no"] == 1 and trick["number"] == len(previous.tricks)
    assert trick["winner"] == previous.tricks[-1].winner == previous.result.last_trick_seat


def test_there_is_no_summary_during_the_first_hand():
    engine = play_until(EngineMatch.new("online", seed=5), lambda e: e.phase == "playing")
    assert last_summary(engine) is None


@pytest.mark.parametrize("seed", range(6))
def test_the_summary_during_hand_n_is_hand_n_minus_1s_and_adds_up(seed):
    engine = play_until(EngineMatch.new("online", seed=seed), lambda e: e.hand_no == 3)
    summary = last_summary(engine)
    hand = engine.hands[1]
    result = hand.result
    assert summary["hand_no"] == 2 and summary["final"] is False
    assert summary["scores"] == list(engine.scores)
    assert sum(summary["tricks"]) == result.tricks_played
    assert summary["card_points"] == list(result.card_points)
    assert summary["match_points"] == result.match_points
    if summary["hand_points"] is not None:
        assert summary["last_trick_bonus"] == 10
        declared = [0, 0]
        for d in summary["declarations"]:
            declared[d["seat"] % 2] += d["points"]
        bonus = [0, 0]
        bonus[summary["last_trick_seat"] % 2] = 10
        assert summary["hand_points"] == [
            summary["card_points"][p] + bonus[p] + declared[p] for p in (0, 1)
        ]
    else:
        assert summary["last_trick_bonus"] == 0 and summary["kind"] == "contract"


@pytest.mark.parametrize("rules", ["online", "classic"])
def test_the_deciding_hand_is_summarised_when_the_match_ends(rules):
    engine = play_until(EngineMatch.new(rules, seed=11), lambda e: e.is_over)
    summary = last_summary(engine)
    assert summary["final"] is True
    assert summary["hand_no"] == engine.hand_no == len(engine.hands)
    assert summary["scores"] == list(engine.scores)
    assert summary["scoring_pair"] == engine.winner
    assert summary == hand_summary(engine.hand, engine.hand_no, final=True)


def test_a_modes_extra_table_facts_are_added_but_never_replace_the_games_own():
    from games.frames.builder import table_fields

    fields = {
        "id": 7, "mode": "daily", "rules": "online", "stake": None, "pot": None,
        "status": "playing", "owner": "ana", "bot_level": "hard", "match": 3,
        "deadline": None, "seats": [],
    }  # fmt: skip
    plain = table_fields(**fields)
    extra = table_fields(**fields, extra={"daily": {"deal": 2}, "mode": "practice", "id": 1})
    assert extra["daily"] == {"deal": 2}
    assert {key: value for key, value in extra.items() if key != "daily"} == plain
