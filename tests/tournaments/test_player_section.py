"""The player page's tournaments panel: the tournaments a player finished, their best
place, and the last ones with place, partner and prize (tournaments.selectors.
player_section, registered with history.hooks)."""

from __future__ import annotations

import pytest

from tests.tournaments.conftest import play_all
from tests.tournaments.test_lifecycle import register_pairs, to_start
from tournaments.models import TournamentState
from tournaments.selectors import player_section
from tournaments.services import tournaments_tick

pytestmark = pytest.mark.django_db


def _knockout_played(players, make_tournament, clock, **fields):
    cast = players(4, prefix=fields.pop("prefix", "p"))
    tournament = make_tournament(format="knockout", entry_fee=100, prize_shares=[1000], **fields)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    play_all(tournament)  # team A wins
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    return tournament, cast


def test_a_player_with_no_tournament_sees_none_played(make_user):
    section = player_section(player=make_user("nadie"), viewer=None)
    assert section.context == {"played": 0, "best": None, "rows": []}


def test_the_panel_lists_each_finished_tournament_with_place_partner_and_prize(
    players, make_tournament, clock
):
    _tournament, cast = _knockout_played(players, make_tournament, clock, name="Copa de otoño")
    winner, partner, loser = cast[0], cast[1], cast[2]
    section = player_section(player=winner, viewer=None)
    assert section.context["played"] == 1 and section.context["best"] == 1
    (row,) = section.context["rows"]
    assert (row.name, row.rank, row.teams, row.partner) == ("Copa de otoño", 1, 2, partner.username)
    assert row.prize_coins > 0
    lost = player_section(player=loser, viewer=None).context["rows"][0]
    assert (lost.rank, lost.prize_coins, lost.partner) == (2, 0, cast[3].username)
    # The partner (second player of the entry) sees the one who registered them.
    assert player_section(player=partner, viewer=None).context["rows"][0].partner == winner.username


def test_a_tournament_still_running_is_not_listed(players, make_tournament, clock):
    cast = players(4)
    tournament = make_tournament(format="knockout", entry_fee=0)
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    assert player_section(player=cast[0], viewer=None).context["played"] == 0


def test_the_player_page_shows_the_panel(client, players, make_tournament, clock):
    tournament, cast = _knockout_played(players, make_tournament, clock, name="Copa de otoño")
    body = client.get(f"/u/{cast[0].username}/record/").content.decode()
    assert 'data-testid="tournaments-played"><span class="tile-value">1<' in body
    assert f'href="/tournaments/{tournament.pk}/">Copa de otoño</a>' in body
