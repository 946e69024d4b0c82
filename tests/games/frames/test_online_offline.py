"""Online and offline practice get their frames from the one builder (games/frames/builder.py):
on the same seeded match, move for move, the player's frames are the same."""

from __future__ import annotations

import json
import random
from types import SimpleNamespace

import pytest
from django.utils import translation

from cuatrola.engine import BIDS, CARD_CODES
from games import selectors, services
from games.errors import GameError
from games.fanout import transport
from games.frames import offline_practice
from games.frames.offline_practice import PLAYER_SEAT, OfflinePractice
from games.models import Table
from games.services import tables
from games.words.translated import game_words

pytestmark = pytest.mark.django_db

# What only the server has (the table's row, its owner, the match's row, the turn
# clock, the player's account) or only offline practice says (`offline`, the player
# named "You"); everything else must be equal.
SERVER_ONLY_TABLE = ("id", "owner", "match", "deadline", "deadline_ms", "offline")
SERVER_ONLY_SEAT = ("name", "connected", "reliability", "self_named")


def comparable(frame: dict) -> dict:
    """The frame without its transport fields (`type`, `seq`, offline's `bot` timing)
    and without the fields only one side can know (above), which are checked apart."""
    frame = json.loads(json.dumps(frame))  # a copy, tuples as lists as on the wire
    for key in ("type", "seq", "bot"):
        frame.pop(key, None)
    for key in SERVER_ONLY_TABLE:
        frame["table"].pop(key)
    for key in SERVER_ONLY_SEAT:
        frame["table"]["seats"][PLAYER_SEAT].pop(key)
    if frame["result"] is not None and frame["result"]["you"] is not None:
        frame["result"]["you"].pop("balance")  # the account's coins: offline has none
    return frame


def shape(value, key=None):
    """Every key path of a frame, down through lists (a result's `balance` is the
    account's coins online, None offline: a leaf either way)."""
    if key == "balance":
        return None
    if isinstance(value, dict):
        return {key: shape(item, key) for key, item in value.items()}
    if isinstance(value, list):
        return [shape(item) for item in value]
    return None


@pytest.mark.parametrize(
    ("rules", "level", "pick_seed"), [("online", "easy", 1), ("classic", "medium", 2)]
)
def test_online_and_offline_practice_frames_are_the_same_on_the_same_seeded_match(
    player, monkeypatch, django_capture_on_commit_callbacks, rules, level, pick_seed
):
    sent: list[dict] = []
    monkeypatch.setattr(
        transport,
        "send_table_frames",
        lambda *, frames, **_: sent.append(json.loads(frames[str(PLAYER_SEAT)])),
    )
    # A practice table deals at once, from a seed of its own: this one (offline
    # seeds stay below 2**53, a JavaScript number).
    seed = 9_007_199_254_740_000 + pick_seed
    monkeypatch.setattr(
        tables,
        "random",
        SimpleNamespace(SystemRandom=lambda: SimpleNamespace(randrange=lambda _: seed)),
    )
    table = services.table_create_practice(user=player, rules=rules, bot_level=level)
    assert selectors.latest_match(table).seed == seed
    practice = OfflinePractice(rules=rules, level=level, seed=seed)

    def online_state() -> dict:
        return selectors.table_frame(table_id=table.pk, position=PLAYER_SEAT)

    first = online_state()
    offline_first = practice.frame("state")
    assert shape(first) == shape(offline_first)
    assert comparable(first) == comparable(offline_first)
    # The bots carry the same names: one naming rule, drawn from the match's seed.
    names = [seat["name"] for seat in first["table"]["seats"]]
    assert names[0] == player.username
    assert names[1:] == [seat["name"] for seat in offline_first["table"]["seats"]][1:]
    assert offline_first["table"]["seats"][PLAYER_SEAT]["name"] == "You"

    rng = random.Random(pick_seed)
    moves = 0
    while not practice.match.is_over:
        version = practice.version
        if practice.bot_to_play():
            offline = practice.bot_play()
            seat, action = offline["bot"]["seat"], offline["bot"]["action"]
            with django_capture_on_commit_callbacks(execute=True):
                assert services.match_play_bot(
                    table_id=table.pk, version=version, position=seat, action=action
                )
        else:
            action = rng.choice(practice.match.legal_actions())
            offline = practice.play(action)
            with django_capture_on_commit_callbacks(execute=True):
                services.match_play(user=player, table_id=table.pk, action=action, version=version)
        moves += 1
        online = sent[-1]  # the `update` frame the player's socket is sent
        assert offline["type"] == online["type"] == "update"
        assert shape(online) == shape({k: v for k, v in offline.items() if k != "bot"})
        assert comparable(online) == comparable(offline), f"move {moves}: {action}"
        # and the full state a reload draws is that same frame
        assert comparable(online_state()) == comparable(practice.frame("state"))

    last = sent[-1]
    assert Table.objects.get(pk=table.pk).status == "finished" == last["table"]["status"]
    assert last["summary"]["final"] is True and last["last_trick"] is not None
    assert last["result"]["winner"] == practice.match.winner
    assert all(place["coins"] is None and place["xp"] is None for place in last["result"]["places"])
    assert last["result"]["you"]["balance"]["coins"] == 1000  # practice pays nothing
    assert practice.frame()["result"]["you"]["balance"] is None
    assert moves > 20


