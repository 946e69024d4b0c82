"""The ladder of waits for abandoning rated and stake matches (online/quitting.py,
docs/fairplay.md "Reputation and quitting"): every rung, the forgiveness of a first
disconnect and of a player back within the grace, the decay by clean matches, the
window, and a settlement delivered twice."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import formats, timezone
from django.utils.translation import override

from games import services as games
from games.models import Match, MatchSeat, Seat, Table
from online import errors as err
from online import quitting, selectors, services
from online.models import Conduct, MatchConduct, QuitStanding
from tests.online.conftest import finish

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)


@pytest.fixture(autouse=True)
def _ladder(settings):
    settings.QUIT_WAIT_MINUTES = (0, 5, 30, 120, 480, 1440)
    settings.QUIT_WINDOW_DAYS = 30
    settings.QUIT_CLEAN_PER_STEP = 3


def online_table(cast, now, capture) -> Table:
    """Four people seated at a new online table by the queue, at `now` (their ratings
    forgotten first, so that the queue seats them together at once)."""
    from ratings.models import Rating

    Rating.objects.all().delete()
    for user in cast:
        with capture(execute=True):
            services.queue_join(user=user, now=now)
    table = Table.objects.filter(mode="online").order_by("-pk").first()
    assert set(Seat.objects.filter(table=table, live=True).values_list("user", flat=True)) == {
        user.pk for user in cast
    }
    return table


def away_too_long(table: Table, user, settings) -> None:
    """`user`'s socket closed and they stayed away past ABANDON_AFTER_SECONDS."""
    games.seat_connect(user=user, table_id=table.pk)
    games.seat_disconnect(user=user, table_id=table.pk)
    Seat.objects.filter(table=table, user=user).update(
        absent_since=timezone.now() - timedelta(seconds=settings.ABANDON_AFTER_SECONDS + 1)
    )
    position = Seat.objects.get(table=table, user=user).position
    assert games.seat_abandon_absent(table_id=table.pk, position=position)


def leave_a_rated_match(quitter, others, capture, now=None) -> MatchConduct:
    table = online_table([quitter, *others], now or timezone.now(), capture)
    games.seat_leave(user=quitter, table_id=table.pk)
    finish(table, winner=0)
    return MatchConduct.objects.get(user=quitter, match__table=table)


def wait_of(user):
    return QuitStanding.objects.get(user=user).wait_until


def wait_over(user) -> None:
    """The wait in force ran out (the abandonments themselves happen at the real now)."""
    QuitStanding.objects.filter(user=user).update(wait_until=None)


def test_every_rung_of_the_ladder_costs_its_wait(players, django_capture_on_commit_callbacks):
    quitter, *others = players(4)
    expected = [0, 5, 30, 120, 480, 1440, 1440]  # past the end, the last rung again
    now = timezone.now()
    for step, minutes in enumerate(expected, start=1):
        row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
        assert (row.conduct, row.forgiven, row.step) == (Conduct.LEFT, False, step)
        if minutes == 0:
            assert row.wait_until is None  # the first rung is a warning only
            services.queue_join(user=quitter, now=row.at)
            services.queue_leave(user=quitter)
        else:
            assert row.wait_until == row.at + minutes * MINUTE
            assert wait_of(quitter) == row.wait_until
            with pytest.raises(err.QueueWait):
                services.queue_join(user=quitter, now=row.wait_until - timedelta(seconds=1))
        now = (row.wait_until or row.at) + timedelta(seconds=1)  # the wait over
    assert QuitStanding.objects.get(user=quitter).step == 7


