import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Mode
from tests.history.conftest import store_finished


@pytest.mark.django_db
def test_the_history_needs_a_login(client):
    response = client.get("/history/")
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


@pytest.mark.django_db
def test_a_played_practice_match_is_in_the_history_with_its_result(client, player, stored_match):
    client.force_login(player)
    response = client.get("/history/")
    assert response.status_code == 200
    rows = response.context["rows"]
    assert [row.match for row in rows] == [stored_match]
    row = rows[0]
    assert row.outcome == ("won" if stored_match.winner == 0 else "lost")
    assert row.partner.is_bot
    assert {row.own_score, row.other_score} == {stored_match.score_a, stored_match.score_b}
    body = response.content.decode()
    assert f"/history/matches/{stored_match.pk}/" in body
    assert "Práctica" in body


@pytest.mark.django_db
def test_matches_are_newest_first_paged_and_filtered_by_mode(
    client, player, stranger, make_user, settings
):
    settings.HISTORY_PAGE_SIZE = 10
    online = store_finished([player, stranger, None, None], 12, mode=Mode.ONLINE)
    friends = store_finished([player, None, None, stranger], 3, mode=Mode.FRIENDS)
    client.force_login(player)
    first = client.get("/history/")
    # finished_at goes back one minute per index: index 0 of each batch is newest.
    assert len(first.context["rows"]) == 10
    times = [row.match.finished_at for row in first.context["rows"]]
    assert times == sorted(times, reverse=True)
    assert first.context["page"].paginator.count == 15
    last = client.get("/history/", {"page": 2})
    assert len(last.context["rows"]) == 5
    only_friends = client.get("/history/", {"mode": "friends"})
    assert {row.match for row in only_friends.context["rows"]} == set(friends)
    assert online[0] not in {row.match for row in only_friends.context["rows"]}


@pytest.mark.django_db
def test_unfinished_and_other_players_matches_are_not_listed(client, player, stranger):
    store_finished([stranger, None, None, None], 2)
    client.force_login(player)
    response = client.get("/history/")
    assert response.context["rows"] == []
    assert "Todavía no hay partidas terminadas." in response.content.decode()


@pytest.mark.django_db
def test_an_abandoned_match_shows_as_abandoned(client, player, stranger):
    store_finished([player, stranger, None, None], 1, abandoned=(0,))
    client.force_login(player)
    assert client.get("/history/").context["rows"][0].outcome == "abandoned"


@pytest.mark.django_db
@pytest.mark.parametrize(("page", "status"), [("9999", 404), ("2", 404), ("-1", 404), ("x", 400)])
def test_a_page_past_the_last_or_not_a_number_is_an_error_page(
    client, player, stranger, page, status
):
    store_finished([player, stranger, None, None], 3)
    client.force_login(player)
    assert client.get("/history/", {"page": "1"}).context["rows"]
    response = client.get("/history/", {"page": page})
    assert response.status_code == status
    assert 'class="error-page"' in response.text


@pytest.mark.django_db
def test_a_history_page_costs_the_same_few_queries_with_500_matches(
    client, player, stranger, make_user, django_assert_max_num_queries
):
    partner = make_user("pablo")
    store_finished([player, stranger, partner, None], 500)
    client.force_login(player)
    client.get("/history/")  # warm up sessions, content types
    with CaptureQueriesContext(connection) as few:
        client.get("/history/", {"page": 2})
    store_finished([player, stranger, partner, None], 1)
    with django_assert_max_num_queries(len(few.captured_queries)):
        client.get("/history/", {"page": 3})
    assert len(few.captured_queries) <= 10


@pytest.mark.django_db
def test_coins_and_xp_from_the_ledger_show_per_match(client, player, stranger):
    from economy.services import Placement, match_reward

    match = store_finished([player, stranger, None, None], 1)[0]
    paid = match_reward(
        match_id=match.pk,
        label="online",
        placements=[Placement(user=player, place=1), Placement(user=stranger, place=3)],
    )
    coins, xp = paid.by_user[player.pk]
    client.force_login(player)
    row = client.get("/history/").context["rows"][0]
    assert row.rewards == {"coins": coins, "xp": xp}


@pytest.mark.django_db
def test_league_points_stored_with_the_match_show_in_the_history(client, player, stranger):
    from online.models import MatchLeaguePoints

    match = store_finished([player, stranger, None, None], 1)[0]
    MatchLeaguePoints.objects.create(match=match, position=0, user=player, place=1, points=10)
    client.force_login(player)
    row = client.get("/history/").context["rows"][0]
    assert row.rewards["league_points"] == 10


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"mode": "nonsense"}, "nonsense"),
        ({"rules": "klondike"}, "klondike"),
        ({"result": "draw"}, "draw"),
        ({"role": "referee"}, "referee"),
        ({"since": "2026-13-45"}, "Introduzca una fecha válida."),
        ({"until": "yesterday"}, "Introduzca una fecha válida."),
        ({"since": "1999-12-31"}, "2000"),
        ({"until": "99999-01-01"}, "Introduzca una fecha válida."),
        (
            {"since": "2026-05-02", "until": "2026-05-01"},
            "La fecha final es anterior a la inicial.",
        ),
        ({"player": "nadie"}, "No hay ningún jugador llamado nadie."),
    ],
)
def test_a_filter_that_makes_no_sense_lists_nothing_and_says_why(
    client, player, stranger, query, message
):
    store_finished([player, stranger, None, None], 3)
    client.force_login(player)
    response = client.get("/history/", query)
    assert response.status_code == 200
    assert response.context["rows"] == []
    body = response.content.decode()
    assert 'data-testid="history-invalid"' in body
    assert message in body


