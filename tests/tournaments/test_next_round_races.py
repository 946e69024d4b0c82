"""Real races on PostgreSQL for the round paired ahead and the notifications: ticks
and workers at once pair a round once, seat it once, and tell each player once."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Mode, Table
from notifications.models import Notification
from tests.threads import run_together
from tests.tournaments.conftest import befriend, play_all
from tournaments.models import Pairing, Round, RoundState
from tournaments.services import tournament_advance, tournament_register, tournaments_tick

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def entered(make_tournament, players, teams: int):
    tournament = make_tournament()
    cast = players(2 * teams)
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    return tournament, cast


def test_ticks_and_workers_at_once_pair_the_next_round_once_and_tell_each_player_once(
    players, make_tournament, clock
):
    tournament, cast = entered(make_tournament, players, 6)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    play_all(tournament)

    def work(i: int):
        if i % 2:
            return tournaments_tick(now=clock())
        return tournament_advance(tournament_id=tournament.pk, now=clock()).steps

    results = run_together(6, work)
    assert not [r for r in results if isinstance(r, Exception)]
    second = Round.objects.get(tournament=tournament, number=2)
    assert second.state == RoundState.PAIRED
    assert Pairing.objects.filter(round=second).count() == 3
    told = Notification.objects.filter(dedup_key=f"tournament-round:{tournament.pk}:2")
    assert sorted(told.values_list("user_id", flat=True)) == sorted(u.pk for u in cast)

    clock.advance(tournament.pause_minutes * 60)
    results = run_together(4, lambda i: tournaments_tick(now=clock()))
    assert not [r for r in results if isinstance(r, Exception)]
    started = [r.get(tournament.pk, []) for r in results]
    assert sum("round_2_started" in steps for steps in started) == 1
    assert Table.objects.filter(mode=Mode.TOURNAMENT).count() == 6  # 3 a round, twice


def test_two_ticks_at_once_tell_each_registered_player_once_that_registration_closes(
    players, make_tournament, clock
):
    tournament, cast = entered(make_tournament, players, 5)
    clock.now = tournament.registration_closes_at - timedelta(minutes=1)
    results = run_together(4, lambda i: tournaments_tick(now=clock()))
    assert not [r for r in results if isinstance(r, Exception)]
    assert sum("closing_notice" in r.get(tournament.pk, []) for r in results) == 1
    told = Notification.objects.filter(dedup_key=f"tournament-closing:{tournament.pk}")
    assert sorted(told.values_list("user_id", flat=True)) == sorted(u.pk for u in cast)
