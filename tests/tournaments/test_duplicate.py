"""Duplicate pairs: the same board at every table of a round, matchpoints against every
pair that held the same cards in the same direction, a movement so pairs meet others."""

from __future__ import annotations

import pytest

from economy.selectors import ledger_audit
from games.models import Match
from tests.tournaments.conftest import befriend, game_finish, games_in_play, play_all
from tournaments.models import Entry, Pairing, TournamentState
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(players, make_tournament, clock):
    cast = players(12)  # six pairs: a Howell over three tables
    tournament = make_tournament(format="duplicate", rounds=3, entry_fee=50)
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    return tournament


def test_every_table_of_a_round_plays_the_same_deal_once(evening):
    games = games_in_play(evening)
    assert len(games) == 3
    matches = Match.objects.filter(pk__in=[g.match_id for g in games])
    assert len({(m.seed, m.first_dealer) for m in matches}) == 1
    assert {m.last_hand for m in matches} == {1}


def test_a_board_scores_matchpoints_within_each_direction(evening, clock):
    games = games_in_play(evening)
    for game, (score_a, score_b) in zip(games, ((11, 0), (5, 0), (0, 7)), strict=True):
        game_finish(game.table_id, score_a=score_a, score_b=score_b)
    tournaments_tick(now=clock())
    rows = {p.number: (p.vp_a, p.vp_b) for p in Pairing.objects.filter(round__number=1)}
    # North-South +11, +5, -7: 4, 2, 0; East-West -11, -5, +7: 0, 2, 4.
    assert rows == {1: (4, 0), 2: (2, 2), 3: (0, 4)}


def test_pairs_meet_new_opponents_each_round_and_the_evening_pays_by_percentage(evening, clock):
    for _round in range(3):
        play_all(evening, margin=5)
        tournaments_tick(now=clock())
        clock.advance(evening.pause_minutes * 60)
        tournaments_tick(now=clock())
    evening.refresh_from_db()
    assert evening.state == TournamentState.FINISHED
    met = [
        frozenset((p.entry_a_id, p.entry_b_id)) for p in Pairing.objects.filter(tournament=evening)
    ]
    assert len(met) == 9 and len(set(met)) == 9
    entries = Entry.objects.filter(tournament=evening)
    assert sum(e.prize_coins for e in entries) == 12 * 50
    assert min(e.rank for e in entries) == 1
    assert ledger_audit().violations == []
