"""The live path reads a player's progress incrementally (issue 46: its cost must not
grow with the player's history) and reaches what the recompute reaches from history:
over a random history of four players, read match by match; with a match recorded out
of order; and with the same number of queries at 5 matches of history as at 150."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from achievements.models import Award, Progress
from achievements.services import achievements_for_match, achievements_recompute
from games.models import Mode
from history.models import PlayerMatch
from tests.history.conftest import store_finished, store_played, store_record
from tests.history.handbuilt import RECORD

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def awards():
    return set(Award.objects.values_list("user_id", "code", "achieved_at", "match_id"))


def read_in_order():
    order = PlayerMatch.objects.order_by("finished_at", "match_id").values_list(
        "match_id", flat=True
    )
    for match_id in dict.fromkeys(order):
        achievements_for_match(match_id=match_id)


def random_history(users, rng, count, start):
    moment = start
    for _ in range(count):
        moment += rng.choice([timedelta(minutes=30), timedelta(hours=7), timedelta(days=1)])
        seats = [rng.choice([*users, None]) for _ in range(4)]
        seats = [u if u is not None and seats.index(u) == i else None for i, u in enumerate(seats)]
        if not any(seats):
            seats[0] = users[0]
        roll = rng.random()
        if roll < 0.05:
            store_record(seats, RECORD, mode=Mode.ONLINE, finished_at=moment)
        else:
            store_finished(
                seats,
                1,
                winner=rng.randrange(2),
                mode=rng.choice([Mode.ONLINE, Mode.STAKE, Mode.PRACTICE]),
                rules=rng.choice(["online", "classic"]),
                abandoned=(rng.randrange(4),) if roll > 0.93 else (),
                finished_at=moment,
            )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reading_match_by_match_equals_the_recompute_over_a_random_history(make_user, seed):
    rng = random.Random(seed)
    users = [make_user(name) for name in ("ana", "bea", "carlos", "dora")]
    random_history(users, rng, 90, timezone.now() - timedelta(days=120))
    read_in_order()
    live = awards()
    assert live, "a random history of 90 matches earns something"
    assert Progress.objects.count() == 4
    Award.objects.all().delete()
    Progress.objects.all().delete()
    achievements_recompute()
    assert awards() == live
    assert achievements_recompute() == []


def test_a_match_recorded_before_the_last_one_read_rebuilds_the_progress(player, stranger):
    now = timezone.now()
    for index in range(4):
        [match] = store_finished(
            [player, None, stranger, None], 1, finished_at=now - timedelta(hours=10 - index)
        )
        achievements_for_match(match_id=match.pk)
    assert Progress.objects.get(user=player).folded == 4
    # A fifth win, recorded late with a moment before the others: a streak of five.
    [late] = store_finished([player, None, stranger, None], 1, finished_at=now - timedelta(days=2))
    achievements_for_match(match_id=late.pk)
    progress = Progress.objects.get(user=player)
    assert progress.folded == 5 and progress.last_finished_at == now - timedelta(hours=7)
    streak = Award.objects.get(user=player, code="streak_5")
    assert streak.achieved_at == now - timedelta(hours=7)
    live_state = progress.state
    Award.objects.all().delete()
    achievements_recompute()
    assert Progress.objects.get(user=player).state == live_state
    again = Award.objects.get(user=player, code="streak_5")
    assert (again.achieved_at, again.match_id) == (streak.achieved_at, streak.match_id)


def test_a_progress_built_before_a_records_match_still_reads_its_record(player, stranger):
    store_finished(
        [player, None, stranger, None], 3, finished_at=timezone.now() - timedelta(days=1)
    )
    read_in_order()
    match = store_record([stranger, player, None, None], RECORD, mode=Mode.ONLINE)
    achievements_for_match(match_id=match.pk)
    held = set(Award.objects.filter(user=player).values_list("code", flat=True))
    assert "quintola_made" in held


def _reads(match_id):
    """The queries of reading one settled match: all, and those on the history and the
    matches' records (what would grow with a history read whole)."""
    with CaptureQueriesContext(connection) as captured:
        achievements_for_match(match_id=match_id)
    heavy = [
        q["sql"]
        for q in captured.captured_queries
        if "history_playermatch" in q["sql"] or '"games_match"."record"' in q["sql"]
    ]
    return len(captured), heavy


def test_reading_a_match_costs_the_same_queries_whatever_the_history(player, stranger):
    now = timezone.now()
    store_finished([player, None, stranger, None], 5, finished_at=now - timedelta(days=30))
    read_in_order()
    total_short, heavy_short = _reads(store_played([player, None, stranger, None], seed=3).pk)
    # 150 matches more, recorded before the last one read: one rebuild, then back to
    # reading only what is new.
    store_finished([player, None, stranger, None], 150, finished_at=now - timedelta(days=1))
    read_in_order()
    assert Progress.objects.get(user=player).folded == 156
    total_long, heavy_long = _reads(store_played([player, None, stranger, None], seed=4).pk)
    assert len(heavy_long) == len(heavy_short)
    assert total_long <= total_short + 2  # an award or two granted (an INSERT, a look)
    assert Progress.objects.get(user=player).folded == 157
