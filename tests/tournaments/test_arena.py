"""Arena: teams queue again as soon as a tie ends, score per match with a streak bonus,
and the arena's end ranks them."""

from __future__ import annotations

from datetime import timedelta

import pytest

from economy.selectors import ledger_audit
from tests.tournaments.conftest import befriend, game_finish, games_in_play, play_all
from tournaments.models import Entry, Pairing, Round, TournamentState
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db


@pytest.fixture
def arena(players, make_tournament, clock):
    cast = players(8)
    tournament = make_tournament(format="arena", round_minutes=30, entry_fee=100)
    entries = []
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        entries.append(tournament_register(tournament_id=tournament.pk, user=a, partner=b))
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    return tournament, entries


def test_the_arena_pairs_every_team_at_its_start(arena):
    tournament, _entries = arena
    assert len(games_in_play(tournament)) == 2
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_teams_whose_tie_ended_are_paired_again_at_once_with_others(arena, clock):
    tournament, _entries = arena
    first, second = games_in_play(tournament)
    game_finish(first.table_id, score_a=21, score_b=5)
    clock.advance(60)
    assert tournaments_tick(now=clock()) == {}  # only two teams wait: they just met
    game_finish(second.table_id, score_a=21, score_b=5)
    clock.advance(60)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["round_2_started"]}
    wave = Pairing.objects.filter(round__number=2, round__tournament=tournament)
    met = {frozenset((first.pairing.entry_a_id, first.pairing.entry_b_id))}
    assert all(frozenset((p.entry_a_id, p.entry_b_id)) not in met for p in wave)


def test_the_arena_ends_on_time_ranks_by_streak_points_and_pays_the_pool(arena, clock, coins_of):
    tournament, _entries = arena
    for _wave in range(3):
        play_all(tournament, winner_a=True)
        clock.advance(60)
        tournaments_tick(now=clock())
    clock.now = tournament.starts_at + timedelta(minutes=31)
    play_all(tournament)
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    ranked = list(Entry.objects.filter(tournament=tournament).order_by("rank", "pk"))
    assert ranked[0].rank == 1
    assert sum(e.prize_coins for e in ranked) == 8 * 100
    assert ledger_audit().violations == []
