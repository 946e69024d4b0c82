import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cuatrola.engine import Match as EngineMatch
from games.models import Match, MatchStatus
from games.state import record_from_log
from history.presentation import Replay
from tests.games.hidden import card_name
from tests.history.conftest import store_finished, store_played


@pytest.mark.django_db
def test_the_replay_of_a_stored_match_reproduces_the_recorded_result(finished_practice):
    record = record_from_log(finished_practice)
    rebuilt = EngineMatch.from_dict(record)
    assert rebuilt.is_over
    assert rebuilt.scores == (finished_practice.score_a, finished_practice.score_b)
    assert rebuilt.winner == finished_practice.winner
    replay = Replay(record, ["a", "b", "c", "d"])
    assert replay.last == finished_practice.version
    assert replay.steps[-1][0].scores == rebuilt.scores


@pytest.mark.django_db
def test_the_match_page_shows_every_hand_with_the_deal_face_up(client, player, stored_match):
    client.force_login(player)
    response = client.get(f"/history/matches/{stored_match.pk}/")
    assert response.status_code == 200
    hands = response.context["hands"]
    record = record_from_log(stored_match)
    assert len(hands) == len(record["hands"])
    body = response.content.decode()
    for code in record["hands"][0]["deal"][1]:  # a bot's cards, now face up
        assert card_name(code) in body
    assert hands[-1]["score_after"] == (stored_match.score_a, stored_match.score_b)
    assert "Baza" in body or "Bazas" in body


@pytest.mark.django_db
def test_the_replay_steps_card_by_card_and_trick_by_trick(client, player, stored_match):
    client.force_login(player)
    url = f"/history/matches/{stored_match.pk}/"
    start = client.get(url).context["frame"]
    assert start["step"] == 0
    assert all(len(seat["cards"]) == 5 for seat in start["seats"])
    after_bids = client.get(url, {"step": start["next_trick"]}).context["frame"]
    assert len(after_bids["bids"]) == 4 or after_bids["hand_no"] == 1
    next_trick = client.get(url, {"step": after_bids["next_trick"]}).context["frame"]
    assert next_trick["last_trick"] is not None or next_trick["hand_no"] > 1
    one_card = client.get(url, {"step": after_bids["step"] + 1}).context["frame"]
    assert len(one_card["trick"]) == 1


@pytest.mark.django_db
def test_the_replay_reaches_the_last_card_and_the_final_score(client, player, stored_match):
    client.force_login(player)
    url = f"/history/matches/{stored_match.pk}/"
    last = client.get(url, {"step": stored_match.version}).context["frame"]
    assert last["is_over"]
    assert last["step"] == stored_match.version
    assert tuple(last["scores"]) == (stored_match.score_a, stored_match.score_b)
    assert "La partida ha terminado" in " ".join(last["events"])


