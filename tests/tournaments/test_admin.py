"""Staff define one-off and recurring tournaments in the admin and cancel with refunds."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from tests.tournaments.conftest import befriend
from tournaments import errors
from tournaments.models import Tournament, TournamentSchedule, TournamentState
from tournaments.services import tournament_register
from tournaments.tasks import tick

pytestmark = pytest.mark.django_db


def local(moment) -> dict[str, str]:
    moment = timezone.localtime(moment)
    return {"0": moment.strftime("%Y-%m-%d"), "1": moment.strftime("%H:%M:%S")}


def tournament_form(now, **overrides):
    data = {
        "name": "Friday knockout",
        "format": "knockout",
        "rules": "online",
        "bot_level": "medium",
        "rounds": "5",
        "best_of": "3",
        "round_minutes": "30",
        "pause_minutes": "2",
        "entry_fee": "100",
        "xp_pool": "0",
        "min_entries": "4",
        "max_entries": "32",
        "prize_shares": "[600, 400]",
    }
    for name, moment in (
        ("registration_opens_at", now + timedelta(hours=1)),
        ("registration_closes_at", now + timedelta(hours=20)),
        ("starts_at", now + timedelta(hours=21)),
    ):
        for part, value in local(moment).items():
            data[f"{name}_{part}"] = value
    data.update(
        {
            f"{prefix}-{key}": value
            for prefix in ("entries", "round_set")
            for key, value in (
                ("TOTAL_FORMS", "0"),
                ("INITIAL_FORMS", "0"),
                ("MIN_NUM_FORMS", "0"),
                ("MAX_NUM_FORMS", "1000"),
            )
        }
    )
    data.update(overrides)
    return data


def test_staff_create_a_one_off_tournament_scheduled_for_the_beat(client, staff_user):
    client.force_login(staff_user)
    response = client.post(
        reverse("admin:tournaments_tournament_add"), tournament_form(timezone.now())
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get()
    assert tournament.state == TournamentState.SCHEDULED
    assert tournament.best_of == 3 and tournament.prize_shares == [600, 400]


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("prize_shares", "[-1, 2]"),
        ("prize_shares", '"half"'),
        ("prize_shares", "[0, 0]"),
        ("min_entries", "40"),
    ],
)
def test_the_admin_refuses_bad_prize_shares_and_entry_limits(client, staff_user, field, value):
    client.force_login(staff_user)
    data = tournament_form(timezone.now(), **{field: value})
    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200
    assert not Tournament.objects.exists()


def test_the_admin_refuses_registration_closing_after_the_start(client, staff_user):
    client.force_login(staff_user)
    later = local(timezone.now() + timedelta(hours=30))
    data = tournament_form(
        timezone.now(),
        registration_closes_at_0=later["0"],
        registration_closes_at_1=later["1"],
    )
    response = client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200
    assert not Tournament.objects.exists()


def test_staff_define_a_recurring_tournament_and_the_beat_creates_its_next_one(client, staff_user):
    client.force_login(staff_user)
    data = tournament_form(timezone.now(), name="Saturday Swiss", format="swiss")
    for key in list(data):
        if key.startswith(("registration_", "starts_at", "entries-", "round_set-")):
            del data[key]
    data.update(
        weekday="5",
        local_time="18:00",
        timezone="Europe/Madrid",
        registration_open_hours="72",
        registration_close_minutes="5",
        active="on",
    )
    response = client.post(reverse("admin:tournaments_tournamentschedule_add"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    schedule = TournamentSchedule.objects.get()
    tick()
    assert Tournament.objects.filter(schedule=schedule).count() == 1


def test_a_recurring_tournament_needs_a_real_time_zone(client, staff_user):
    client.force_login(staff_user)
    data = tournament_form(timezone.now(), weekday="5", local_time="18:00")
    data["timezone"] = "Mars/Olympus"
    response = client.post(reverse("admin:tournaments_tournamentschedule_add"), data)
    assert response.status_code == 200
    assert not TournamentSchedule.objects.exists()


def test_the_cancel_action_refunds_every_fee(
    client, staff_user, players, make_tournament, coins_of
):
    ana, bea = players(2)
    befriend(ana, bea)
    tournament = make_tournament(entry_fee=100)
    tournament_register(tournament_id=tournament.pk, user=ana, partner=bea)
    client.force_login(staff_user)
    response = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_with_refunds", "_selected_action": [tournament.pk]},
        follow=True,
    )
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.CANCELLED
    assert coins_of(ana) == 1000
    again = client.post(
        reverse("admin:tournaments_tournament_changelist"),
        {"action": "cancel_with_refunds", "_selected_action": [tournament.pk]},
        follow=True,
    )
    with translation.override("es"):
        refusal = str(errors.TournamentNotCancellable().message)
    assert refusal in again.content.decode()
    assert coins_of(ana) == 1000


def test_the_tournament_pages_of_the_admin_open(client, staff_user, make_tournament):
    tournament = make_tournament()
    client.force_login(staff_user)
    for url in (
        reverse("admin:tournaments_tournament_changelist"),
        reverse("admin:tournaments_tournament_change", args=[tournament.pk]),
        reverse("admin:tournaments_tournamentschedule_changelist"),
        reverse("admin:tournaments_pairing_changelist"),
    ):
        assert client.get(url).status_code == 200
