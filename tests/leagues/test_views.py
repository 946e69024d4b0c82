from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from leagues.models import Division, LeagueWeek
from leagues.services import league_points_record, league_weeks_close_due

pytestmark = pytest.mark.django_db


@pytest.fixture
def now():
    return timezone.now()


def score_now(users_points, now, start=1000):
    for index, (user, points) in enumerate(users_points):
        league_points_record(user=user, match_id=start + index, points=points, finished_at=now)


def test_the_league_page_needs_a_login(client):
    response = client.get(reverse("league"))
    assert response.status_code == 302
    assert reverse("account_login") in response["Location"]


def test_the_page_shows_division_rank_points_and_time_left(client, players, now):
    ana, bea, cai = players(3)
    score_now([(ana, 20), (bea, 14), (cai, 8)], now)
    client.force_login(bea)
    response = client.get(reverse("league"))
    body = response.content.decode()
    assert response.status_code == 200
    assert response.context["board"].rank == 2
    assert response.context["board"].points == 14
    assert response.context["board"].division == Division.BRONZE
    assert "2 de 3" in body  # Spanish by default
    assert "Bronce" in body
    assert response.context["board"].ends_at > now


def test_a_player_with_no_points_sees_the_top_and_is_not_ranked(client, players, now):
    ana, zoe = players(2)
    score_now([(ana, 20)], now)
    client.force_login(zoe)
    response = client.get(reverse("league"), HTTP_ACCEPT_LANGUAGE="en")
    board = response.context["board"]
    assert board.rank is None and [row.username for row in board.top] == [ana.username]


def test_the_standings_show_the_top_and_the_rows_around_a_player_far_down(
    client, players, now, settings
):
    settings.LEAGUE_BOARD_TOP = 3
    settings.LEAGUE_BOARD_AROUND = 1
    users = players(8)
    score_now([(u, 100 - 10 * i) for i, u in enumerate(users)], now)
    # The fifth player reaches 70, tying the fourth.
    league_points_record(user=users[4], match_id=1, points=10, finished_at=now)
    client.force_login(users[5])
    board = client.get(reverse("league")).context["board"]
    assert [(r.rank, r.points) for r in board.top] == [(1, 100), (2, 90), (3, 80)]
    # 100 90 80 70 70 | 50 (you) | 40 30: the row above you shares 4th place.
    assert [(r.rank, r.points, r.is_you) for r in board.around] == [
        (4, 70, False),
        (6, 50, True),
        (7, 40, False),
    ]
    assert board.rank == 6


def test_the_around_rows_rank_ties_like_the_archive(client, players, now, settings):
    settings.LEAGUE_BOARD_TOP = 2
    settings.LEAGUE_BOARD_AROUND = 1
    users = players(6)
    score_now([(u, p) for u, p in zip(users, [50, 40, 30, 30, 30, 10], strict=True)], now)
    client.force_login(users[4])
    board = client.get(reverse("league")).context["board"]
    assert board.rank == 3
    assert [(r.rank, r.points) for r in board.around] == [(3, 30), (3, 30), (6, 10)]
    assert [r.is_you for r in board.around] == [False, True, False]


