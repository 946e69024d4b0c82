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


def test_the_settlement_notes_its_match_as_waiting_once(player):
    from achievements.models import PendingMatch
    from achievements.receivers import on_match_finished

    [match] = store_finished([player, None, None, None], 1)
    on_match_finished(None, match=match)
    on_match_finished(None, match=match)
    assert list(PendingMatch.objects.values_list("match_id", flat=True)) == [match.pk]


def test_a_settlement_rolled_back_leaves_nothing_waiting(player):
    from django.db import transaction

    from achievements.models import PendingMatch
    from achievements.receivers import on_match_finished

    [match] = store_finished([player, None, None, None], 1)
    with pytest.raises(RuntimeError), transaction.atomic():
        on_match_finished(None, match=match)
        raise RuntimeError("the settlement failed")
    assert not PendingMatch.objects.exists()


def test_reading_the_waiting_matches_grants_and_empties_the_outbox(player):
    from achievements.models import PendingMatch
    from achievements.receivers import on_match_finished
    from achievements.tasks import read_pending

    matches = store_finished([player, None, None, None], 3)
    for match in matches:
        on_match_finished(None, match=match)
    assert read_pending() == 3
    assert not PendingMatch.objects.exists()
    assert codes(player) == {"first_win", "shutout"}
    assert read_pending() == 0


def test_the_match_finished_signal_reaches_achievements(player):
    from achievements.models import PendingMatch
    from games.signals import match_finished

    [match] = store_finished([player, None, None, None], 1)
    match_finished.send(
        sender=type(match), match=match, table=match.table, match_seats=[], engine=None
    )
    assert PendingMatch.objects.filter(match=match).exists()


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


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_two_readers_of_the_outbox_at_once_read_each_match_once(player, stranger):
    from achievements.models import PendingMatch
    from achievements.services import achievements_match_pending, achievements_read_pending

    matches = store_finished([player, None, stranger, None], 6)
    for match in matches:
        achievements_match_pending(match_id=match.pk)
    results = run_together(2, lambda i: achievements_read_pending())
    assert not [r for r in results if isinstance(r, Exception)]
    assert sum(results) == 6
    assert not PendingMatch.objects.exists()
    # Six wins in a row with one partner: each achievement held once.
    assert sorted(Award.objects.filter(user=player).values_list("code", flat=True)) == [
        "first_win",
        "partner_streak_5",
        "shutout",
        "streak_5",
    ]
    assert ProcessedMatch.objects.count() == 6


def test_a_match_played_to_its_end_waits_then_grants_its_players(player):
    from achievements.models import PendingMatch
    from achievements.services import achievements_read_pending
    from history.models import PlayerMatch
    from tests.history.conftest import play_practice

    match = play_practice(player)
    recorded = PlayerMatch.objects.filter(match=match).exists()
    assert PendingMatch.objects.filter(match=match).exists()
    assert achievements_read_pending() == 1
    if recorded:
        assert "matches_10" not in codes(player)
        won = PlayerMatch.objects.get(match=match, user=player).outcome == "won"
        assert ("first_win" in codes(player)) is won
