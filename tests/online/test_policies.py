"""The online and stake policies' answers to games: here, what a table plays for."""

from __future__ import annotations

import pytest

from games import selectors as games_selectors
from games import services as games
from games.models import Table
from games.modes import TableStakes, mode_policy
from online import services
from tests.online.conftest import escrow_balance, play_out

pytestmark = pytest.mark.django_db


def stakes_of(table_id: int) -> TableStakes | None:
    table = Table.objects.get(pk=table_id)
    return mode_policy(table.mode).table_stakes(table=table)


def frame_table(table_id: int, position: int = 0) -> dict:
    return games_selectors.table_frame(table_id=table_id, position=position)["table"]


def test_the_pot_holds_the_stake_of_every_player_sitting_there(players, clock):
    cast = players(4)
    table = services.stake_table_open(user=cast[0], stake=250, now=clock())
    assert stakes_of(table.pk) == TableStakes(stake=250, pot=250)
    services.stake_table_sit(user=cast[1], table_id=table.pk, now=clock())
    services.stake_table_sit(user=cast[2], table_id=table.pk, now=clock())
    assert stakes_of(table.pk) == TableStakes(stake=250, pot=750)
    services.stake_table_leave(user=cast[2], table_id=table.pk, now=clock())  # refunded
    assert stakes_of(table.pk) == TableStakes(stake=250, pot=500)
    for user in cast[2:]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    assert stakes_of(table.pk) == TableStakes(stake=250, pot=1000) and escrow_balance(table.pk)


def test_an_abandoners_stake_stays_in_the_pot_and_a_finished_table_shows_what_it_played_for(
    players, clock
):
    cast = players(4)
    table = services.stake_table_open(user=cast[0], stake=100, now=clock())
    for user in cast[1:]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    games.seat_leave(user=cast[1], table_id=table.pk)  # abandons the match in play
    assert stakes_of(table.pk) == TableStakes(stake=100, pot=400)
    play_out(Table.objects.get(pk=table.pk))
    assert stakes_of(table.pk) == TableStakes(stake=100, pot=400)
    assert escrow_balance(table.pk) == 0  # paid out to the winners


def test_a_cancelled_table_has_nothing_in_its_pot(player, clock):
    table = services.stake_table_open(user=player, stake=100, now=clock())
    clock.advance(121)
    assert services.stake_table_cancel(table_id=table.pk, now=clock())
    assert stakes_of(table.pk) == TableStakes(stake=100, pot=0)


def test_stake_table_frames_carry_the_stake_and_the_pot_and_other_tables_none(players, clock):
    cast = players(5)
    table = services.stake_table_open(user=cast[0], stake=500, now=clock())
    for user in cast[1:4]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    info = frame_table(table.pk)
    facts = (info["mode"], info["rules"], info["stake"], info["pot"])
    assert facts == ("stake", "online", 500, 2000)
    assert frame_table(table.pk, position=None)["pot"] == 2000  # spectators see it too
    practice = games.table_create_practice(user=cast[4], rules="classic", bot_level="easy")
    info = frame_table(practice.pk)
    assert (info["mode"], info["rules"], info["stake"], info["pot"]) == (
        "practice",
        "classic",
        None,
        None,
    )
    assert mode_policy("online").table_stakes(table=Table.objects.get(pk=practice.pk)) is None