def test_offline_refusals_read_as_the_servers_in_every_language(
    player, monkeypatch, django_capture_on_commit_callbacks, settings
):
    """Every card and bid the engine refuses the player, all match long: the offline
    worker's error frame (its game words handed over by the page, as JSON text) says
    what the server's websocket says, code, params and message, in each language."""
    monkeypatch.setattr(transport, "send_table_frames", lambda **_: None)
    seed = 4242
    monkeypatch.setattr(
        tables,
        "random",
        SimpleNamespace(SystemRandom=lambda: SimpleNamespace(randrange=lambda _: seed)),
    )
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    languages = [code for code, _ in settings.LANGUAGES]
    offline = {}
    for language in languages:
        with translation.override(language):
            text = json.dumps(game_words())
        # as the page hands them to the worker: JSON text
        assert json.loads(offline_practice.start("online", "easy", seed, "You", text))["seq"] == 0
        offline[language] = offline_practice._current
    reference = offline[languages[0]]

    def online_refusal(action: str) -> GameError:
        with pytest.raises(GameError) as refused:
            services.match_play(
                user=player, table_id=table.pk, action=action, version=reference.version
            )
        return refused.value

    def compare(action: str) -> set[str]:
        error = online_refusal(action)
        for language, practice in offline.items():
            frame = practice.play(action)
            with translation.override(language):
                message = error.message
            assert frame == {
                "type": "error",
                "code": error.code,
                **({"params": error.params} if error.params else {}),
                "message": message,
            }, (language, action)
        return {error.params.get("reason", error.code)}

    rng = random.Random(3)
    seen: set[str] = set()
    while not reference.match.is_over:
        if reference.bot_to_play():
            seen |= compare(rng.choice(CARD_CODES))  # not the player's turn
            version = reference.version
            frames = [practice.bot_play() for practice in offline.values()]
            seat, action = frames[0]["bot"]["seat"], frames[0]["bot"]["action"]
            with django_capture_on_commit_callbacks(execute=True):
                assert services.match_play_bot(
                    table_id=table.pk, version=version, position=seat, action=action
                )
            continue
        legal = set(reference.match.legal_actions())
        for action in sorted({*CARD_CODES, *BIDS, "7o", "xx"} - legal):
            seen |= compare(action)
        action = rng.choice(sorted(legal))
        with django_capture_on_commit_callbacks(execute=True):
            services.match_play(
                user=player, table_id=table.pk, action=action, version=reference.version
            )
        for practice in offline.values():
            assert practice.play(action)["type"] == "update"
    assert {
        "not_your_turn",
        "card_not_held",
        "malformed_action",
        "bid_too_low",
        "bidding_not_over",
        "bidding_over",
        "must_follow",
        "must_trump",
    } <= seen
