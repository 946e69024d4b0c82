"""Real races on PostgreSQL: many threads, one database, the locks decide."""

from __future__ import annotations

import pytest

from economy.selectors import ledger_audit
from games.models import Mode, Table
from tests.threads import run_together
from tests.tournaments.conftest import befriend, tournament_escrow
from tournaments import errors
from tournaments.models import Entry, EntryState, Round
from tournaments.services import (
    tournament_advance,
    tournament_register,
    tournament_withdraw,
    tournaments_tick,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_two_beats_ticking_at_once_start_round_one_once(players, make_tournament, clock):
    cast = players(16)
    tournament = make_tournament()
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    clock.now = tournament.starts_at
    results = run_together(4, lambda i: tournaments_tick(now=clock()))
    assert not [r for r in results if isinstance(r, Exception)]
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Table.objects.filter(mode=Mode.TOURNAMENT).count() == 4
    started = [r.get(tournament.pk, []) for r in results]
    assert sum("round_1_started" in steps for steps in started) == 1


def test_workers_advancing_one_tournament_at_once_never_start_a_round_twice(
    players, make_tournament, clock
):
    cast = players(8)
    tournament = make_tournament()
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    clock.now = tournament.starts_at
    for _ in range(3):
        run_together(3, lambda i: tournament_advance(tournament_id=tournament.pk, now=clock()))
    assert Round.objects.filter(tournament=tournament).count() == 1
    assert Table.objects.filter(mode=Mode.TOURNAMENT).count() == 2


def test_three_players_naming_one_partner_at_once_enter_only_one_pair(
    players, make_tournament, coins_of
):
    bea, *others = players(4)
    for other in others:
        befriend(other, bea)
    tournament = make_tournament(entry_fee=100)
    results = run_together(
        3,
        lambda i: tournament_register(tournament_id=tournament.pk, user=others[i], partner=bea),
    )
    entered = [r for r in results if isinstance(r, Entry)]
    refused = [r for r in results if not isinstance(r, Entry)]
    assert len(entered) == 1
    assert all(isinstance(r, errors.PartnerAlreadyRegistered) for r in refused)
    assert tournament_escrow(tournament.pk) == 200
    assert sorted(coins_of(u) for u in others) == [800, 1000, 1000]
    assert ledger_audit().violations == []


def test_withdrawing_while_the_tournament_starts_either_refunds_or_plays(
    players, make_tournament, clock, coins_of
):
    cast = players(8)
    tournament = make_tournament(entry_fee=100, min_entries=3)
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    clock.now = tournament.registration_closes_at
    tournaments_tick(now=clock())
    clock.now = tournament.starts_at

    def work(i):
        if i == 0:
            return tournament_advance(tournament_id=tournament.pk, now=clock())
        return tournament_withdraw(tournament_id=tournament.pk, user=cast[0], now=clock())

    results = run_together(2, work)
    entry = Entry.objects.get(player_a=cast[0])
    if entry.state == EntryState.WITHDRAWN:
        assert coins_of(cast[0]) == 1000
    else:
        assert isinstance(results[1], errors.WithdrawAfterStart)
        assert coins_of(cast[0]) == 800
    assert ledger_audit().violations == []
