"""Registering a pair or a single, the fees held, withdrawing, and every refusal."""

from __future__ import annotations

from datetime import timedelta

import pytest

from economy.selectors import ledger_audit
from social.models import Block
from tests.tournaments.conftest import tournament_escrow
from tournaments import errors
from tournaments.models import Entry, EntryPlayer, EntryState, TournamentState
from tournaments.services import tournament_register, tournament_withdraw

pytestmark = pytest.mark.django_db


def test_a_pair_of_friends_registers_and_the_registering_player_pays_both_fees(
    players, friends, make_tournament, coins_of
):
    ana, bea = players(2)
    friends(ana, bea)
    tournament = make_tournament(entry_fee=100)
    entry = tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    assert entry.player_ids == [ana.pk, bea.pk]
    assert entry.state == EntryState.REGISTERED and not entry.single
    assert coins_of(ana) == 1000 - 200 and coins_of(bea) == 1000
    assert tournament_escrow(tournament.pk) == 200
    assert ledger_audit().violations == []


def test_a_single_registers_alone_and_pays_one_fee(players, make_tournament, coins_of):
    (ana,) = players(1)
    tournament = make_tournament(entry_fee=100)
    entry = tournament_register(tournament_id=tournament.pk, user=ana)
    assert entry.single and entry.player_b_id is None
    assert coins_of(ana) == 900


def test_a_free_tournament_takes_no_coins(players, friends, make_tournament, coins_of):
    ana, bea = players(2)
    friends(ana, bea)
    tournament = make_tournament(entry_fee=0, xp_pool=100)
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    assert coins_of(ana) == 1000 and tournament_escrow(tournament.pk) == 0


def test_registering_twice_is_refused(players, make_tournament, coins_of):
    (ana,) = players(1)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana)
    with pytest.raises(errors.AlreadyRegistered):
        tournament_register(tournament_id=tournament.pk, user=ana)
    assert coins_of(ana) == 900 and Entry.objects.count() == 1


def test_a_partner_already_registered_is_refused(players, friends, make_tournament, coins_of):
    ana, bea, cai = players(3)
    friends(ana, bea)
    friends(cai, bea)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    with pytest.raises(errors.PartnerAlreadyRegistered):
        tournament_register(tournament_id=tournament.pk, user=cai, partner=bea)
    assert coins_of(cai) == 1000


def test_registering_with_a_partner_already_in_as_a_single_is_refused(
    players, friends, make_tournament
):
    ana, bea = players(2)
    friends(ana, bea)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=bea)
    with pytest.raises(errors.PartnerAlreadyRegistered):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)


def test_a_blocked_partner_is_refused_whoever_blocked(players, friends, make_tournament):
    ana, bea = players(2)
    friends(ana, bea)
    Block.objects.create(blocker=bea, blocked=ana)
    tournament = make_tournament()
    with pytest.raises(errors.PartnerNotAllowed):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    assert not Entry.objects.exists()


def test_a_partner_who_is_not_a_friend_is_refused(players, make_tournament):
    ana, bea = players(2)
    tournament = make_tournament()
    with pytest.raises(errors.PartnerNotFriend):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)


def test_naming_yourself_as_partner_is_refused(players, make_tournament):
    (ana,) = players(1)
    tournament = make_tournament()
    with pytest.raises(errors.PartnerIsYou):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=ana)


def test_an_inactive_partner_is_refused(players, friends, make_tournament):
    ana, bea = players(2)
    friends(ana, bea)
    bea.is_active = False
    bea.save()
    tournament = make_tournament()
    with pytest.raises(errors.PartnerUnknown):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)


def test_registering_after_the_close_is_refused(players, make_tournament, clock):
    (ana,) = players(1)
    tournament = make_tournament()
    with pytest.raises(errors.RegistrationClosed):
        tournament_register(tournament_id=tournament.pk, user=ana, now=clock() + timedelta(hours=2))


def test_registering_before_registration_opens_is_refused(players, make_tournament):
    (ana,) = players(1)
    tournament = make_tournament(state=TournamentState.SCHEDULED)
    with pytest.raises(errors.RegistrationClosed):
        tournament_register(tournament_id=tournament.pk, user=ana)


def test_registering_in_an_unknown_tournament_is_refused(players):
    (ana,) = players(1)
    for bad in (999999, "x", None):
        with pytest.raises(errors.TournamentNotFound):
            tournament_register(tournament_id=bad, user=ana)


def test_registering_without_the_coins_is_refused_and_nothing_is_charged(
    players, friends, make_tournament, coins_of
):
    ana, bea = players(2)
    friends(ana, bea)
    tournament = make_tournament(entry_fee=600)  # the pair's fees: 1200 > 1000
    with pytest.raises(errors.ShortOfCoins):
        tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    assert coins_of(ana) == 1000
    assert not Entry.objects.exists() and not EntryPlayer.objects.exists()
    assert tournament_escrow(tournament.pk) == 0


def test_a_full_tournament_refuses_another_entry(players, friends, make_tournament):
    ana, bea, cai, dan, eva = players(5)
    friends(ana, bea)
    friends(cai, dan)
    tournament = make_tournament(min_entries=2, max_entries=2)
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    tournament_register(tournament_id=tournament.pk, user=cai)
    tournament_register(tournament_id=tournament.pk, user=dan)
    with pytest.raises(errors.TournamentFull):
        tournament_register(tournament_id=tournament.pk, user=eva)


def test_withdrawing_before_the_start_refunds_the_fee_to_whoever_paid_it(
    players, friends, make_tournament, coins_of
):
    ana, bea = players(2)
    friends(ana, bea)
    tournament = make_tournament(entry_fee=100)
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    entry = tournament_withdraw(tournament_id=tournament.pk, user=bea)
    assert entry.state == EntryState.WITHDRAWN
    assert coins_of(ana) == 1000 and coins_of(bea) == 1000
    assert tournament_escrow(tournament.pk) == 0
    assert not EntryPlayer.objects.exists()
    assert ledger_audit().violations == []


def test_entering_again_after_withdrawing_and_withdrawing_again_refunds_each_time(
    players, make_tournament, coins_of
):
    (ana,) = players(1)
    tournament = make_tournament(entry_fee=100)
    for _ in range(2):
        tournament_register(tournament_id=tournament.pk, user=ana)
        assert coins_of(ana) == 900
        tournament_withdraw(tournament_id=tournament.pk, user=ana)
        assert coins_of(ana) == 1000
    assert ledger_audit().violations == []


def test_withdrawing_without_an_entry_is_refused(players, make_tournament):
    (ana,) = players(1)
    tournament = make_tournament()
    with pytest.raises(errors.NotRegistered):
        tournament_withdraw(tournament_id=tournament.pk, user=ana)


def test_withdrawing_after_the_start_is_refused(players, make_tournament, coins_of):
    (ana,) = players(1)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana)
    tournament.state = TournamentState.RUNNING
    tournament.save()
    with pytest.raises(errors.WithdrawAfterStart):
        tournament_withdraw(tournament_id=tournament.pk, user=ana)
    assert coins_of(ana) == 900


def test_every_refusal_has_a_message_to_show(players, make_tournament):
    for error in (
        errors.AlreadyRegistered(),
        errors.RegistrationClosed(),
        errors.ShortOfCoins(),
        errors.PartnerNotAllowed(),
        errors.PartnerAlreadyRegistered(),
        errors.WithdrawAfterStart(),
        errors.RoundAlreadyStarted(round=2),
    ):
        assert error.message and error.code