def test_the_queue_refuses_during_the_wait_and_says_why_and_until_when(
    players, django_capture_on_commit_callbacks, settings
):
    settings.QUIT_WAIT_MINUTES = (30,)  # the very first abandonment costs 30 minutes
    quitter, *others = players(4)
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks)
    with pytest.raises(err.QueueWait) as refused:
        services.queue_join(user=quitter, now=row.at + 10 * MINUTE)
    error = refused.value
    assert error.code == "queue_wait"
    assert error.params == {"until": row.wait_until.isoformat(), "abandoned": 1}
    local = timezone.localtime(row.wait_until)  # Europe/Madrid, as the site shows times
    assert str(local.tzinfo) == "Europe/Madrid"
    with override("es"):
        spanish = error.message
        spanish_until = formats.date_format(local, "DATETIME_FORMAT")
    with override("en"):
        english = error.message
        english_until = formats.date_format(local, "DATETIME_FORMAT")
    assert f"{local:%H:%M}" in spanish_until and spanish_until in spanish
    assert english_until in english and english_until != spanish_until
    assert "No puedes entrar en la cola ni sentarte en una mesa con apuesta hasta el" in spanish
    assert "(dentro de 20 minutos)" in spanish
    assert "abandonaste 1 partida puntuable o con apuesta en los últimos 30 días" in spanish
    assert english.startswith("You cannot join the queue or sit at a stake table until")
    assert "(20 minutes from now)" in english
    assert "you abandoned 1 rated or stake match in the last 30 days" in english
    assert not MatchConduct.objects.filter(user=quitter, match__table__status="open").exists()
    # Nothing was written: the player is not in the queue.
    assert not selectors.queue_status(user=quitter).queued
    # Once the wait is over the queue takes them.
    services.queue_join(user=quitter, now=row.wait_until + timedelta(seconds=1))
    assert selectors.queue_status(user=quitter).queued


def test_the_wait_also_closes_the_stake_tables(
    players, django_capture_on_commit_callbacks, settings
):
    settings.QUIT_WAIT_MINUTES = (5,)
    quitter, *others = players(4)
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks)
    opener = players(1, prefix="o")[0]
    table = services.stake_table_open(user=opener, stake=100, now=row.at + 4 * MINUTE)
    with pytest.raises(err.QueueWait):
        services.stake_table_sit(user=quitter, table_id=table.pk, now=row.at + 4 * MINUTE)
    with pytest.raises(err.QueueWait):
        services.stake_table_open(user=quitter, stake=100, now=row.at + 4 * MINUTE)
    services.stake_table_sit(user=quitter, table_id=table.pk, now=row.at + 5.5 * MINUTE)


def test_a_first_disconnect_is_forgiven_and_a_second_is_not(
    players, django_capture_on_commit_callbacks, settings
):
    dropper, *others = players(4)
    table = online_table([dropper, *others], timezone.now(), django_capture_on_commit_callbacks)
    away_too_long(table, dropper, settings)
    first = MatchConduct.objects.get(user=dropper)
    assert (first.conduct, first.forgiven, first.step, first.wait_until) == (
        Conduct.ABSENT,
        True,
        0,
        None,
    )
    status = selectors.quit_status(user=dropper)
    assert status.notice.forgiven and status.step == 0 and not status.waiting
    assert status.notice.url is None  # the bots are still finishing it: no page yet
    finish(table, winner=0)
    # The next disconnect within the window counts: the first rung (a warning).
    table = online_table([dropper, *others], timezone.now(), django_capture_on_commit_callbacks)
    away_too_long(table, dropper, settings)
    second = MatchConduct.objects.get(user=dropper, match__table=table)
    assert (second.forgiven, second.step) == (False, 1)


def test_leaving_is_never_forgiven_as_a_disconnect(players, django_capture_on_commit_callbacks):
    quitter, *others = players(4)
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks)
    assert (row.conduct, row.forgiven, row.step) == (Conduct.LEFT, False, 1)


def test_a_player_back_within_the_grace_has_not_abandoned(
    players, django_capture_on_commit_callbacks
):
    returning, *others = players(4)
    table = online_table([returning, *others], timezone.now(), django_capture_on_commit_callbacks)
    games.seat_connect(user=returning, table_id=table.pk)
    games.seat_disconnect(user=returning, table_id=table.pk)  # a bot plays meanwhile
    games.seat_connect(user=returning, table_id=table.pk)  # back before the limit
    match = finish(table, winner=0)
    # No abandonment, and the turns the bot played meanwhile were not theirs.
    assert not MatchConduct.objects.filter(user=returning).exists()
    assert not MatchSeat.objects.get(match=match, user=returning).abandoned
    assert MatchSeat.objects.get(match=match, user=returning).timeouts == 0
    assert selectors.quit_status(user=returning) is None


