"""The live table's frames (games/sockets/live.py): each seat's and the spectators'."""

from __future__ import annotations

import json

import pytest

from economy.levels import level_progress
from economy.selectors import balances
from games import selectors, services
from games.frames import live
from games.frames.builder import BOT_NAMES
from games.models import MatchSeat, Table
from games.state import engine_match
from tests.games.conftest import live_match, play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def easy_room(started_room):
    """The started room with quick bots, for whole matches."""
    Table.objects.filter(pk=started_room.pk).update(bot_level="easy")
    return started_room


def frames_now(table) -> dict[str, dict]:
    table = Table.objects.get(pk=table.pk)
    seats = selectors.table_seats(table)
    match = selectors.latest_match(table)
    texts = live.table_frames(
        table=table,
        seats=seats,
        match=match,
        engine=engine_match(match),
        events=[],
        outcome=selectors.match_outcome(match),
    )
    return {key: json.loads(text) for key, text in texts.items()}


def test_each_seat_gets_its_own_frame_naming_every_seat(started_room, player):
    frames = frames_now(started_room)
    assert set(frames) == {"0", "1", "2", "3", "watch"}
    for key, frame in frames.items():
        seat = None if key == "watch" else int(key)
        assert frame["seat"] == seat
        assert frame["view"]["hand"]["seat"] == seat
        seats = frame["table"]["seats"]
        assert [s["name"] for s in seats[:3]] == ["ana", "olga", "pablo"]
        assert seats[3]["kind"] == "bot" and seats[3]["name"] in BOT_NAMES
        assert seats[3]["level"] == started_room.bot_level and seats[0]["level"] is None
        assert [s["pair"] for s in seats] == [0, 1, 0, 1]
        assert frame["result"] is None and frame["summary"] is None


def test_a_bots_name_stays_the_same_for_the_whole_match(started_room, player):
    before = frames_now(started_room)["0"]["table"]["seats"][3]["name"]
    from tests.games.conftest import drive_bots

    match = live_match(started_room)
    engine = engine_match(match)
    users = {0: player}
    while engine.to_play in users:
        services.match_play(
            user=player,
            table_id=started_room.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
        drive_bots(started_room)
        match = live_match(started_room)
        engine = engine_match(match)
    assert frames_now(started_room)["2"]["table"]["seats"][3]["name"] == before


def test_a_finished_match_tells_each_player_their_result_and_new_balance(
    easy_room, player, partner, opponent
):
    started_room = easy_room
    match = play_out(started_room, [player, opponent, partner, None])
    frames = frames_now(started_room)
    seats = {ms.position: ms for ms in MatchSeat.objects.filter(match=match)}
    for position, user in ((0, player), (1, opponent), (2, partner)):
        result = frames[str(position)]["result"]
        you = result["you"]
        assert you["place"] == seats[position].place and you["won"] == seats[position].won
        assert you["balance"] == {
            "coins": balances(user)["coins"],
            "xp": balances(user)["xp"],
            "level": level_progress(balances(user)["xp"]).level,
        }
        if you["won"]:
            assert you["coins"] > 0  # friends: the winning pair is paid
        assert result["winner"] == match.winner
    assert frames["watch"]["result"]["you"] is None
    assert frames["3"]["result"]["you"]["balance"] is None  # a bot
    summary = frames["0"]["summary"]
    assert summary["final"] and summary["hand_no"] == frames["0"]["view"]["hand_no"]


def test_an_abandoner_is_shown_a_loss_and_placed_after_their_partner(
    easy_room, player, partner, opponent
):
    started_room = easy_room
    services.seat_leave(user=player, table_id=started_room.pk)
    play_out(started_room, {1: opponent, 2: partner})
    frames = frames_now(started_room)
    mine = frames["0"]["result"]["you"]
    assert mine["abandoned"] and mine["won"] is False and mine["coins"] == 0
    places = frames["2"]["result"]["places"]
    assert places[0]["place"] > places[2]["place"]


def test_a_stayer_ranks_before_an_abandoning_partner_whatever_the_points():
    assert services.places_for(0, (90, 0, 10, 0), (5, 0, 1, 0), {0}) == [2, 3, 1, 4]
    assert services.places_for(1, (0, 90, 0, 10), (0, 5, 0, 1), {1, 2}) == [3, 2, 4, 1]


def test_frames_encoded_once_per_change_equal_each_seats_own_frame(started_room):
    """table_frames splices the shared JSON with each seat's part: the result must be
    exactly build_frame's frame for that seat, at every step of a whole match."""
    import random

    table = Table.objects.get(pk=started_room.pk)
    seats = selectors.table_seats(table)
    match = selectors.latest_match(table)
    engine = engine_match(match)
    rng = random.Random(4)
    outcome = {
        "winner": 1,
        "scores": [3, 6],
        "places": [{"position": p, "place": p + 1, "won": p % 2 == 1} for p in range(4)],
        "balances": {seats[0].user_id: {"coins": 5, "xp": 7, "level": 1}},
    }
    steps = 0
    while True:
        events = [{"type": "step", "n": steps}]
        spliced = live.table_frames(
            table=table, seats=seats, match=match, engine=engine, events=events, outcome=outcome
        )
        for key, text in spliced.items():
            position = None if key == "watch" else int(key)
            expected = live.build_frame(
                kind="update",
                table=table,
                seats=seats,
                match=match,
                engine=engine,
                position=position,
                events=events,
                outcome=outcome,
            )
            assert json.loads(text) == json.loads(json.dumps(expected)), (steps, key)
        if engine.is_over:
            break
        engine, _ = engine.apply(rng.choice(engine.legal_actions()))
        steps += 1
    assert steps > 20
    none = live.table_frames(table=table, seats=seats, match=None, engine=None, events=[])
    assert all(json.loads(text)["view"] is None for text in none.values())


def test_practice_results_name_no_coins_or_xp_for_any_seat(player):
    table = services.table_create_practice(user=player, rules="classic", bot_level="easy")
    play_out(table, {0: player})
    for key, frame in frames_now(table).items():
        places = frame["result"]["places"]
        assert len(places) == 4, key
        assert all(p["coins"] is None and p["xp"] is None for p in places), places


def test_paid_results_name_the_coins_and_xp_of_people_only(easy_room, player, partner, opponent):
    play_out(easy_room, [player, opponent, partner, None])
    places = frames_now(easy_room)["0"]["result"]["places"]
    assert [p["coins"] is None for p in places] == [False, False, False, True]  # seat 3: a bot
    assert all(isinstance(p["xp"], int) for p in places[:3]) and places[3]["xp"] is None


def test_frames_say_the_mode_and_rule_set_and_no_stake_at_a_room(started_room):
    info = frames_now(started_room)["0"]["table"]
    assert (info["mode"], info["rules"], info["stake"], info["pot"]) == (
        "friends",
        started_room.rules,
        None,
        None,
    )
