"""The practice driver that runs in the browser, run here in CPython."""

from __future__ import annotations

import ast
import json
import random

import pytest

from cuatrola.engine import Match, seat_view
from games import offline
from games.frames import offline_practice
from games.frames.offline_practice import BROWSER_BUDGET_MS, PLAYER_SEAT, OfflinePractice, bot_seed
from games.words.catalogue import source_texts


def play_out(practice: OfflinePractice, pick_seed: int = 0) -> list[dict]:
    """Plays a match to the end, the player choosing among the legal actions at random."""
    rng = random.Random(pick_seed)
    frames = []
    while not practice.match.is_over:
        if practice.bot_to_play():
            frames.append(practice.bot_play())
        else:
            frames.append(practice.play(rng.choice(practice.match.legal_actions())))
    return frames


def test_a_new_match_deals_the_player_five_cards_and_shows_only_their_seat():
    frame = OfflinePractice(rules="online", level="easy", seed=3).frame()
    assert frame["type"] == "state"
    assert frame["version"] == 0
    assert frame["table"]["mode"] == "practice"
    assert frame["table"]["offline"] is True
    assert [s["kind"] for s in frame["table"]["seats"]] == ["human", "bot", "bot", "bot"]
    assert frame["view"]["hand"]["seat"] == PLAYER_SEAT
    assert len(frame["view"]["hand"]["hand"]) == 5
    assert frame["view"] == seat_view(Match.new("online", seed=3), PLAYER_SEAT)


def test_a_whole_match_is_played_to_a_winner_with_versions_counting_the_actions():
    practice = OfflinePractice(rules="classic", level="easy", seed=11)
    frames = play_out(practice)
    last = frames[-1]
    assert last["table"]["status"] == "finished"
    assert last["view"]["winner"] in (0, 1)
    assert max(last["view"]["scores"]) >= 11
    assert [f["version"] for f in frames] == list(range(1, len(frames) + 1))
    assert all(f["type"] == "update" and f["events"] for f in frames)
    assert {f["bot"]["seat"] for f in frames if "bot" in f} == {1, 2, 3}


def test_the_action_log_replays_on_the_server_engine_to_the_same_result():
    practice = OfflinePractice(rules="online", level="medium", seed=5)
    play_out(practice, pick_seed=2)
    record = practice.record()
    match = Match.new(record["rules"], seed=record["seed"])
    for logged in record["actions"]:
        assert logged["action"] in match.legal_actions()
        match, _ = match.apply(logged["action"], seat=logged["seat"])
    assert list(match.scores) == record["scores"]
    assert match.winner == record["winner"]


def test_the_same_seed_gives_the_same_bot_moves():
    """On the bots' work budget alone: the browser's bots also stop on the clock, so on
    a loaded machine a search cut short chose another card (it failed so under load)."""
    from cuatrola.bots.search import without_clock

    first, second = (OfflinePractice(rules="online", level="medium", seed=21) for _ in range(2))
    with without_clock():
        play_out(first, pick_seed=4)
        play_out(second, pick_seed=4)
    assert first.record() == second.record()


def test_bot_seeds_do_not_depend_on_the_platform_hash():
    assert bot_seed(0, 0) == 0
    assert bot_seed(1, 2) == 1_000_005
    assert 0 <= bot_seed(2**53 - 1, 10**6) < 2**31


def test_the_hard_level_thinks_with_the_browser_budget():
    assert (
        OfflinePractice(rules="online", level="hard", seed=1).budget_ms == BROWSER_BUDGET_MS["hard"]
    )


@pytest.mark.parametrize(
    ("kwargs", "complaint"),
    [
        ({"rules": "poker", "level": "easy", "seed": 1}, "rule set"),
        ({"rules": "online", "level": "genius", "seed": 1}, "bot level"),
        ({"rules": "online", "level": "easy", "seed": -1}, "seed"),
        ({"rules": "online", "level": "easy", "seed": True}, "seed"),
        ({"rules": "online", "level": "easy", "seed": 2**63}, "seed"),
        ({"rules": "online", "level": "easy", "seed": 1, "first_dealer": 4}, "first dealer"),
    ],
)
def test_bad_choices_are_refused_with_what_was_wrong(kwargs, complaint):
    with pytest.raises(ValueError, match=complaint):
        OfflinePractice(**kwargs)


