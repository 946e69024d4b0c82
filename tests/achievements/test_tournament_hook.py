"""A tournament's finish notes its results as waiting in its own transaction (games'
`results_recorded`, the one line in tournaments' lifecycle); the reader then grants
the champions and the podium their achievements at once, exactly once."""

from __future__ import annotations

import pytest

from achievements.models import Award, PendingEvent
from achievements.services import achievements_read_events
from achievements.tasks import read_pending
from tests.tournaments.conftest import (  # noqa: F401 (fixtures)
    _tournament_settings,
    clock,
    make_tournament,
    play_all,
    players,
)
from tests.tournaments.test_lifecycle import register_pairs, to_start
from tournaments.models import Entry, TournamentState
from tournaments.services import tournaments_tick

pytestmark = pytest.mark.django_db


def test_a_finished_tournament_grants_its_champions_at_once(players, make_tournament, clock):  # noqa: F811
    cast = players(4)
    tournament = make_tournament(entry_fee=0, xp_pool=300, rounds=1, prize_shares=[1000])
    register_pairs(tournament, cast)
    to_start(tournament, clock)
    play_all(tournament)
    tournaments_tick(now=clock())
    tournament.refresh_from_db()
    assert tournament.state == TournamentState.FINISHED
    assert PendingEvent.objects.filter(event="tournament", ref_id=tournament.pk).count() == 1
    read_pending()
    champions = Entry.objects.get(tournament=tournament, rank=1).player_ids
    for user in cast:
        codes = dict(Award.objects.filter(user=user).values_list("code", "achieved_at"))
        if user.pk in champions:
            assert codes["tournament_won"] == tournament.finished_at
            assert codes["tournament_podium"] == tournament.finished_at
        else:  # second of two pairs: on the podium, not the champion
            assert "tournament_won" not in codes and "tournament_podium" in codes
    assert not PendingEvent.objects.exists()
    before = Award.objects.count()
    tournaments_tick(now=clock())
    assert achievements_read_events() == [] and Award.objects.count() == before
