"""Tournament notifications (docs/tournaments.md, "Notifications"): registration
closing soon, told once to every registered player at the configured lead time; the
next round's table, told once a player and round."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import translation

from notifications.kinds import sentence as worded
from notifications.models import Notification, NotificationSettings
from tests.tournaments.conftest import befriend, play_all
from tournaments.models import Tournament
from tournaments.services import tournament_register, tournaments_tick

pytestmark = pytest.mark.django_db


def sentence(kind: str, params: dict) -> str:
    with translation.override("en"):
        return worded(kind, params)


def closing(tournament_id: int):
    return Notification.objects.filter(dedup_key=f"tournament-closing:{tournament_id}")


def test_registered_players_are_told_once_that_registration_closes_soon(
    make_tournament, players, clock, settings
):
    settings.TOURNAMENT_CLOSING_NOTICE_MINUTES = 30
    ana, bea, carmen, outsider = players(4)
    tournament = make_tournament()
    befriend(ana, bea)
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    tournament_register(tournament_id=tournament.pk, user=carmen)
    clock.now = tournament.registration_closes_at - timedelta(minutes=31)
    assert tournaments_tick(now=clock()) == {}  # not yet
    assert not closing(tournament.pk).exists()
    clock.advance(2 * 60)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["closing_notice"]}
    assert tournaments_tick(now=clock() + timedelta(minutes=1)) == {}  # never again
    told = closing(tournament.pk)
    assert sorted(told.values_list("user_id", flat=True)) == sorted([ana.pk, bea.pk, carmen.pk])
    note = told.get(user=ana)
    assert note.params == {"tournament": tournament.name, "minutes": 29}
    assert note.link == f"/tournaments/{tournament.pk}/"
    assert sentence(note.kind, note.params) == (
        f"Registration for {tournament.name} closes in 29 minutes."
    )
    assert not Notification.objects.filter(user=outsider).exists()
    assert Tournament.objects.get(pk=tournament.pk).closing_noticed_at == clock()


def test_the_lead_time_is_a_setting(make_tournament, players, clock, settings):
    settings.TOURNAMENT_CLOSING_NOTICE_MINUTES = 5
    (ana,) = players(1)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana)
    clock.now = tournament.registration_closes_at - timedelta(minutes=10)
    assert tournaments_tick(now=clock()) == {}
    clock.now = tournament.registration_closes_at - timedelta(minutes=1)
    assert tournaments_tick(now=clock()) == {tournament.pk: ["closing_notice"]}
    assert closing(tournament.pk).get().params["minutes"] == 1


def test_a_player_who_switched_the_kind_off_is_not_told(make_tournament, players, clock):
    ana, bea = players(2)
    NotificationSettings.objects.create(user=ana, kinds={"tournament_closing": False})
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana)
    tournament_register(tournament_id=tournament.pk, user=bea)
    clock.now = tournament.registration_closes_at - timedelta(minutes=1)
    tournaments_tick(now=clock())
    assert list(closing(tournament.pk).values_list("user_id", flat=True)) == [bea.pk]


def test_a_withdrawn_player_is_not_told_that_registration_closes(make_tournament, players, clock):
    from tournaments.services import tournament_withdraw

    ana, bea = players(2)
    tournament = make_tournament()
    tournament_register(tournament_id=tournament.pk, user=ana)
    tournament_register(tournament_id=tournament.pk, user=bea)
    tournament_withdraw(tournament_id=tournament.pk, user=ana)
    clock.now = tournament.registration_closes_at - timedelta(minutes=1)
    tournaments_tick(now=clock())
    assert list(closing(tournament.pk).values_list("user_id", flat=True)) == [bea.pk]


def test_round_one_tells_every_player_their_table_at_the_start(make_tournament, players, clock):
    cast = players(8)
    tournament = make_tournament()
    for a, b in zip(cast[::2], cast[1::2], strict=True):
        befriend(a, b)
        tournament_register(tournament_id=tournament.pk, user=a, partner=b)
    clock.now = tournament.starts_at
    tournaments_tick(now=clock())
    told = Notification.objects.filter(dedup_key=f"tournament-round:{tournament.pk}:1")
    assert told.count() == 8
    assert {n.params["table"] for n in told} == {1, 2}
    play_all(tournament)
    tournaments_tick(now=clock())
    tournaments_tick(now=clock())
    second = Notification.objects.filter(dedup_key=f"tournament-round:{tournament.pk}:2")
    assert second.count() == 8
    assert Notification.objects.filter(kind="tournament_round").count() == 16


def test_the_round_sentence_names_the_table_or_the_bye():
    params = {"tournament": "Suizo", "round": 3, "table": 12, "bye": False}
    assert sentence("tournament_round", params) == (
        "Round 3 of Suizo starts soon: you play at table 12."
    )
    assert "a bye against bots" in sentence("tournament_round", {**params, "bye": True})
    # A notification stored before tables were named still reads.
    assert sentence("tournament_round", {"tournament": "Suizo", "round": 3}) == (
        "Round 3 of Suizo is starting: your table is ready."
    )