def test_an_htmx_refresh_gets_only_the_standings(client, players, now):
    (ana,) = players(1)
    score_now([(ana, 20)], now)
    client.force_login(ana)
    response = client.get(
        reverse("league"), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="league-standings"
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="league-standings"')
    assert "<html" not in body


def test_last_weeks_result_shows_prize_and_movement(client, players, record):
    from tests.leagues.conftest import NEXT_MONDAY

    users = players(5)
    for user, points in zip(users, [50, 40, 30, 20, 10], strict=True):
        record(user, points)
    league_weeks_close_due(now=NEXT_MONDAY)
    client.force_login(users[0])
    response = client.get(reverse("league"), HTTP_ACCEPT_LANGUAGE="es")
    last = response.context["last"]
    assert last.standing.prize == 300 and last.standing.movement == 1
    assert "300 monedas" in response.content.decode()
    assert "subió" in response.content.decode().lower()


def closed_weeks(record, players, count):
    from tests.leagues.conftest import MIDWEEK

    (ana,) = players(1)
    for index in range(count):
        record(ana, 4, when=MIDWEEK + timedelta(days=7 * index))
    league_weeks_close_due(now=MIDWEEK + timedelta(days=7 * count))
    return ana


def test_past_weeks_are_paged_and_a_page_they_do_not_have_is_an_error(
    client, players, record, settings
):
    settings.LEAGUE_ARCHIVE_WEEKS_PER_PAGE = 2
    ana = closed_weeks(record, players, 3)
    client.force_login(ana)
    url = reverse("league_weeks")
    assert len(client.get(url).context["page"].object_list) == 2
    assert client.get(url, {"page": "2"}).context["page"].number == 2
    for bad, status in (("abc", 400), ("0", 404), ("-3", 404), ("3", 404), ("", 400), ("1e9", 400)):
        response = client.get(url, {"page": bad})
        assert response.status_code == status, bad
        assert 'class="error-page"' in response.text, bad


def test_an_archived_week_shows_its_standings_by_division(client, players, record, settings):
    settings.LEAGUE_ARCHIVE_STANDINGS_PER_PAGE = 2
    from tests.leagues.conftest import NEXT_MONDAY

    users = players(5)
    for user, points in zip(users, [50, 40, 30, 20, 10], strict=True):
        record(user, points)
    league_weeks_close_due(now=NEXT_MONDAY)
    week = LeagueWeek.objects.get(status="closed")
    client.force_login(users[0])
    url = reverse("league_week", args=[week.pk])
    first = client.get(url)
    assert [r.points for r in first.context["page"].object_list] == [50, 40]
    third = client.get(url, {"page": "3", "division": str(Division.BRONZE)})
    assert [r.points for r in third.context["page"].object_list] == [10]
    assert client.get(url, {"page": "x"}).status_code == 400
    assert client.get(url, {"page": "4"}).status_code == 404
    silver = client.get(url, {"division": "2"})
    assert list(silver.context["page"].object_list) == []
    assert client.get(url, {"division": "nine"}).status_code == 400
    assert client.get(url, {"division": str(Division.DIAMOND + 1)}).status_code == 404
    partial = client.get(
        url, {"page": "2"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="league-archive"
    )
    assert partial.content.decode().lstrip().startswith('<div id="league-archive">')


def test_an_open_or_unknown_week_is_not_found(client, players, record):
    (ana,) = players(1)
    record(ana, 4)
    client.force_login(ana)
    week = LeagueWeek.objects.get()
    assert client.get(reverse("league_week", args=[week.pk])).status_code == 404
    assert client.get(reverse("league_week", args=[week.pk + 99])).status_code == 404


def test_the_navigation_links_to_the_league(client, player):
    client.force_login(player)
    assert reverse("league") in client.get(reverse("home")).content.decode()


def test_archive_pages_split_tie_groups_without_losing_or_repeating_a_row(
    client, players, record, settings
):
    from tests.leagues.conftest import NEXT_MONDAY

    settings.LEAGUE_ARCHIVE_STANDINGS_PER_PAGE = 2
    users = players(7)
    for user, points in zip(users, [50, 40, 40, 40, 30, 30, 10], strict=True):
        record(user, points)
    league_weeks_close_due(now=NEXT_MONDAY)
    week = LeagueWeek.objects.get(status="closed")
    assert week.division_players == {str(Division.BRONZE): 7}
    client.force_login(users[0])
    url = reverse("league_week", args=[week.pk])

    def page(number):
        rows = client.get(url, {"page": number}).context["page"].object_list
        return [(r.rank, r.points, r.user.username) for r in rows]

    pages = [page(n) for n in (1, 2, 3, 4)]
    assert [[(rank, points) for rank, points, _ in p] for p in pages] == [
        [(1, 50), (2, 40)],
        [(2, 40), (2, 40)],
        [(5, 30), (5, 30)],
        [(7, 10)],
    ]
    names = [name for p in pages for _, _, name in p]
    assert sorted(names) == sorted(u.username for u in users)
    # A week closed before the per-division sizes were kept still pages (by counting).
    LeagueWeek.objects.filter(pk=week.pk).update(division_players={})
    assert client.get(url, {"page": "4"}).context["page"].paginator.count == 7
