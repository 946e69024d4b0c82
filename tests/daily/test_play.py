"""Playing the day's deals on the server (daily.services): one try, in order, at the
practice table marked as the daily deal; leaving keeps the deal for later."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from daily import errors, services
from daily.deals import deal_dealer, deal_seed
from daily.models import DailyEntry, DailyPlay, PlayStatus
from games import errors as game_errors
from games import services as game_services
from games.models import BotLevel, Match, MatchStatus, Mode, Seat, Table, TableStatus
from games.state import engine_match
from tests.daily.conftest import play_day, play_out

pytestmark = pytest.mark.django_db


def test_the_first_deal_is_dealt_from_the_secret_at_a_daily_table(player, settings):
    settings.DAILY_BOT_LEVEL = "hard"
    table = services.daily_play(user=player)
    today = services.day_of(timezone.now())
    assert table.mode == Mode.DAILY and table.rules == "online" and table.bot_level == BotLevel.HARD
    seats = list(table.seats.order_by("position"))
    assert seats[0].user == player and seats[0].live
    assert [s.kind for s in seats[1:]] == ["bot", "bot", "bot"]
    match = Match.objects.get(table=table)
    assert match.seed == deal_seed(secret=settings.DAILY_SECRET, day=today, number=1)
    engine = engine_match(match)
    assert engine.hand.dealer == deal_dealer(1) == 3 and engine.hand.mano == 0
    assert engine.last_hand == 1
    play = DailyPlay.objects.get()
    assert (play.deal.number, play.status, play.match) == (1, PlayStatus.PLAYING, match)


def test_a_reload_resumes_the_deal_in_progress(player):
    table = services.daily_play(user=player)
    made = play_out(player, table.pk, stop_after=2)
    assert made == 2
    version = Match.objects.get(table=table).version
    assert services.daily_play(user=player).pk == table.pk
    assert services.daily_play(user=player, number=1).pk == table.pk
    assert Match.objects.get(table=table).version == version
    assert DailyPlay.objects.count() == 1 and Table.objects.count() == 1


def test_a_second_start_of_a_played_deal_is_refused_with_a_clear_message(player):
    table = services.daily_play(user=player)
    play_out(player, table.pk)
    assert DailyPlay.objects.get().status == PlayStatus.FINISHED
    with pytest.raises(errors.DealAlreadyPlayed) as refused:
        services.daily_play(user=player, number=1)
    assert "cada reparto se juega una vez" in refused.value.message
    # Nothing was written by the refusal; the next deal is still there to play.
    assert DailyPlay.objects.count() == 1
    assert services.daily_play(user=player).pk != table.pk
    assert DailyPlay.objects.get(status=PlayStatus.PLAYING).deal.number == 2


def test_the_deals_are_played_in_order(player):
    with pytest.raises(errors.DealNotYet):
        services.daily_play(user=player, number=3)
    assert not DailyEntry.objects.exists() and not Table.objects.exists()


def test_the_six_deals_once_then_the_set_is_finished(player):
    tables = play_day(player, timezone.now())
    assert len({t.pk for t in tables}) == 6
    plays = list(DailyPlay.objects.order_by("deal__number"))
    assert [p.status for p in plays] == [PlayStatus.FINISHED] * 6
    for play in plays:
        match = play.match
        assert play.result == match.score_a - match.score_b != 0
    entry = DailyEntry.objects.get()
    assert entry.deals_finished == 6 and entry.finished_at is not None
    with pytest.raises(errors.SetFinished):
        services.daily_play(user=player)
    with pytest.raises(errors.DealAlreadyPlayed):
        services.daily_play(user=player, number=6)


def test_a_player_at_another_live_table_cannot_start_and_nothing_is_written(player):
    game_services.table_create_practice(user=player, rules="online", bot_level="easy")
    with pytest.raises(game_errors.AlreadyAtTable):
        services.daily_play(user=player)
    assert not DailyEntry.objects.exists() and not DailyPlay.objects.exists()
    assert Table.objects.filter(mode=Mode.DAILY).count() == 0


def test_the_players_turn_has_no_time_limit_and_nothing_plays_for_them(player, settings):
    table = services.daily_play(user=player)
    match = Match.objects.get(table=table)
    while match.to_play != 0:
        game_services.match_bot_move(table_id=table.pk)
        match.refresh_from_db()
    assert match.turn_deadline is None
    # Gone for good: the socket closed and the heartbeat was never heard again.
    Seat.objects.filter(table=table, position=0).update(
        connections=1, seen_at=timezone.now() - timedelta(hours=2)
    )
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(hours=2))
    game_services.tables_sweep()
    match.refresh_from_db()
    seat = Seat.objects.get(table=table, position=0)
    assert match.to_play == 0 and match.status == MatchStatus.PLAYING
    assert seat.absent_since is None and not seat.abandoned and seat.live


def test_leaving_midway_keeps_what_was_played_and_the_rest_is_finished_later(player):
    table = services.daily_play(user=player)
    play_out(player, table.pk, stop_after=1)
    before = Match.objects.get(table=table)
    game_services.seat_leave(user=player, table_id=table.pk)
    seat = Seat.objects.get(table=table, position=0)
    assert not seat.live and seat.user == player and not seat.abandoned
    after = Match.objects.get(table=table)
    assert after.status == MatchStatus.PLAYING and after.version >= before.version
    # Bots finish their own turns; nothing is played for the player.
    while game_services.match_bot_move(table_id=table.pk):
        pass
    after.refresh_from_db()
    assert after.to_play == 0 or after.status == MatchStatus.FINISHED
    assert not after.actions.filter(seat=0, source__in=["bot", "timeout"]).exists()
    # Free to play elsewhere meanwhile.
    practice = game_services.table_create_practice(user=player, rules="online", bot_level="easy")
    with pytest.raises(game_errors.AlreadyAtTable):
        services.daily_play(user=player)
    game_services.seat_leave(user=player, table_id=practice.pk)  # abandons the practice
    # Back to the daily deal: the same table, the seat taken back.
    assert services.daily_play(user=player).pk == table.pk
    assert Seat.objects.get(table=table, position=0).live
    play_out(player, table.pk)
    assert DailyPlay.objects.get().status == PlayStatus.FINISHED


def test_the_table_tells_it_is_the_daily_deal(player, settings):
    from games.frames.live import table_info

    table = services.daily_play(user=player)
    match = Match.objects.get(table=table)
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    info = table_info(table, seats, match)
    today = services.day_of(timezone.now()).isoformat()
    assert info["mode"] == "daily"
    assert info["daily"]["date"] == today and info["daily"]["deal"] == 1
    assert info["daily"]["deals"] == 6 and info["daily"]["turn"] == "mano"
    assert info["daily"]["parked"] is False
    assert info["daily"]["play"] == "/daily/play/"
    assert info["daily"]["result"] is None and info["daily"]["next"] is None  # in play
    game_services.seat_leave(user=player, table_id=table.pk)
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    assert table_info(Table.objects.get(pk=table.pk), seats, match)["daily"]["parked"] is True


def test_play_again_at_a_finished_daily_table_is_the_next_deal(player):
    from games.frames.live import table_info

    table = services.daily_play(user=player)
    play_out(player, table.pk)
    # The finished deal's frame says its result (as deal_result counts it) and the next.
    match = Match.objects.get(table=table)
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    info = table_info(Table.objects.get(pk=table.pk), seats, match)["daily"]
    assert info["result"] == DailyPlay.objects.get(match=match).result != 0
    assert info["next"] == 2
    following = game_services.table_rematch(user=player, table_id=table.pk)
    assert following.mode == Mode.DAILY and following.pk != table.pk
    assert DailyPlay.objects.get(match__table=following).deal.number == 2


def test_a_deal_finished_after_its_day_ended_counts_as_not_finished(player):
    yesterday = timezone.now() - timedelta(days=1)
    table = services.daily_play(user=player, now=yesterday)
    play_out(player, table.pk)
    play = DailyPlay.objects.get()
    assert play.status == PlayStatus.EXPIRED and play.result is None
    assert DailyEntry.objects.get().finished_at is None


def test_staff_stopping_a_deal_counts_it_as_not_finished_and_the_next_one_follows(
    player, staff_user
):
    table = services.daily_play(user=player)
    match = Match.objects.get(table=table)
    game_services.match_abort(match_id=match.pk, staff_user=staff_user, reason="stuck table")
    assert DailyPlay.objects.get().status == PlayStatus.EXPIRED
    assert Table.objects.get(pk=table.pk).status == TableStatus.CANCELLED
    nxt = services.daily_play(user=player)
    assert DailyPlay.objects.get(match__table=nxt).deal.number == 2


def test_daily_matches_stay_out_of_the_public_history(player, client):
    from history.models import PlayerMatch

    table = services.daily_play(user=player)
    play_out(player, table.pk)
    match = Match.objects.get(table=table)
    assert match.status == MatchStatus.FINISHED
    assert not PlayerMatch.objects.exists()
    client.force_login(player)
    assert client.get(f"/history/matches/{match.pk}/").status_code == 404