def test_bad_moves_answer_an_error_frame_and_change_nothing():
    practice = OfflinePractice(rules="online", level="easy", seed=8)
    while practice.bot_to_play():
        practice.bot_play()
    before = practice.frame()
    assert practice.play(42)["code"] == "malformed"
    assert practice.play("13x")["code"] == "illegal_action"
    held_but_not_legal = [
        c for c in before["view"]["hand"]["hand"] if c not in practice.match.legal_actions()
    ]
    if held_but_not_legal:
        assert practice.play(held_but_not_legal[0])["code"] == "illegal_action"
    assert practice.frame() == before


def test_a_bot_move_is_refused_on_the_players_turn():
    practice = OfflinePractice(rules="online", level="easy", seed=8)
    while practice.bot_to_play():
        practice.bot_play()
    assert practice.bot_play()["code"] == "not_your_turn"


def test_the_worker_api_answers_json_text_including_for_bad_input():
    assert json.loads(offline_practice.start("online", "nope", 1))["code"] == "bad_choice"
    state = json.loads(offline_practice.start("classic", "easy", 9))
    assert state["type"] == "state"
    assert json.loads(offline_practice.play("pass"))["type"] in ("update", "error")
    assert json.loads(offline_practice.record())["seed"] == 9
    # the player's name and the game words are the page's; bad ones are refused
    assert state["table"]["seats"][0]["name"] == "You"
    named = json.loads(offline_practice.start("classic", "easy", 9, "Tú", None))
    assert named["table"]["seats"][0]["name"] == "Tú"
    for words in ("not json", "[]", '{"bids": {}}', json.dumps({**source_texts(), "bids": 1})):
        refused = json.loads(offline_practice.start("online", "easy", 1, "Tú", words))
        assert refused["code"] == "bad_choice", words
    good = json.loads(offline_practice.start("online", "easy", 1, "Tú", json.dumps(source_texts())))
    assert good["type"] == "state"


def _module_name(path: str) -> str:
    return path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def _is_module(dotted: str) -> bool:
    path = offline.ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_what_runs_in_the_browser_imports_nothing_outside_the_standard_library():
    shipped = [
        *offline.PYTHON_MODULES,
        *(
            str(path.relative_to(offline.ROOT))
            for package in offline.PYTHON_PACKAGES
            for path in (offline.ROOT / package).glob("*.py")
        ),
    ]
    assert "games/frames/builder.py" in shipped and "games/words/catalogue.py" in shipped
    shipped_modules = {_module_name(path) for path in shipped}
    site = {name.split(".")[0] for name in shipped_modules}
    for path in shipped:
        for node in ast.walk(ast.parse((offline.ROOT / path).read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0:
                names = [node.module or ""]
                names += [
                    f"{node.module}.{alias.name}"
                    for alias in node.names
                    if _is_module(f"{node.module}.{alias.name}")
                ]
            else:
                continue
            for name in names:
                if name.split(".")[0] in site:  # only what is shipped with it
                    assert name in shipped_modules, (path, name)
                    continue
                assert name.split(".")[0] in {
                    "__future__",
                    "json",
                    "time",
                    "math",
                    "random",
                    "re",
                    "functools",
                    "datetime",
                    "typing",
                    "collections",
                    "dataclasses",
                    "itertools",
                    # The bots' reproducible search (no clock): in Pyodide's stdlib too.
                    "contextlib",
                    "contextvars",
                }, (path, name)


def test_a_past_daily_deal_replays_offline_as_the_server_dealt_it():
    """The daily deal's 62-bit seed comes from the page as a decimal string (a
    JavaScript number would round it), with its dealer and one hand."""
    from cuatrola.engine import Match

    seed = 3_141_592_653_589_793_238
    state = json.loads(offline_practice.start("online", "easy", str(seed), None, None, 2, 1))
    assert state["type"] == "state"
    assert state["view"]["hand"]["dealer"] == 2
    served = Match.new("online", seed=seed, first_dealer_seat=2, last_hand=1)
    assert offline_practice._current.match.hand.dealt_hands == served.hand.dealt_hands
    while not offline_practice._current.match.is_over:
        if offline_practice._current.bot_to_play():
            offline_practice.bot_play()
        else:
            view = offline_practice._current.frame()["view"]
            offline_practice.play(view["hand"]["legal_actions"][0])
    assert offline_practice._current.match.hand_no == 1  # one hand, as on the server
    assert state["table"]["seats"][0]["name"] == "You"  # named as in any practice match
    refused = json.loads(offline_practice.start("online", "easy", "12", None, None, 7, 1))
    assert refused["type"] == "error" and refused["code"] == "bad_choice"
