"""Tables in play (`/watch/`, games.selectors.tables_in_play): what is listed, in which
order, and the page with its polled region (docs/watching.md, "Pages")."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import hooks, selectors
from games import services as games
from games.models import BotLevel, Match, MatchStatus, RuleSetName, Seat, Table
from online import services as online
from tests.watching import online_table, stake_table

pytestmark = pytest.mark.django_db


def rate(table: Table, *ratings: int) -> None:
    for position, value in enumerate(ratings):
        Seat.objects.filter(table=table, position=position).update(rating=value)


def score(table: Table, a: int, b: int) -> None:
    Match.objects.filter(table=table, status=MatchStatus.PLAYING).update(score_a=a, score_b=b)


def listed_ids() -> list[int]:
    return [row.table_id for row in selectors.tables_in_play()]


def test_a_live_online_table_is_listed_with_its_players_score_and_hand(make_user):
    table = online_table(make_user, "on")
    rate(table, 1510, 1490, 1530, 1470)
    score(table, 7, 3)
    (row,) = selectors.tables_in_play()
    assert row.table_id == table.pk and row.mode == "online"
    seats = {s.position: s.user.username for s in Seat.objects.filter(table=table)}
    assert [p.name for p in row.pairs[0]] == [seats[0], seats[2]]
    assert [p.name for p in row.pairs[1]] == [seats[1], seats[3]]
    assert [p.rating["value"] for p in row.pairs[0]] == [1510, 1530]
    assert row.scores == (7, 3) and row.hand_no >= 1
    assert row.stake is None and row.rating == 1510 + 1490 + 1530 + 1470


def test_a_private_room_a_practice_table_and_a_forbidden_stake_table_are_not_listed(
    make_user, started_room
):
    games.table_create_practice(
        user=make_user("solo"), rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY
    )
    forbidden = stake_table(make_user, "fb", forbid=True)
    allowed = stake_table(make_user, "ok")
    live = online_table(make_user, "on")
    assert Table.objects.get(pk=forbidden.pk).status == "playing"
    assert sorted(listed_ids()) == sorted([allowed.pk, live.pk])
    assert started_room.pk not in listed_ids()


def test_a_friends_room_opened_to_watch_is_listed(started_room):
    assert listed_ids() == []
    Table.objects.filter(pk=started_room.pk).update(open_to_watch=True)
    (row,) = selectors.tables_in_play()
    assert row.table_id == started_room.pk
    bot = row.pairs[1][1]  # seat 4 is a bot
    assert bot.bot_level == "easy" and bot.name


def test_a_table_not_yet_playing_nor_a_finished_one_is_not_listed(make_user):
    waiting = online.stake_table_open(user=make_user("w0"), stake=100)
    done = online_table(make_user, "dn")
    Table.objects.filter(pk=done.pk).update(status="finished")
    assert waiting.pk not in listed_ids() and listed_ids() == []


def test_the_highest_combined_rating_comes_first(make_user):
    low = online_table(make_user, "lo")
    high = online_table(make_user, "hi")
    rate(low, 1400, 1400, 1400, 1400)
    rate(high, 1600, 1600, 1600, 1600)
    assert listed_ids() == [high.pk, low.pk]


def test_bots_count_at_their_levels_rating(make_user, started_room):
    """A room of three people at 1000 and a bot against four people at 1000: the bot's
    fixed rating decides which comes first."""
    Table.objects.filter(pk=started_room.pk).update(open_to_watch=True)
    rate(started_room, 1000, 1000, 1000)
    people = online_table(make_user, "pp")
    rate(people, 1000, 1000, 1000, 1000)
    bot = hooks.bot_rating(started_room.bot_level)
    assert bot is not None
    expected = [started_room.pk, people.pk] if bot > 1000 else [people.pk, started_room.pk]
    assert listed_ids() == expected


def test_between_equal_ratings_the_closer_score_comes_first(make_user):
    far = online_table(make_user, "fa")
    close = online_table(make_user, "cl")
    for table in (far, close):
        rate(table, 1500, 1500, 1500, 1500)
    score(far, 20, 2)
    score(close, 11, 12)
    assert listed_ids() == [close.pk, far.pk]


def test_between_equal_ratings_and_scores_the_bigger_stake_comes_first(make_user):
    small = stake_table(make_user, "sm", stake=100)
    big = stake_table(make_user, "bg", stake=1000)
    for table in (small, big):
        rate(table, 1500, 1500, 1500, 1500)
        score(table, 4, 4)
    rows = selectors.tables_in_play()
    assert [row.table_id for row in rows] == [big.pk, small.pk]
    assert [row.stake for row in rows] == [1000, 100]


def test_the_list_is_cut_at_its_limit_after_sorting(make_user):
    tables = [online_table(make_user, f"t{i}x") for i in range(3)]
    for i, table in enumerate(tables):
        rate(table, 1000 + i, 1000, 1000, 1000)
    assert [row.table_id for row in selectors.tables_in_play(limit=2)] == [
        tables[2].pk,
        tables[1].pk,
    ]


def test_the_list_costs_two_queries_however_many_tables(make_user):
    for i in range(2):
        online_table(make_user, f"q{i}x")
    with CaptureQueriesContext(connection) as two:
        assert len(selectors.tables_in_play()) == 2
    for i in range(2, 5):
        online_table(make_user, f"q{i}x")
    with CaptureQueriesContext(connection) as five:
        assert len(selectors.tables_in_play()) == 5
    assert len(two.captured_queries) == len(five.captured_queries) == 2


# --- the page -------------------------------------------------------------------------


@pytest.fixture
def signed_in(client, spectator):
    client.force_login(spectator)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def test_the_page_needs_a_signed_in_user(client):
    response = client.get(reverse("games:watch_list"))
    assert response.status_code == 302 and "/login" in response["Location"]


def test_the_page_lists_a_table_with_a_watch_link_and_polls_its_region(signed_in, make_user):
    table = online_table(make_user, "on")
    response = signed_in.get(reverse("games:watch_list"))
    text = response.content.decode()
    assert response.status_code == 200
    assert f'data-testid="watch-table-{table.pk}"' in text
    assert f'href="{reverse("games:table", args=[table.pk])}"' in text
    assert 'hx-trigger="every 10s"' in text and 'class="watch-count"' not in text  # nobody yet


def test_the_htmx_poll_gets_the_region_only(signed_in, make_user):
    online_table(make_user, "on")
    response = signed_in.get(reverse("games:watch_list"), headers={"HX-Request": "true"})
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="watch-tables"')
    assert "<html" not in text and "on0" in text


def test_the_watcher_counts_come_from_the_socket_limits(signed_in, make_user, monkeypatch):
    online_table(make_user, "on")
    monkeypatch.setattr("games.views.watchers_of", lambda ids: dict.fromkeys(ids, 3))
    text = signed_in.get(reverse("games:watch_list")).content.decode()
    assert "3 watching" in text


def test_an_empty_list_says_so_and_links_to_play(signed_in):
    text = signed_in.get(reverse("games:watch_list")).content.decode()
    assert 'data-testid="watch-empty"' in text
    assert reverse("online:play") in text


def test_without_the_online_app_the_empty_list_links_only_to_the_lobby(signed_in, monkeypatch):
    monkeypatch.setattr(hooks, "_links", {})
    text = signed_in.get(reverse("games:watch_list")).content.decode()
    assert reverse("online:play") not in text
    assert f'href="{reverse("games:lobby")}"' in text


def test_the_page_takes_no_query_string_it_could_choke_on(signed_in):
    for query in ("?page=abc", "?x=%00", "?limit=-1"):
        assert signed_in.get(reverse("games:watch_list") + query).status_code == 200


def test_only_get_is_allowed(signed_in):
    assert signed_in.post(reverse("games:watch_list")).status_code == 405


def test_the_lobby_and_the_site_navigation_link_to_the_page(signed_in):
    text = signed_in.get(reverse("games:lobby")).content.decode()
    assert text.count(f'href="{reverse("games:watch_list")}"') >= 2


def test_the_page_speaks_the_readers_language(signed_in, make_user, monkeypatch):
    online_table(make_user, "on")
    monkeypatch.setattr("games.views.watchers_of", lambda ids: dict.fromkeys(ids, 1))
    signed_in.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    text = signed_in.get(reverse("games:watch_list")).content.decode()
    assert "Mesas en juego" in text and "1 mirón" in text


@pytest.mark.parametrize(
    ("language", "says", "never"),
    [
        ("es", "jugadores con mejor valoración", "mejor puntuación"),
        ("it", "con la valutazione più alta", "punteggio più alto"),
        ("en", "the highest-rated players", "best-rated"),
    ],
)
def test_the_page_says_the_tables_of_the_best_rated_come_first_not_the_best_scores(
    client, make_user, language, says, never
):
    """The intro said "mejor puntuación" (the best score) where it means the rating."""
    client.force_login(make_user("reader", language=language))
    page = client.get(reverse("games:watch_list"), HTTP_ACCEPT_LANGUAGE=language)
    body = page.content.decode()
    assert says in body and never not in body
