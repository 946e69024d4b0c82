"""Club tournaments under real races on PostgreSQL: the cap on tournaments to come
holds when admins schedule at the same instant (the club's row is locked first)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import services as clubs
from clubs.models import Admission
from tests.threads import run_together
from tournaments import errors
from tournaments.models import Tournament
from tournaments.services.clubs import CLUB_TOURNAMENTS_MAX, club_tournament_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_admins_scheduling_at_once_never_pass_the_cap(players):
    owner, *admins = players(4, prefix="a")
    club = clubs.club_create(
        user=owner, name="Los Ases", description="", language="es", admission=Admission.OPEN
    )
    for admin in admins:
        clubs.club_join(user=admin, club_id=club.pk)
        clubs.member_set_role(user=owner, club_id=club.pk, username=admin.username, role="admin")
    fields = {
        "format": "swiss",
        "rules": "online",
        "starts_at": timezone.now() + timedelta(days=1),
        "rounds": 3,
        "best_of": 1,
        "round_minutes": 30,
        "pause_minutes": 2,
        "entry_fee": 0,
        "min_entries": 2,
        "max_entries": 16,
        "registration_close_minutes": 5,
    }
    for i in range(CLUB_TOURNAMENTS_MAX - 1):
        club_tournament_create(user=owner, club_id=club.pk, name=f"Torneo {i}", **fields)
    cast = [owner, *admins]
    results = run_together(
        4,
        lambda i: club_tournament_create(
            user=cast[i], club_id=club.pk, name=f"Carrera {i}", **fields
        ),
    )
    made = [r for r in results if isinstance(r, Tournament)]
    refused = [r for r in results if not isinstance(r, Tournament)]
    assert len(made) == 1
    assert all(isinstance(r, errors.TooManyClubTournaments) for r in refused)
    assert Tournament.objects.filter(club_id=club.pk).count() == CLUB_TOURNAMENTS_MAX