@pytest.mark.django_db
def test_htmx_gets_only_the_replay_region(client, player, stored_match):
    client.force_login(player)
    response = client.get(
        f"/history/matches/{stored_match.pk}/",
        {"step": 3},
        headers={"HX-Request": "true", "HX-Target": "replay"},
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="replay"')
    assert "<html" not in body
    assert 'data-replay-step="3"' in body


@pytest.mark.django_db
@pytest.mark.parametrize(("step", "status"), [("-5", 404), ("past", 404), ("abc", 400), ("", 400)])
def test_a_step_the_replay_does_not_have_is_an_error_page(
    client, player, stored_match, step, status
):
    client.force_login(player)
    step = str(stored_match.version + 1) if step == "past" else step
    response = client.get(f"/history/matches/{stored_match.pk}/", {"step": step})
    assert response.status_code == status
    assert 'class="error-page"' in response.text


@pytest.mark.django_db
def test_a_live_match_page_is_a_404_and_reveals_no_card(client, player, stranger):
    from games import services

    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = Match.objects.get(table=table, status=MatchStatus.PLAYING)
    client.force_login(stranger)
    response = client.get(f"/history/matches/{match.pk}/")
    assert response.status_code == 404
    body = response.content.decode()
    for code in match.hands.get(number=1).deal[1]:
        assert card_name(code) not in body


@pytest.mark.django_db
def test_an_unknown_match_is_a_404(client, player):
    client.force_login(player)
    assert client.get("/history/matches/999999/").status_code == 404


@pytest.mark.django_db
def test_a_match_page_costs_a_fixed_number_of_queries(client, player, stranger):
    match = store_played([player, stranger, None, None])
    client.force_login(player)
    client.get(f"/history/matches/{match.pk}/")
    with CaptureQueriesContext(connection) as queries:
        client.get(f"/history/matches/{match.pk}/")
    store_finished([player, stranger, None, None], 500)
    with CaptureQueriesContext(connection) as again:
        client.get(f"/history/matches/{match.pk}/")
    # 10 for the page, 3 for the coach's region (the analysis, a VIP pass, the day's count),
    # 1 for the table talk (for the players of the match).
    assert len(again.captured_queries) == len(queries.captured_queries) <= 14


@pytest.mark.django_db
def test_a_player_of_the_match_gets_links_to_report_the_others(client, player, stranger):
    match = store_played([player, stranger, None, None])
    client.force_login(player)
    body = client.get(f"/history/matches/{match.pk}/").content.decode()
    assert f"/u/zoe/?match={match.pk}" in body
    assert "/u/ana/?match=" not in body


@pytest.mark.django_db
def test_someone_who_did_not_play_gets_no_report_links(client, player, stranger, make_user):
    match = store_played([player, stranger, None, None])
    client.force_login(make_user("otto"))
    body = client.get(f"/history/matches/{match.pk}/").content.decode()
    assert "?match=" not in body


def test_the_match_page_shows_each_players_place_coins_and_xp(client, player, stranger):
    from economy.services import Placement, match_reward
    from games.models import Mode
    from games.modes import mode_policy

    match = store_played([player, stranger, None, None], mode=Mode.FRIENDS)
    seats = {seat.user_id: seat for seat in match.match_seats.all() if seat.user_id}
    match_reward(
        match_id=match.pk,
        label=Mode.FRIENDS,
        rate=mode_policy(Mode.FRIENDS).reward_rate(),
        placements=[
            Placement(user=seat.user, place=seat.place, abandoned=False) for seat in seats.values()
        ],
    )
    winner = next(seat for seat in seats.values() if seat.place in (1, 2))
    expected_coins = 30 if winner.place == 1 else 20
    body = client.get(f"/history/matches/{match.pk}/").content.decode()
    results = body[body.index('class="match-results"') : body.index("</table>")]
    row = results[results.index(f">{winner.user.username}<") :].split("</tr>", 1)[0]
    cells = [cell.split("</td>")[0] for cell in row.split("<td>")[1:]]
    assert cells[-3:] == [str(expected_coins), str(expected_coins // 2 + 5), "—"]


@pytest.mark.django_db
def test_the_replay_draws_each_card_named_and_places_a_trick_before_its_players(
    client, player, stored_match
):
    client.force_login(player)
    url = f"/history/matches/{stored_match.pk}/"
    start = client.get(url).context["frame"]
    after_bids = client.get(url, {"step": start["next_trick"]}).context["frame"]
    after_trick = client.get(url, {"step": after_bids["next_trick"]})
    frame = after_trick.context["frame"]
    body = after_trick.content.decode()
    for seat in frame["seats"]:
        assert f'class="replay-seat replay-seat--{seat["seat"]}' in body
        for held in seat["cards"]:
            assert f'data-card="{held.code}"' in body
            assert f'alt="{card_name(held.code)}"' in body
    if frame["last_trick"]:
        winner = [p for p in frame["last_trick"]["plays"] if p["won"]]
        assert len(winner) == 1
        assert f"trick-play trick-play--{winner[0]['seat']} trick-play--won" in body
        assert 'class="card card--trick"' in body


@pytest.mark.django_db
def test_an_abandoner_is_listed_as_abandoned_not_by_place(client, player, stored_match):
    from games.models import MatchSeat

    seat = MatchSeat.objects.get(match=stored_match, user=player)
    MatchSeat.objects.filter(pk=seat.pk).update(abandoned=True, won=False)
    client.force_login(player)
    body = client.get(f"/history/matches/{stored_match.pk}/").content.decode()
    table = body.split('class="match-results"', 1)[1]
    row = table.split(">ana<", 1)[0].rsplit("<tr>", 1)[1]
    assert "Abandonó" in row


@pytest.mark.django_db
def test_the_match_page_charts_the_score_after_every_hand(client, player, stored_match):
    from history.selectors import finished_match

    hands = finished_match(stored_match.pk).engine.hands
    body = client.get(f"/history/matches/{stored_match.pk}/").content.decode()
    assert 'data-testid="chart-scores"' in body
    assert "Marcador mano a mano" in body
    final = f"<td>{stored_match.score_a}</td><td>{stored_match.score_b}</td>"
    assert final in body
    assert body.count('<circle class="mark series-0"') == len(hands) + 1  # 0 before hand 1


@pytest.mark.django_db
def test_the_match_page_names_each_bot_as_the_table_named_it(client, player, finished_practice):
    from games.frames.live import seat_names
    from games.models import Table

    stored_match = finished_practice
    table = Table.objects.get(matches=stored_match)
    at_the_table = seat_names(table=table, seats=list(table.seats.all()), match=stored_match)
    assert at_the_table[0] == player.username and None not in at_the_table
    client.force_login(player)
    response = client.get(f"/history/matches/{stored_match.pk}/")
    assert response.context["names"] == at_the_table  # the pairs, the hands, the replay
    results = {row["seat"].position: row["name"] for row in response.context["results"]}
    assert results == dict(enumerate(at_the_table))
    body = response.content.decode()
    assert all(name in body for name in at_the_table[1:])
    assert "Bot (asiento" not in body and "<td>Bot</td>" not in body
