"""Ratings at the table: beside each name in the frames, the change at the end."""

from __future__ import annotations

import pytest

from games import selectors
from games.frames.live import table_info
from games.models import Seat
from games.selectors import table_seats
from games.services import table_create_practice
from ratings.models import Rating
from ratings.skill import BOT_SKILLS
from tests.ratings.conftest import finish, online_table

pytestmark = pytest.mark.django_db


def test_an_online_table_shows_each_persons_rating_and_the_bots_fixed_one(players, clock):
    cast = players(2)
    Rating.objects.create(user=cast[0], mu=27.0, value=1640, matches=12)
    table = online_table(cast, clock)
    info = table_info(table, table_seats(table), None)
    by_user = {s.user_id: s.position for s in Seat.objects.filter(table=table)}
    shown = {seat["position"]: seat["rating"] for seat in info["seats"]}
    assert shown[by_user[cast[0].pk]] == {"value": 1640, "provisional": False, "bot": False}
    assert shown[by_user[cast[1].pk]] == {"value": 1500, "provisional": True, "bot": False}
    bots = [r for r in shown.values() if r["bot"]]
    assert len(bots) == 2 and all(r["value"] == BOT_SKILLS["easy"].shown for r in bots)


def test_a_practice_table_shows_no_rating(player):
    table = table_create_practice(user=player, rules="online", bot_level="easy")
    info = table_info(table, table_seats(table), None)
    assert all(seat["rating"] is None for seat in info["seats"])


def test_the_end_of_match_result_carries_each_rating_change(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    match = finish(table, winner=1)
    outcome = selectors.match_outcome(match)
    for place in outcome["places"]:
        rating = place["rating"]
        assert rating["before"] == 1500 and rating["provisional"]
        assert rating["change"] == rating["after"] - 1500
        assert (rating["change"] > 0) == (place["position"] % 2 == 1)


def test_after_the_match_each_badge_shows_the_rating_the_panel_shows(players, clock):
    """A newcomer's first match ended with "1500?" beside their name and "1230?" in
    the end panel: the seats now carry the rating after the match."""
    cast = players(2)
    table = online_table(cast, clock)
    match = finish(table, winner=1)
    outcome = selectors.match_outcome(match)
    seats = table_seats(table)
    shown = {seat["position"]: seat["rating"] for seat in table_info(table, seats, match)["seats"]}
    people = [place for place in outcome["places"] if place["rating"] is not None]
    assert len(people) == 2
    for place in people:
        after = place["rating"]["after"]
        assert after != 1500
        assert shown[place["position"]] == {"value": after, "provisional": True, "bot": False}
        stored = Seat.objects.get(table=table, position=place["position"])
        assert (stored.rating, stored.rating_provisional) == (after, True)
    bots = [r for r in shown.values() if r["bot"]]
    assert all(r["value"] == BOT_SKILLS["easy"].shown for r in bots)


def test_the_server_rendered_board_shows_the_ratings_too(client, players, clock):
    cast = players(1)
    table = online_table(cast, clock)
    client.force_login(cast[0])
    page = client.get(f"/tables/{table.pk}/").content.decode()
    assert page.count('class="rating-badge rating-bot"') == 3
    assert 'data-rating="1500"' in page and "1500?" in page
    # Each badge starts with its sign (★ rating), and the legend says what it means.
    assert '<span aria-hidden="true">&#9733;&#8201;1500?</span>' in page
    assert 'class="legend-line rating-legend"' in page
    assert "Valoración junto a cada nombre; «?»: provisional" in page
