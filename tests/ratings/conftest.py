"""The cast for ratings: players seated at online, stake and room tables, and
helpers to end their matches as the last move does."""

from __future__ import annotations

import pytest

from games.models import MatchSeat, Table
from online import services as online
from tests.cuatrola_site.test_database_roles import app_role  # noqa: F401
from tests.online.conftest import Clock, _online_settings, finish, play_out  # noqa: F401

__all__ = ["finish", "online_table", "play_out", "stake_table"]


@pytest.fixture
def players(make_user):
    def make(count: int, prefix: str = "p") -> list:
        return [make_user(f"{prefix}{i:02d}") for i in range(count)]

    return make


@pytest.fixture
def clock() -> Clock:
    return Clock()


def online_table(cast, clock) -> Table:
    """An online table of `cast` (bots fill the seats of fewer than four), matched
    after the fill time, when any rating spread is accepted."""
    for user in cast:
        online.queue_join(user=user, now=clock())
    online.queue_match(now=clock.advance(20))
    return Table.objects.filter(mode="online").order_by("-pk").first()


def stake_table(cast, clock, stake: int = 100) -> Table:
    table = online.stake_table_open(user=cast[0], stake=stake, now=clock())
    for user in cast[1:]:
        online.stake_table_sit(user=user, table_id=table.pk, now=clock())
    return table


def user_at(table: Table, position: int):
    return MatchSeat.objects.get(match__table=table, position=position).user
