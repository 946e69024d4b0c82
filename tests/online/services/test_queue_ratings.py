"""The queue seats equals: ratings read from the database, balanced pairs at the table."""

from __future__ import annotations

import pytest

from games.models import Seat, SeatKind, Table
from online import services
from online.models import QueueEntry
from ratings.models import Rating

pytestmark = pytest.mark.django_db


def rate(user, value, matches=20):
    Rating.objects.update_or_create(user=user, defaults={"value": value, "matches": matches})


def seated(table):
    return {s.user_id: s.position for s in Seat.objects.filter(table=table, kind=SeatKind.HUMAN)}


def test_of_five_waiting_the_four_closest_are_seated_in_balanced_pairs(players, clock):
    cast = players(5)
    for user, value in zip(cast, (1900, 1510, 1480, 1400, 1450), strict=True):
        rate(user, value)
        services.queue_join(user=user, now=clock())
    created = services.queue_match(now=clock())
    assert len(created) == 1
    positions = seated(Table.objects.get(pk=created[0]))
    assert set(positions) == {cast[1].pk, cast[2].pk, cast[3].pk, cast[4].pk}
    assert QueueEntry.objects.get().user == cast[0]  # 1900 waits for closer players
    by_rating = sorted(positions, key=lambda uid: -Rating.objects.get(user_id=uid).value)
    strongest, second, third, weakest = (positions[uid] for uid in by_rating)
    assert strongest % 2 == weakest % 2 and second % 2 == third % 2 != strongest % 2


def test_a_lone_high_rated_player_is_seated_with_bots_within_twenty_seconds(players, clock):
    star, *crowd = players(5)
    rate(star, 2600)
    services.queue_join(user=star, now=clock())
    for user in crowd:
        services.queue_join(user=user, now=clock.advance(1))
    first = services.queue_match(now=clock())
    assert len(first) == 1 and star.pk not in seated(Table.objects.get(pk=first[0]))
    assert services.queue_match(now=clock.advance(14)) == []  # 18 s: nobody near
    tables = services.queue_match(now=clock.advance(2))  # 20 s since the star joined
    assert len(tables) == 1
    table = Table.objects.get(pk=tables[0])
    assert set(seated(table)) == {star.pk}
    assert Seat.objects.filter(table=table, kind=SeatKind.BOT).count() == 3
    assert not QueueEntry.objects.exists()
