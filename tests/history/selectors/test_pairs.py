"""Players who sat together, for the fair-play screen (history/selectors/pairs.py):
read from the history's own rows, one line per person per finished match."""

from datetime import timedelta

import pytest

from games.models import Match, MatchStatus, Table, TableStatus
from history.models import Outcome, PlayerMatch
from history.selectors import matches_played, pairs_together, shared_matches

from .conftest import NOW

pytestmark = pytest.mark.django_db

RATED = ["online", "stake"]


def played(seats, *, mode="online", days_ago=1, winner=0, abandoned=()):
    """A finished match of these four seats (None: a bot) with its history lines."""
    owner = next(u for u in seats if u is not None)
    table = Table.objects.create(mode=mode, owner=owner, status=TableStatus.FINISHED)
    finished = NOW - timedelta(days=days_ago)
    match = Match.objects.create(
        table=table,
        rules="online",
        seed=1,
        first_dealer=0,
        status=MatchStatus.FINISHED,
        winner=winner,
        finished_at=finished,
    )
    for position, user in enumerate(seats):
        if user is None:
            continue
        won = position % 2 == winner
        PlayerMatch.objects.create(
            match=match,
            user=user,
            position=position,
            mode=mode,
            rules="online",
            finished_at=finished,
            outcome=Outcome.ABANDONED
            if position in abandoned
            else (Outcome.WON if won else Outcome.LOST),
            partner=seats[(position + 2) % 4],
            opponent_1=seats[(position + 1) % 4],
            opponent_2=seats[(position + 3) % 4],
            place=(1 if won else 3) + (position in abandoned),
        )
    return match


def window(**kwargs):
    return {"since": NOW - timedelta(days=90), "until": NOW, "modes": RATED, **kwargs}


def test_pairs_who_sat_together_often_enough_are_counted_once_a_match(cast):
    ana, bea, carlos, dani = cast
    for _ in range(3):
        played([ana, carlos, bea, dani])  # ana·bea and carlos·dani partners
    played([ana, bea, carlos, dani], mode="stake")  # now ana·carlos partners
    found = {(p.a, p.b): (p.partners, p.opponents) for p in pairs_together(**window(minimum=4))}
    assert found == {
        (ana.pk, bea.pk): (3, 1),
        (carlos.pk, dani.pk): (3, 1),
        (ana.pk, carlos.pk): (1, 3),
        (bea.pk, dani.pk): (1, 3),
        (ana.pk, dani.pk): (0, 4),
        (bea.pk, carlos.pk): (0, 4),
    }
    assert pairs_together(**window(minimum=5)) == []


def test_other_modes_old_matches_and_bots_do_not_count(cast):
    ana, bea, carlos, _dani = cast
    for _ in range(3):
        played([ana, carlos, bea, None], mode="friends")
        played([ana, carlos, bea, None], days_ago=91)
        played([ana, None, bea, None])
    found = pairs_together(**window(minimum=3))
    assert [(p.a, p.b, p.partners, p.opponents) for p in found] == [(ana.pk, bea.pk, 3, 0)]
    assert pairs_together(**window(minimum=1, modes=[])) == []


def test_each_player_counts_their_matches_of_the_window(cast):
    ana, bea, carlos, dani = cast
    played([ana, carlos, bea, dani])
    played([ana, None, None, None])
    played([ana, None, None, None], mode="practice")
    assert matches_played(user_ids=[ana.pk, bea.pk, 999], **window()) == {ana.pk: 2, bea.pk: 1}


def test_a_pairs_shared_matches_say_who_won_newest_first(cast):
    ana, bea, carlos, dani = cast
    old = played([ana, carlos, bea, dani], days_ago=5, winner=1)
    new = played([ana, bea, carlos, dani], days_ago=2, winner=0, abandoned=(0,))
    played([ana, None, None, None], days_ago=1)
    shared = shared_matches(pairs=[(ana.pk, bea.pk), (carlos.pk, bea.pk)], **window())
    first = shared[(ana.pk, bea.pk)]
    assert [(m.match_id, m.partners, m.a_won) for m in first] == [
        (new.pk, False, True),  # ana abandoned a match her pair won
        (old.pk, True, False),
    ]
    # Asked either way round, a pair is its lower id first.
    assert [m.match_id for m in shared[(bea.pk, carlos.pk)]] == [new.pk, old.pk]
    assert shared_matches(pairs=[], **window()) == {}
