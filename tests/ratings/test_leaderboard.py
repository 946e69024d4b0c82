"""The leaderboard (top players, your own rank) and the rating on the player page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import selectors
from ratings.models import Rating, RatingChange, RatingReset
from ratings.selectors import BOARD_SIZE, leaderboard
from tests.ratings.conftest import finish, online_table

pytestmark = pytest.mark.django_db


def rated(user, value, matches=20, days_ago=1):
    return Rating.objects.create(
        user=user,
        value=value,
        matches=matches,
        last_rated_at=timezone.now() - timedelta(days=days_ago),
    )


def test_the_board_ranks_established_recent_players_by_rating(make_user):
    top, second, tied, provisional, idle = (
        make_user(n) for n in ("ana", "bea", "cai", "dan", "eva")
    )
    rated(top, 1800)
    rated(second, 1700)
    rated(tied, 1700)
    rated(provisional, 1900, matches=9)
    rated(idle, 2000, days_ago=31)
    board = leaderboard(user_id=None)
    assert [(r.rank, r.username, r.value) for r in board.top] == [
        (1, "ana", 1800),
        (2, "bea", 1700),
        (2, "cai", 1700),
    ]
    assert board.players == 3 and board.you is None and board.yours is None


def test_the_board_shows_the_top_hundred_and_your_rank_below_them(make_user):
    users = [make_user(f"u{i:03d}") for i in range(BOARD_SIZE + 5)]
    for i, user in enumerate(users):
        rated(user, 2500 - i)
    me = users[-1]
    board = leaderboard(user_id=me.pk)
    assert len(board.top) == BOARD_SIZE and board.top[-1].rank == BOARD_SIZE
    assert board.you is not None and board.you.rank == BOARD_SIZE + 5 and board.you.is_you
    assert board.you_below and board.players == BOARD_SIZE + 5
    inside = leaderboard(user_id=users[3].pk)
    assert inside.you.rank == 4 and not inside.you_below and inside.top[3].is_you


def test_an_unranked_player_is_told_why(make_user):
    newcomer, idle = make_user("new"), make_user("idle")
    rated(idle, 1600, days_ago=40)
    board = leaderboard(user_id=newcomer.pk)
    assert board.you is None and board.yours.provisional and board.yours.matches_to_go == 10
    board = leaderboard(user_id=idle.pk)
    assert board.you is None and not board.yours.provisional and board.yours.value == 1600


def test_the_board_shows_the_reputation_beside_the_rating(players, clock, client):
    from games.hooks import SeatReputation

    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    Rating.objects.update(matches=10)
    rows = {r.user_id: r for r in leaderboard(user_id=None).top}
    assert len(rows) == 4
    assert all(r.reputation == SeatReputation(100, 100) for r in rows.values())
    body = client.get("/ratings/").content.decode()
    # Each row carries it twice: its own column, and under the name for a phone's width
    # (static/css/site.css shows one of the two).
    assert body.count('data-reliability="100" data-on-time="100"') == 8
    assert body.count('class="board-narrow"') == 4 and 'class="num board-wide"' in body


def test_a_reset_removes_the_player_from_the_board(make_user, staff_user):
    from ratings.services import rating_reset

    cheat, honest = make_user("cheat"), make_user("honest")
    rated(cheat, 2400)
    rated(honest, 1600)
    rating_reset(user=cheat, staff_user=staff_user, reason="cheating")
    board = leaderboard(user_id=cheat.pk)
    assert [r.username for r in board.top] == ["honest"]
    assert board.you is None and board.yours.provisional


@pytest.mark.parametrize("language", ["es", "en", "fr", "it", "ko", "th"])
def test_the_leaderboard_page_in_every_language(client, make_user, language):
    me = make_user("me")
    rated(make_user("star"), 1900)
    rated(me, 1550, matches=4)
    client.force_login(me)
    client.cookies["django_language"] = language
    response = client.get(reverse("leaderboard"), HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    page = response.content.decode()
    assert "star" in page and "1900" in page and "1550?" in page
    assert f'lang="{language}"' in page


def test_the_leaderboard_is_linked_from_the_navigation_and_open_to_visitors(client, make_user):
    rated(make_user("star"), 1900)
    page = client.get(reverse("home")).content.decode()
    assert reverse("leaderboard") in page
    response = client.get(reverse("leaderboard"))
    assert response.status_code == 200 and "star" in response.content.decode()
    assert 'data-testid="your-rank"' not in response.content.decode()


def test_the_player_page_shows_the_rating_and_its_chart_with_a_table(client, players, clock):
    cast = players(4)
    for number in range(3):
        finish(online_table(cast, clock), winner=number % 2)
        clock.advance(60)
    me = cast[0]
    changes = list(RatingChange.objects.filter(user=me).order_by("at"))
    page = client.get(reverse("player_record", args=[me.username])).content.decode()
    assert 'data-testid="rating-tile"' in page and f"{changes[-1].after}?" in page
    assert 'data-testid="chart-rating"' in page
    for change in changes:  # "+12", "−9" (a minus sign), "±0"
        c = change.change
        signed = f"+{c}" if c > 0 else f"\u2212{-c}" if c < 0 else "±0"
        assert f"<td>{signed}</td>" in page


def test_the_chart_shows_a_reset_as_a_point(players, clock, staff_user):
    from ratings.services import rating_reset

    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    rating_reset(user=cast[0], staff_user=staff_user, reason="testing")
    points = selectors.rating_history(cast[0].pk)
    assert [p.reset for p in points] == [False, True] and points[-1].value == 1500
    assert RatingReset.objects.count() == 1


def test_the_chart_draws_one_match_as_a_line_from_the_starting_rating(players, clock):
    """A first match was a lone dot: the chart starts at the rating before it."""
    from history import player_charts

    cast = players(1)
    finish(online_table(cast, clock), winner=1)
    points = selectors.rating_history(cast[0].pk)
    assert len(points) == 1
    chart = player_charts.rating(points)
    assert chart is not None
    assert chart.series[0].values == [1500.0, float(points[0].value)]
    assert len(chart.lines) == 1 and len(chart.lines[0]["points"].split()) == 2
    assert chart.table_rows[0][1] == "1500"
    assert "1500" in chart.summary


def test_a_player_without_rated_matches_has_no_chart(client, make_user):
    me = make_user("quiet")
    page = client.get(reverse("player_record", args=[me.username])).content.decode()
    assert "1500?" in page and 'data-testid="chart-rating"' not in page


def test_the_online_page_says_how_the_queue_seats_and_shows_your_rating(client, make_user):
    me = make_user("me")
    rated(me, 1580)
    client.force_login(me)
    page = client.get(reverse("online:play"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "close ratings" in page and "balanced pairs" in page and "at random" not in page
    assert "Your rating: 1580" in page and "1580?" not in page
    assert reverse("leaderboard") in page
