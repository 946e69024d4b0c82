"""Rated matches: the update in the settlement's transaction, once; resets; the replay."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.admin.models import LogEntry
from django.core.management import call_command
from django.db import connection, transaction
from django.utils import timezone, translation

from games import services as games
from games.models import Match, MatchSeat, Table
from online.policies import OnlinePolicy
from ratings import errors
from ratings.models import RatedMatch, Rating, RatingChange, RatingReset
from ratings.services import match_rate, rating_reset
from ratings.skill import BOT_SKILLS, NEW, Skill, shown
from tests.ratings.conftest import finish, online_table, play_out, stake_table, user_at
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def ratings(users):
    return {u.pk: Rating.objects.get(user=u).value for u in users}


def test_an_online_match_raises_the_winners_and_lowers_the_losers(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    match = finish(table, winner=0)
    winners = [user_at(table, 0), user_at(table, 2)]
    losers = [user_at(table, 1), user_at(table, 3)]
    assert all(v > 1500 for v in ratings(winners).values())
    assert all(v < 1500 for v in ratings(losers).values())
    changes = RatingChange.objects.filter(match=match)
    assert changes.count() == 4
    for change in changes:
        assert change.before == 1500 and change.matches == 1 and change.provisional
        assert change.at == match.finished_at
    assert RatedMatch.objects.filter(match=match).exists()


def test_a_stake_match_is_rated(players, clock):
    cast = players(4)
    table = stake_table(cast, clock)
    match = finish(table, winner=1)
    assert RatingChange.objects.filter(match=match).count() == 4
    assert Rating.objects.get(user=user_at(table, 1)).value > 1500


@pytest.mark.parametrize("kind", ["practice", "friends"])
def test_practice_and_friends_matches_are_not_rated(players, kind):
    from tests.online.conftest import play_out

    cast = players(1)
    if kind == "practice":
        table = games.table_create_practice(user=cast[0], rules="online", bot_level="easy")
    else:
        table = games.table_create_friends(user=cast[0])
        for position in (1, 2, 3):
            games.seat_set_bot(user=cast[0], table_id=table.pk, position=position, bot=True)
        games.match_start(user=cast[0], table_id=table.pk)
    match = play_out(Table.objects.get(pk=table.pk))
    assert match.status == "finished"
    assert not RatedMatch.objects.exists() and not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_bots_play_at_their_fixed_rating_and_get_no_row(players, clock):
    cast = players(1)
    table = online_table(cast, clock)
    assert table.bot_level == "easy"
    match = finish(table, winner=0)
    changes = list(RatingChange.objects.filter(match=match))
    assert [c.user_id for c in changes] == [cast[0].pk]
    assert Rating.objects.count() == 1
    assert BOT_SKILLS["easy"].shown < 1500  # unchanged constants


def test_settling_twice_updates_once(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    match = finish(table, winner=0)
    before = ratings(cast)
    seats = list(MatchSeat.objects.filter(match=match).order_by("pk"))
    with transaction.atomic():
        OnlinePolicy().match_settle(table=table, match=match, match_seats=seats)
    assert match_rate(match=match, match_seats=seats, bot_level="easy") is False
    assert ratings(cast) == before
    assert RatingChange.objects.filter(match=match).count() == 4
    assert all(r.matches == 1 for r in Rating.objects.all())


def test_a_redelivered_task_after_the_end_changes_no_rating(players, clock):
    from games import tasks
    from games.services import match_timeout

    cast = players(1)
    table = online_table(cast, clock)
    match = play_out(table)  # the bots' moves and hers, to the end
    before = _snapshot()
    assert len(before[1]) == 1
    tasks.bot_move(table.pk)  # a bot move task delivered again
    assert match_timeout(match_id=match.pk, version=match.version - 1) is False
    assert match_timeout(match_id=match.pk, version=match.version) is False
    assert _snapshot() == before


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_settlements_at_the_same_instant_update_once(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    match = finish(table, winner=0)
    RatingChange.objects.all().delete()
    RatedMatch.objects.all().delete()
    Rating.objects.all().delete()
    seats = list(MatchSeat.objects.filter(match=match))

    def settle(_index):
        with transaction.atomic():
            return match_rate(
                match=Match.objects.get(pk=match.pk), match_seats=seats, bot_level="easy"
            )

    results = run_together(2, settle)
    assert sorted(results) == [False, True]
    assert RatingChange.objects.filter(match=match).count() == 4
    assert all(r.matches == 1 for r in Rating.objects.all())


@pytest.mark.postgres
def test_on_postgresql_a_settlement_rates_in_two_statements_and_a_second_writes_nothing(
    players, clock, django_assert_num_queries
):
    cast = players(4)
    table = online_table(cast, clock)
    match = finish(table, winner=0)  # every player has a rating row now
    RatingChange.objects.filter(match=match).delete()
    RatedMatch.objects.filter(match=match).delete()
    before = ratings(cast)
    seats = list(MatchSeat.objects.filter(match=match))
    with django_assert_num_queries(2):  # the rows locked; claim and write
        assert match_rate(match=match, match_seats=seats, bot_level="easy") is True
    after = ratings(cast)
    assert after != before and RatingChange.objects.filter(match=match).count() == 4
    assert all(r.matches == 2 for r in Rating.objects.all())
    with django_assert_num_queries(2):
        assert match_rate(match=match, match_seats=seats, bot_level="easy") is False
    assert ratings(cast) == after and RatingChange.objects.filter(match=match).count() == 4
    assert all(r.matches == 2 for r in Rating.objects.all())


def test_an_abandoner_whose_pair_won_loses_and_their_partner_still_wins(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    abandoner, partner = user_at(table, 0), user_at(table, 2)
    games.seat_leave(user=abandoner, table_id=table.pk)
    finish(table, winner=0)
    assert Rating.objects.get(user=abandoner).value < 1500
    assert Rating.objects.get(user=partner).value > 1500


def test_the_partner_of_an_abandoner_is_not_rated_down_when_their_pair_loses(players, clock):
    cast = players(4)
    table = online_table(cast, clock)
    abandoner, partner = user_at(table, 1), user_at(table, 3)
    games.seat_leave(user=abandoner, table_id=table.pk)
    match = finish(table, winner=0)
    assert Rating.objects.get(user=abandoner).value < 1500
    kept = RatingChange.objects.get(match=match, user=partner)
    assert kept.change == 0 and (kept.mu_after, kept.sigma_after) == (NEW.mu, NEW.sigma)
    assert Rating.objects.get(user=partner).matches == 1


def test_a_newcomers_first_loss_beside_a_bot_moves_at_most_the_provisional_step(
    players, clock, settings
):
    """1500 went to 1230 after a first loss beside an easy bot against two easy bots,
    below the easy bots' 1279: a provisional player now moves at most
    RATING_PROVISIONAL_STEP (150) a match, and stays above them."""
    assert settings.RATING_PROVISIONAL_STEP == 150
    cast = players(1)
    table = online_table(cast, clock)
    match = finish(table, winner=1 - MatchSeat.objects.get(user=cast[0]).position % 2)
    change = RatingChange.objects.get(match=match)
    assert change.before == 1500 and change.after == 1350
    assert change.after > BOT_SKILLS["easy"].shown
    row = Rating.objects.get(user=cast[0])
    assert row.value == 1350 and row.sigma < NEW.sigma  # the model's uncertainty, as it said


def test_without_the_step_a_first_loss_beside_a_bot_moves_as_the_model_says(
    players, clock, settings
):
    settings.RATING_PROVISIONAL_STEP = 0
    cast = players(1)
    table = online_table(cast, clock)
    match = finish(table, winner=1 - MatchSeat.objects.get(user=cast[0]).position % 2)
    assert RatingChange.objects.get(match=match).after < BOT_SKILLS["easy"].shown


def test_an_established_player_moves_as_the_model_says(players, clock):
    from ratings.skill import SeatIn, match_update

    cast = players(1)
    unsure = Skill(18.0, 6.0)  # far below the bots, unsure enough to move far (+179)
    Rating.objects.create(
        user=cast[0], mu=unsure.mu, sigma=unsure.sigma, value=shown(unsure.mu), matches=10
    )
    table = online_table(cast, clock)
    position = MatchSeat.objects.get(user=cast[0]).position
    match = finish(table, winner=position % 2)
    bot = SeatIn(BOT_SKILLS["easy"], person=False)
    seats = [SeatIn(unsure) if p == position else bot for p in range(4)]
    expected = match_update(seats, winner=position % 2)[position]
    change = RatingChange.objects.get(match=match)
    assert change.after == expected.shown and change.after - change.before > 150


def test_a_player_is_provisional_until_ten_rated_matches(players, clock):
    cast = players(4)
    for number in range(10):
        table = online_table(cast, clock)
        finish(table, winner=number % 2)
        clock.advance(60)
        row = Rating.objects.get(user=cast[0])
        assert row.provisional == (number < 9)
    assert Rating.objects.get(user=cast[0]).matches == 10


def test_a_reset_needs_a_reason_and_writes_nothing_without_one(players, staff_user, clock):
    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    before = Rating.objects.get(user=cast[0]).value
    for reason in ("", "   ", None):
        with pytest.raises(errors.ResetNeedsReason) as refused, translation.override("en"):
            rating_reset(user=cast[0], staff_user=staff_user, reason=reason)
        with translation.override("en"):
            assert "needs a reason" in refused.value.message
    assert Rating.objects.get(user=cast[0]).value == before
    assert not RatingReset.objects.exists()


def test_a_reset_needs_the_permission(players, make_user, clock):
    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    helper = make_user("helper", is_staff=True)
    with pytest.raises(errors.ResetNotAllowed):
        rating_reset(user=cast[0], staff_user=helper, reason="cheating")
    assert not RatingReset.objects.exists()


def test_a_reset_sets_a_new_players_rating_and_is_logged(players, staff_user, clock):
    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    winner = user_at(Table.objects.get(mode="online"), 0)
    before = Rating.objects.get(user=winner).value
    reset = rating_reset(user=winner, staff_user=staff_user, reason="  colluding  ")
    row = Rating.objects.get(user=winner)
    assert (row.mu, row.sigma, row.value, row.matches) == (NEW.mu, NEW.sigma, 1500, 0)
    assert reset.reason == "colluding" and reset.before == before
    log = LogEntry.objects.get(object_id=str(winner.pk))
    assert "colluding" in log.change_message and str(before) in log.change_message


def _snapshot():
    ratings = sorted(
        Rating.objects.values_list("user_id", "mu", "sigma", "value", "matches", "last_rated_at")
    )
    changes = sorted(
        RatingChange.objects.values_list(
            "match_id", "user_id", "position", "at", "mu_before", "sigma_before",
            "mu_after", "sigma_after", "before", "after", "matches",
        )
    )  # fmt: skip
    rated = sorted(RatedMatch.objects.values_list("match_id", "rated_at"))
    return ratings, changes, rated


def test_recompute_arrives_at_the_same_numbers_as_the_incremental_updates(
    players, staff_user, clock
):
    cast = players(7)
    groups = [cast[0:4], cast[2:6], cast[3:7], [cast[0], cast[6]], cast[1:5], [cast[5]]]
    for number, group in enumerate(groups * 2):
        table = online_table(group, clock)
        if number == 4:
            games.seat_leave(user=user_at(table, 1), table_id=table.pk)  # an abandonment
        if number == 7:
            rating_reset(user=cast[3], staff_user=staff_user, reason="testing the replay")
        finish(table, winner=(number * 7) % 3 % 2)
        clock.advance(30)
    finish(stake_table(cast[:4], clock), winner=1)
    incremental = _snapshot()
    assert len(incremental[2]) == 13 and RatingReset.objects.count() == 1
    Rating.objects.update(mu=1.0, sigma=1.0, value=1, matches=99)  # spoil them
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert _snapshot() == incremental


def test_recompute_rates_matches_finished_before_ratings_existed(players, clock):
    cast = players(4)
    match = finish(online_table(cast, clock), winner=0)
    RatingChange.objects.all().delete()
    RatedMatch.objects.all().delete()
    Rating.objects.all().delete()
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert RatingChange.objects.filter(match=match).count() == 4
    assert Rating.objects.get(user=user_at(match.table, 0)).value == shown(
        RatingChange.objects.get(match=match, position=0).mu_after
    )


def test_a_reset_made_at_the_moment_of_the_last_match_replays_after_it(players, staff_user, clock):
    cast = players(4)
    match = finish(online_table(cast, clock), winner=0)
    reset = rating_reset(
        user=cast[0], staff_user=staff_user, reason="r", now=match.finished_at - timedelta(1)
    )
    assert reset.at > match.finished_at
    call_command("recompute_ratings", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert Rating.objects.get(user=cast[0]).value == 1500
    assert timezone.is_aware(Rating.objects.get(user=cast[0]).last_rated_at)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_recompute_works_as_the_application_role_without_truncate(app_role, players, clock):
    """The application's role may not TRUNCATE (docs/operations.md): the replay then
    empties the rating tables with DELETE."""
    role = app_role
    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    incremental = _snapshot()
    database = connection.settings_dict
    url = (
        f"postgres://{role}@{database['HOST'] or '127.0.0.1'}:{database['PORT'] or 5432}"
        f"/{database['NAME']}"
    )
    env = {**os.environ, "DEBUG": "1", "DATABASE_URL": url}
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "recompute_ratings"],
        cwd=Path(__file__).resolve().parents[2],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    assert "Rated 1 matches" in result.stdout
    assert _snapshot() == incremental