@pytest.mark.django_db
def test_filtering_by_another_player_lists_only_your_own_matches_with_them(
    client, player, stranger, make_user
):
    other = make_user("otto")
    together = store_finished([player, stranger, None, None], 2)
    store_finished([stranger, other, None, None], 3)  # stranger's, without the player
    client.force_login(player)
    response = client.get("/history/", {"player": "ZOE"})
    assert [row.match for row in response.context["rows"]] == together
    # Nobody's history but your own can be listed: there is no parameter for it.
    response = client.get("/history/", {"user": stranger.pk, "username": "zoe"})
    assert {row.match for row in response.context["rows"]} == set(together)


@pytest.mark.django_db
def test_a_filter_that_matches_nothing_says_so(client, player, stranger):
    store_finished([player, stranger, None, None], 2)
    client.force_login(player)
    response = client.get("/history/", {"result": "abandoned"})
    assert response.context["rows"] == []
    assert "Ninguna partida terminada coincide con estos filtros." in response.content.decode()


@pytest.mark.django_db
def test_the_pages_of_a_filtered_history_keep_the_filters(client, player, stranger, settings):
    settings.HISTORY_PAGE_SIZE = 2
    store_finished([player, stranger, None, None], 5, mode="friends")
    store_finished([player, stranger, None, None], 5, mode="online")
    client.force_login(player)
    response = client.get("/history/", {"mode": "friends", "result": "won"})
    assert response.context["page"].paginator.count == 5
    assert 'href="?mode=friends&amp;result=won&amp;page=2"' in response.content.decode()
    second = client.get("/history/", {"mode": "friends", "result": "won", "page": 2})
    assert all(row.match.table.mode == "friends" for row in second.context["rows"])


@pytest.mark.django_db
def test_each_row_links_the_people_who_sat_there_and_names_bots(client, player, make_user):
    from django.urls import reverse

    from games.frames.builder import bot_names

    friend, rival = make_user("사용자"), make_user("ñandú.2")
    match = store_finished([player, rival, friend, None], 1, mode=Mode.FRIENDS)[0]
    client.force_login(player)
    body = client.get("/history/").content.decode()
    row = body.split('<tr class="outcome-won">')[1].split("</tr>")[0]
    cells = [cell.split("</td>")[0] for cell in row.split("<td")[1:]]
    assert cells[2] == f'><a href="{reverse("profile", args=["사용자"])}">사용자</a>'
    bot = bot_names(seed=match.seed, taken={"ana", "사용자", "ñandú.2"})[3]
    assert cells[3] == f'><a href="{reverse("profile", args=["ñandú.2"])}">ñandú.2</a>, {bot}'
    assert f'href="{reverse("history_match", args=[match.pk])}"' in cells[-1]
    assert "Amigos" in cells[1]


@pytest.mark.django_db
def test_the_filter_form_drawn_once_still_shows_each_querys_values_and_errors(
    client, player, make_user
):
    client.force_login(player)
    unknown = client.get("/history/", {"player": "nadie"}).content.decode()
    assert "nadie" in unknown and 'id="id_player_error"' in unknown
    make_user("nadie")
    known = client.get("/history/", {"player": "nadie"}).content.decode()
    assert 'value="nadie"' in known and 'id="id_player_error"' not in known
    other = client.get("/history/", {"mode": "friends"}).content.decode()
    assert '<option value="friends" selected>' in other and 'value="nadie"' not in other


@pytest.mark.django_db
def test_a_score_of_0_reads_0_and_bots_are_named_as_the_table_named_them(client, player, stranger):
    from games.frames.builder import bot_names

    # Index 0: pair 0 won 21–0; seats 1 and 3 (an opponent and the partner) are bots.
    match = store_finished([player, None, stranger, None], 1)[0]
    assert (match.score_a, match.score_b) == (21, 0)
    client.force_login(player)
    row = client.get("/history/").context["rows"][0]
    html = str(row.html)
    assert "<td>21–0</td>" in html and "—" not in html.split("<td>21–0</td>")[0][-20:]
    drawn = bot_names(seed=match.seed, taken={"ana", "zoe"})
    assert row.opponents[0].name == drawn[1] and row.opponents[1].name == drawn[3]
    assert f"<td>{drawn[1]}, {drawn[3]}</td>" in html
    assert f">{stranger.username}</a>" in html  # the partner, a person, linked
    assert ">Bot<" not in html