def test_clean_matches_take_a_step_off_every_n(players, django_capture_on_commit_callbacks):
    quitter, *others = players(4)
    now = timezone.now()
    for _ in range(3):  # steps 1, 2, 3 (a warning, 5 min, 30 min)
        row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
        now = (row.wait_until or row.at) + timedelta(seconds=1)
        wait_over(quitter)
    assert QuitStanding.objects.get(user=quitter).step == 3
    for played in range(1, 7):
        table = online_table([quitter, *others], now, django_capture_on_commit_callbacks)
        finish(table, winner=0)
        standing = QuitStanding.objects.get(user=quitter)
        assert (standing.step, standing.clean_matches) == (3 - played // 3, played % 3)
    # Down to step 1: the next abandonment is step 2 again (5 minutes), not step 4.
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
    assert row.step == 2 and row.wait_until == row.at + 5 * MINUTE


def test_a_match_with_a_timed_out_turn_takes_no_step_off(
    players, django_capture_on_commit_callbacks
):
    quitter, *others = players(4)
    leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks)
    table = online_table([quitter, *others], timezone.now(), django_capture_on_commit_callbacks)
    match = Match.objects.get(table=table)
    MatchSeat.objects.filter(match=match, user=quitter).update(timeouts=1)
    finish(table, winner=0)
    assert MatchConduct.objects.get(user=quitter, match=match).conduct == Conduct.LATE
    assert QuitStanding.objects.get(user=quitter).clean_matches == 0


def test_an_abandonment_after_the_window_starts_the_ladder_again(
    players, django_capture_on_commit_callbacks, settings
):
    quitter, *others = players(4)
    now = timezone.now()
    for _ in range(2):
        row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
        now = (row.wait_until or row.at) + timedelta(seconds=1)
        wait_over(quitter)
    assert row.step == 2
    QuitStanding.objects.filter(user=quitter).update(
        last_counted_at=timezone.now() - timedelta(days=31)
    )
    assert selectors.quit_status(user=quitter).step == 0  # shown as free of steps already
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
    assert row.step == 1 and row.wait_until is None


def test_practice_and_friends_abandonments_never_count(player):
    practice = games.table_create_practice(user=player, rules="online", bot_level="easy")
    games.seat_leave(user=player, table_id=practice.pk)
    assert not MatchConduct.objects.exists() and not QuitStanding.objects.exists()


def test_a_settlement_delivered_twice_counts_once(players, django_capture_on_commit_callbacks):
    quitter, *others = players(4)
    now = timezone.now()
    for _ in range(2):
        row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks, now)
        now = (row.wait_until or row.at) + timedelta(seconds=1)
    table = online_table([quitter, *others], now, django_capture_on_commit_callbacks)
    match = finish(table, winner=0)
    seats = list(MatchSeat.objects.filter(match=match))
    before = QuitStanding.objects.get(user=quitter).clean_matches
    with transaction.atomic():
        quitting.finish_record(match=match, match_seats=seats, at=timezone.now())
        quitting.abandonment_record(match=match, user_id=quitter.pk, left=True, at=timezone.now())
    assert QuitStanding.objects.get(user=quitter).clean_matches == before == 1
    # Only the player on the ladder has a row for it: the others' matches change nothing.
    assert list(MatchConduct.objects.filter(match=match).values_list("user", flat=True)) == [
        quitter.pk
    ]


def test_an_abandonment_found_only_at_the_end_counts_as_one_by_absence(
    players, django_capture_on_commit_callbacks, settings
):
    farmer, *others = players(4)
    table = online_table([farmer, *others], timezone.now(), django_capture_on_commit_callbacks)
    Seat.objects.filter(table=table, user=farmer).update(
        absent_since=timezone.now() - timedelta(seconds=settings.ABSENT_AT_END_SECONDS + 1)
    )
    match = finish(table, winner=0)
    row = MatchConduct.objects.get(user=farmer, match=match)
    assert (row.conduct, row.forgiven) == (Conduct.ABSENT, True)  # a first disconnect


def test_the_notice_is_shown_until_dismissed(players, django_capture_on_commit_callbacks):
    quitter, *others = players(4)
    row = leave_a_rated_match(quitter, others, django_capture_on_commit_callbacks)
    status = selectors.quit_status(user=quitter)
    assert status.notice.match_id == row.match_id and not status.notice.forgiven
    assert status.notice.url == f"/history/matches/{row.match_id}/"  # finished by then
    assert status.step == 1 and status.next_wait_minutes == 5 and status.clean_to_step_off == 3
    assert services.quit_notice_dismiss(user=quitter)
    status = selectors.quit_status(user=quitter)
    assert status.notice is None and status.step == 1
    assert not services.quit_notice_dismiss(user=quitter)
