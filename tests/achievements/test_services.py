"""The awards of a settled match, exactly once; the recompute from history."""

from datetime import timedelta
from unittest import mock

import pytest
from django.utils import timezone

from achievements.models import Award, ProcessedMatch
from achievements.services import achievements_for_match, achievements_recompute
from games.models import Mode
from tests.history.conftest import store_finished, store_record
from tests.history.handbuilt import RECORD
from tests.threads import run_together

pytestmark = pytest.mark.django_db


def codes(user):
    return set(Award.objects.filter(user=user).values_list("code", flat=True))


def test_a_settled_win_grants_the_first_win_dated_by_the_match(player, stranger):
    [match] = store_finished([player, None, stranger, None], 1)
    awards = achievements_for_match(match_id=match.pk)
    # The first stored match is won 21–0: a shutout too.
    assert {a.code for a in awards} == {"first_win", "shutout"}
    award = Award.objects.get(user=player, code="first_win")
    assert award.achieved_at == match.finished_at
    assert award.match_id == match.pk
    assert codes(stranger) == {"first_win", "shutout"}


def test_a_redelivered_settlement_grants_nothing_more(player):
    [match] = store_finished([player, None, None, None], 1)
    assert achievements_for_match(match_id=match.pk)
    assert achievements_for_match(match_id=match.pk) == []
    assert Award.objects.filter(user=player).count() == 2
    assert ProcessedMatch.objects.filter(match=match).count() == 1


def test_a_loss_grants_no_win(player):
    [match] = store_finished([None, player, None, None], 1)
    assert achievements_for_match(match_id=match.pk) == []


def test_a_deleted_match_grants_nothing_and_raises_nothing(player):
    [match] = store_finished([player, None, None, None], 1)
    match_id = match.pk
    match.delete()
    assert achievements_for_match(match_id=match_id) == []
    assert achievements_for_match(match_id=10**9) == []


def test_a_player_gone_before_the_task_runs_is_skipped(player, stranger):
    # A user row cannot be deleted while seats refer to it (PROTECT); a user gone by
    # other means (a database restore, a purge) is skipped, the others still served.
    [match] = store_finished([player, None, stranger, None], 1)
    with mock.patch("achievements.services._lock_users", side_effect=lambda ids: [player.pk]):
        awards = achievements_for_match(match_id=match.pk)
    assert {a.user_id for a in awards} == {player.pk}
    assert codes(stranger) == set()


def test_an_award_survives_its_match_deleted(player):
    [match] = store_finished([player, None, None, None], 1)
    achievements_for_match(match_id=match.pk)
    match.delete()
    assert set(Award.objects.filter(user=player).values_list("match_id", flat=True)) == {None}


def test_the_engine_record_grants_the_quintola_to_its_maker(player, stranger):
    match = store_record([stranger, player, None, None], RECORD, mode=Mode.ONLINE)
    achievements_for_match(match_id=match.pk)
    assert "quintola_made" in codes(player)
    assert "quintola_made" not in codes(stranger)
    assert "capote" in codes(stranger)
    assert "capote" not in codes(player)


def test_ten_settled_wins_in_a_row_grant_the_streak_at_the_tenth(player):
    now = timezone.now()
    matches = store_finished([player, None, None, None], 10, finished_at=now)
    for match in sorted(matches, key=lambda m: m.finished_at):
        achievements_for_match(match_id=match.pk)
    award = Award.objects.get(user=player, code="streak_10")
    assert award.achieved_at == now  # the newest of the ten
    assert "matches_10" in codes(player)


def test_the_recompute_reaches_what_the_live_path_reached(player, stranger, make_user):
    third = make_user("eva")
    now = timezone.now()
    store_finished([player, stranger, third, None], 12, finished_at=now)
    store_finished(
        [stranger, player, None, third], 3, winner=1, finished_at=now + timedelta(hours=1)
    )
    store_record(
        [stranger, player, None, None],
        RECORD,
        mode=Mode.ONLINE,
        finished_at=now + timedelta(hours=2),
    )
    from history.models import PlayerMatch

    order = PlayerMatch.objects.order_by("finished_at", "match_id").values_list(
        "match_id", flat=True
    )
    for match_id in dict.fromkeys(order):
        achievements_for_match(match_id=match_id)
    live = set(Award.objects.values_list("user_id", "code", "achieved_at", "match_id"))
    Award.objects.all().delete()
    achievements_recompute()
    again = set(Award.objects.values_list("user_id", "code", "achieved_at", "match_id"))
    assert again == live
    assert achievements_recompute() == []


def test_the_recompute_of_a_user_without_matches_grants_nothing(player):
    assert achievements_recompute(user_ids=[player.pk, 10**9]) == []


def test_the_settlement_queues_the_task_only_once_committed(
    player, django_capture_on_commit_callbacks
):
    from achievements.receivers import on_match_finished

    [match] = store_finished([player, None, None, None], 1)
    with mock.patch("achievements.tasks.match_achievements.delay") as delay:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            on_match_finished(None, match=match)
        delay.assert_not_called()
        for callback in callbacks:
            callback()
        delay.assert_called_once_with(match.pk)


def test_the_task_runs_the_service(player):
    from achievements.tasks import match_achievements

    [match] = store_finished([player, None, None, None], 1)
    assert match_achievements(match.pk) == 2
    assert match_achievements(match.pk) == 0


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_one_match_delivered_twice_at_once_grants_once(player):
    [match] = store_finished([player, None, None, None], 1)
    results = run_together(2, lambda i: achievements_for_match(match_id=match.pk))
    assert not [r for r in results if isinstance(r, Exception)]
    assert sorted(len(r) for r in results) == [0, 2]
    assert Award.objects.filter(user=player).count() == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_two_matches_of_one_player_at_once_grant_each_achievement_once(player):
    matches = store_finished([player, None, None, None], 2)
    results = run_together(2, lambda i: achievements_for_match(match_id=matches[i].pk))
    assert not [r for r in results if isinstance(r, Exception)]
    assert sum(len(r) for r in results) == 2
    assert sorted(Award.objects.filter(user=player).values_list("code", flat=True)) == [
        "first_win",
        "shutout",
    ]
