"""Services against PostgreSQL: tables, invitations, seats, play, timeouts, absence."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games import errors, services
from games.models import (
    ActionSource,
    Invitation,
    InvitationStatus,
    Match,
    MatchAction,
    MatchSeat,
    MatchStatus,
    Seat,
    SeatKind,
    Table,
    TableStatus,
)
from games.state import cache_clear, engine_match, rebuild
from tests.games.conftest import drive_bots, live_match, play_out

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_a_practice_table_seats_the_player_with_three_bots_and_starts(player):
    table = services.table_create_practice(user=player, rules="classic", bot_level="easy")
    seats = list(table.seats.order_by("position"))
    assert [s.kind for s in seats] == ["human", "bot", "bot", "bot"]
    assert seats[0].user == player and seats[0].live
    match = live_match(table)
    assert match.rules == "classic" and match.version == 0
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_a_practice_match_played_to_the_end_is_rebuilt_exactly_from_the_log(player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = play_out(table, {0: player})
    assert match.status == MatchStatus.FINISHED and match.winner in (0, 1)
    assert max(match.score_a, match.score_b) >= 21
    cache_clear()
    assert rebuild(match) == engine_match(match)
    assert MatchAction.objects.filter(match=match).count() == match.version
    places = sorted(MatchSeat.objects.filter(match=match).values_list("place", flat=True))
    assert places == [1, 2, 3, 4]
    assert not Seat.objects.filter(table=table, live=True).exists()


def test_unknown_rule_sets_and_bot_levels_are_refused_and_nothing_is_written(player):
    with pytest.raises(errors.InvalidChoice):
        services.table_create_practice(user=player, rules="poker", bot_level="easy")
    with pytest.raises(errors.InvalidChoice):
        services.table_create_practice(user=player, rules="online", bot_level="god")
    assert not Table.objects.exists()


def test_a_player_can_sit_at_only_one_live_table(player):
    services.table_create_practice(user=player, rules="online", bot_level="easy")
    with pytest.raises(errors.AlreadyAtTable):
        services.table_create_friends(user=player)
    assert Table.objects.count() == 1


def test_the_database_itself_refuses_a_second_live_seat(player):
    table = services.table_create_friends(user=player)
    seat = Seat.objects.get(table=table, position=1)
    seat.kind, seat.user, seat.live = SeatKind.HUMAN, player, True
    with pytest.raises(IntegrityError), transaction.atomic():
        seat.save()


def test_inviting_an_unknown_or_banned_username_is_a_clear_error(player, banned_user):
    table = services.table_create_friends(user=player)
    for name in ("nobody", banned_user.username, "", player.username):
        with pytest.raises((errors.UnknownUser, errors.InvalidInvitation)):
            services.invitation_create(user=player, table_id=table.pk, username=name)
    assert not Invitation.objects.exists()


def test_only_the_creator_invites(player, opponent, stranger):
    table = services.table_create_friends(user=player)
    with pytest.raises(errors.NotOwner):
        services.invitation_create(user=stranger, table_id=table.pk, username=opponent.username)


def test_an_invitee_accepts_into_an_empty_seat_or_declines(player, partner, opponent):
    table = services.table_create_friends(user=player)
    first = services.invitation_create(user=player, table_id=table.pk, username="PABLO")
    second = services.invitation_create(user=player, table_id=table.pk, username="olga")
    services.invitation_accept(user=partner, invitation_id=first.pk)
    services.invitation_decline(user=opponent, invitation_id=second.pk)
    assert Seat.objects.get(table=table, position=1).user == partner
    assert Invitation.objects.get(pk=second.pk).status == InvitationStatus.DECLINED
    with pytest.raises(errors.InvitationNotFound):
        services.invitation_accept(user=opponent, invitation_id=second.pk)
    with pytest.raises(errors.InvitationNotFound):
        services.invitation_accept(user=player, invitation_id=first.pk)


def test_the_creator_arranges_partners_and_gives_seats_to_bots(room, player, partner):
    services.seat_set_bot(user=player, table_id=room.pk, position=3, bot=False)
    services.seat_swap(user=player, table_id=room.pk, first=1, second=2)
    assert Seat.objects.get(table=room, position=1).user == partner
    with pytest.raises(errors.TableNotReady):
        services.match_start(user=player, table_id=room.pk)
    services.seat_set_bot(user=player, table_id=room.pk, position=3, bot=True)
    with pytest.raises(errors.InvalidSeat):
        services.seat_swap(user=player, table_id=room.pk, first=1, second=9)
    services.match_start(user=player, table_id=room.pk)
    assert live_match(room).match_seats.get(position=1).user == partner


def test_a_stale_version_is_rejected_and_nothing_changes(started_room, player, partner, opponent):
    drive_bots(started_room)
    match = live_match(started_room)
    users = {0: player, 1: opponent, 2: partner}
    engine = engine_match(match)
    user = users[engine.to_play]
    with pytest.raises(errors.StaleVersion):
        services.match_play(
            user=user,
            table_id=started_room.pk,
            action=engine.legal_actions()[0],
            version=match.version - 1 if match.version else 5,
        )
    assert Match.objects.get(pk=match.pk).version == match.version


def test_out_of_turn_and_illegal_moves_are_refused(started_room, player, partner, opponent):
    drive_bots(started_room)
    match = live_match(started_room)
    engine = engine_match(match)
    users = {0: player, 1: opponent, 2: partner}
    to_play = users[engine.to_play]
    other = next(u for s, u in users.items() if s != engine.to_play)
    with pytest.raises(errors.NotYourTurn):
        services.match_play(
            user=other, table_id=started_room.pk, action="pass", version=match.version
        )
    for action in ("99x", "", "1o" * 40):
        with pytest.raises(errors.IllegalAction):
            services.match_play(
                user=to_play, table_id=started_room.pk, action=action, version=match.version
            )
    assert Match.objects.get(pk=match.pk).version == match.version


def test_two_simultaneous_plays_for_the_same_turn_apply_exactly_once(
    started_room, player, partner, opponent
):
    drive_bots(started_room)
    match = live_match(started_room)
    engine = engine_match(match)
    user = {0: player, 1: opponent, 2: partner}[engine.to_play]
    legal = engine.legal_actions()
    barrier = threading.Barrier(2)
    outcomes = []

    def play(action):
        try:
            barrier.wait()
            services.match_play(
                user=user, table_id=started_room.pk, action=action, version=match.version
            )
            outcomes.append("ok")
        except errors.GameError as error:
            outcomes.append(error.code)
        finally:
            connection.close()

    threads = [threading.Thread(target=play, args=(legal[i % len(legal)],)) for i in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["ok", "stale_version"]
    assert MatchAction.objects.filter(match=match).count() == match.version + 1


def test_an_expired_turn_is_played_by_a_bot(started_room):
    drive_bots(started_room)
    match = live_match(started_room)
    assert not services.match_timeout(match_id=match.pk, version=match.version)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.tables_sweep()["timeouts"] == 1
    last = MatchAction.objects.filter(match=match).order_by("-number").first()
    assert last.source == ActionSource.TIMEOUT and last.number == match.version + 1


def test_a_disconnected_player_is_replaced_by_a_bot_until_they_return(started_room, player):
    services.seat_connect(user=player, table_id=started_room.pk)
    services.seat_disconnect(user=player, table_id=started_room.pk)
    seat = Seat.objects.get(table=started_room, user=player)
    assert seat.bot_controlled and seat.absent_since is not None
    services.seat_connect(user=player, table_id=started_room.pk)
    seat.refresh_from_db()
    assert not seat.bot_controlled and seat.connections == 1


def _silence(seat_filter, settings) -> None:
    """As if the process serving these sockets died: nobody vouches for them."""
    Seat.objects.filter(**seat_filter).update(
        seen_at=timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS + 1)
    )


def test_a_seat_whose_process_died_counts_as_gone_and_a_bot_plays_it(
    started_room, player, settings
):
    services.seat_connect(user=player, table_id=started_room.pk)
    services.seat_connect(user=player, table_id=started_room.pk)  # two tabs, one process
    _silence({"user": player}, settings)
    seq = Table.objects.get(pk=started_room.pk).seq
    assert services.tables_sweep()["presence_lost"] == 1
    seat = Seat.objects.get(table=started_room, user=player)
    assert seat.connections == 0 and seat.bot_controlled
    # Absence runs from when it was noticed, not from the last beat.
    assert timezone.now() - seat.absent_since < timedelta(seconds=5)
    assert Table.objects.get(pk=started_room.pk).seq == seq + 1  # everyone is told
    assert services.tables_sweep()["presence_lost"] == 0  # once only
    # The player's browser reconnects to a live process and takes the seat back.
    services.seat_connect(user=player, table_id=started_room.pk)
    seat.refresh_from_db()
    assert seat.connections == 1 and not seat.bot_controlled


def test_a_seat_vouched_for_by_its_process_stays_connected(started_room, player, settings):
    services.seat_connect(user=player, table_id=started_room.pk)
    _silence({"user": player}, settings)
    seat = Seat.objects.get(table=started_room, user=player)
    assert services.seats_heard(seat_ids=[seat.pk]) == 1
    assert services.tables_sweep()["presence_lost"] == 0
    seat.refresh_from_db()
    assert seat.connections == 1 and not seat.bot_controlled


def test_the_heartbeat_ignores_seats_without_sockets_and_bad_ids(started_room, player):
    seat = Seat.objects.get(table=started_room, user=player)
    before = seat.seen_at
    assert services.seats_heard(seat_ids=[]) == 0
    assert services.seats_heard(seat_ids=[seat.pk, 987654]) == 0  # no socket counted
    seat.refresh_from_db()
    assert seat.seen_at == before


def test_a_silent_seat_without_sockets_or_at_a_waiting_room_is_left_alone(
    room, player, partner, settings
):
    services.seat_connect(user=partner, table_id=room.pk)  # the room has not started
    _silence({"table": room}, settings)
    assert services.tables_sweep()["presence_lost"] == 1
    seat = Seat.objects.get(table=room, user=partner)
    assert seat.connections == 0 and seat.absent_since is None  # not playing: no absence
    mine = Seat.objects.get(table=room, user=player)
    assert mine.connections == 0 and mine.absent_since is None  # never connected


def test_the_heartbeat_skips_a_seat_locked_by_a_move(started_room, player):
    services.seat_connect(user=player, table_id=started_room.pk)
    seat = Seat.objects.get(table=started_room, user=player)
    locked, release = threading.Event(), threading.Event()

    def hold_the_lock():
        with transaction.atomic():
            Seat.objects.select_for_update().get(pk=seat.pk)
            locked.set()
            release.wait(10)
        connection.close()

    holder = threading.Thread(target=hold_the_lock)
    holder.start()
    try:
        assert locked.wait(10)
        assert services.seats_heard(seat_ids=[seat.pk]) == 0  # not waited for
    finally:
        release.set()
        holder.join()
    assert services.seats_heard(seat_ids=[seat.pk]) == 1


def test_three_minutes_absent_is_abandonment_and_a_loss(started_room, player, settings):
    services.seat_connect(user=player, table_id=started_room.pk)
    services.seat_disconnect(user=player, table_id=started_room.pk)
    Seat.objects.filter(user=player).update(
        absent_since=timezone.now() - timedelta(seconds=settings.ABANDON_AFTER_SECONDS + 1)
    )
    assert services.tables_sweep()["abandoned"] == 1
    seat = Seat.objects.get(table=started_room, position=0)
    assert seat.abandoned and not seat.live
    # free to sit elsewhere at once
    services.table_create_practice(user=player, rules="online", bot_level="easy")


def test_leaving_abandons_bots_finish_and_only_present_winners_are_paid_at_half_rate(
    started_room, player, partner, opponent
):
    from economy.models import Entry

    services.seat_leave(user=player, table_id=started_room.pk)
    match = play_out(started_room, {1: opponent, 2: partner})
    result = MatchSeat.objects.get(match=match, position=0)
    assert result.abandoned and result.won is False
    winners = set(
        MatchSeat.objects.filter(match=match, won=True, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )
    paid = set(
        Entry.objects.filter(
            transaction__match_id=match.pk, account__user__isnull=False
        ).values_list("account__user_id", flat=True)
    )
    assert paid == winners and player.pk not in paid


def test_unknown_ids_are_domain_errors(player):
    with pytest.raises(errors.TableNotFound):
        services.match_play(user=player, table_id=999999, action="pass", version=0)
    with pytest.raises(errors.InvitationNotFound):
        services.invitation_accept(user=player, invitation_id=999999)
    with pytest.raises(errors.TableNotFound):
        services.table_rematch(user=player, table_id=999999)


def test_play_again_after_practice_starts_a_new_match_with_the_same_choices(player):
    table = services.table_create_practice(user=player, rules="classic", bot_level="medium")
    with pytest.raises(errors.TableNotOpen):
        services.table_rematch(user=player, table_id=table.pk)
    # As when a match ends (a whole match is played in the test above).
    Table.objects.filter(pk=table.pk).update(status=TableStatus.FINISHED)
    Seat.objects.filter(table=table).update(live=False)
    again = services.table_rematch(user=player, table_id=table.pk)
    assert again.pk != table.pk and again.rules == "classic" and again.bot_level == "medium"
    assert live_match(again).status == MatchStatus.PLAYING


def test_play_again_in_a_friends_room_invites_the_same_people(room, player, partner, opponent):
    services.match_start(user=player, table_id=room.pk, seed=3)
    Table.objects.filter(pk=room.pk).update(status=TableStatus.FINISHED)
    Seat.objects.filter(table=room).update(live=False)
    with pytest.raises(errors.NotOwner):
        services.table_rematch(user=partner, table_id=room.pk)
    again = services.table_rematch(user=player, table_id=room.pk)
    invited = set(
        Invitation.objects.filter(table=again, status=InvitationStatus.PENDING).values_list(
            "to_user__username", flat=True
        )
    )
    assert invited == {"pablo", "olga"}
    assert Seat.objects.get(table=again, position=3).kind == SeatKind.BOT


def test_a_banned_player_is_removed_from_the_table_and_a_bot_plays(started_room, opponent):
    from accounts.signals import user_banned

    user_banned.send(sender=type(opponent), user=opponent, ban=None)
    seat = Seat.objects.get(table=started_room, position=1)
    assert seat.abandoned and not seat.live and seat.bot_controlled


def test_places_rank_pairs_then_personal_points_then_tricks_then_seat():
    assert services.places_for(0, (10, 50, 30, 50), (1, 2, 1, 3)) == [2, 4, 1, 3]
    assert services.places_for(1, (0, 40, 0, 40), (0, 2, 0, 2)) == [3, 1, 4, 2]


def _to_play(table, users):
    drive_bots(table)
    match = live_match(table)
    engine = engine_match(match)
    return match, engine, users[engine.to_play]


def test_a_move_costs_a_fixed_handful_of_queries_and_never_rewrites_the_record(
    started_room, player, partner, opponent
):
    """The hot path (docs/benchmarks.md, "What a move costs"): one prepared statement
    locks the table, the match and the seats (in that order), one more appends the
    action and stores the match's move columns and the table's seq. The cached
    record is not rewritten per move."""
    from django.test.utils import CaptureQueriesContext

    users = {0: player, 1: opponent, 2: partner}
    for _ in range(3):
        match, engine, user = _to_play(started_room, users)
        record_before = Match.objects.values_list("record", flat=True).get(pk=match.pk)
        with CaptureQueriesContext(connection) as queries:
            services.match_play(
                user=user,
                table_id=started_room.pk,
                action=engine.legal_actions()[0],
                version=match.version,
            )
        statements = [q["sql"] for q in queries.captured_queries]
        work = [s for s in statements if s.split()[0] not in ("BEGIN", "COMMIT", "SAVEPOINT")]
        work = [s for s in work if not s.startswith("RELEASE")]
        assert len(work) == 2, statements
        reads, writes = work
        assert reads.endswith("ORDER BY s.id FOR UPDATE OF t, m, s")
        assert reads.index("games_table") < reads.index("games_match") < reads.index("games_seat")
        assert writes.startswith("WITH logged AS (INSERT INTO") and '"record"' not in writes
        assert (
            writes.index('INTO "games_matchaction"')
            < writes.index('UPDATE "games_match"')
            < writes.index('UPDATE "games_table"')
        )
        stored = Match.objects.get(pk=match.pk)
        assert stored.version == match.version + 1
        assert stored.record == record_before
        assert MatchAction.objects.filter(match=match, number=stored.version).exists()
        assert Table.objects.get(pk=started_room.pk).seq > 0


def test_a_bot_move_reads_its_rows_in_one_statement_before_it_locks_them(
    started_room, player, partner, opponent
):
    """A worker plays a bot's move after its players' moves: one unlocked statement
    reads the table, its match and its seats (the bot thinks outside any lock), one
    catches its cached state up from the log, then the move's two statements."""
    from django.test.utils import CaptureQueriesContext

    from games import state

    users = {0: player, 1: opponent, 2: partner}
    before = None
    for _ in range(40):
        match = live_match(started_room)
        engine = engine_match(match)
        if engine.to_play == 3 and before is not None:
            break
        before = (match.version, engine)
        services.match_play(
            user=users[engine.to_play],
            table_id=started_room.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
    else:
        raise AssertionError("the bot's turn never came after a person's move")
    state.cache_clear()
    state.cache_put(match.pk, *before)  # this process last saw the match a move earlier
    with CaptureQueriesContext(connection) as queries:
        assert services.match_bot_move(table_id=started_room.pk, version=match.version)
    statements = [q["sql"] for q in queries.captured_queries]
    work = [s for s in statements if s.split()[0] not in ("BEGIN", "COMMIT", "SAVEPOINT")]
    work = [s for s in work if not s.startswith("RELEASE")]
    assert len(work) == 4, statements
    read, catch_up, lock, write = work
    assert read.endswith("ORDER BY s.id") and "FOR UPDATE" not in read
    assert "games_matchaction" in catch_up and "number >" in catch_up
    assert lock.endswith("FOR UPDATE OF t, m, s")
    assert write.startswith("WITH logged AS (INSERT INTO")
    assert live_match(started_room).version == match.version + 1


def test_a_socket_opening_and_closing_lock_the_table_match_and_seats_in_one_statement(
    started_room, player
):
    """After a web process's death every socket of its tables opens on the other at
    once: each opening (and closing) takes its locks with the move's one statement."""
    from django.test.utils import CaptureQueriesContext

    for step in (
        lambda: services.table_join(user=player, table_id=started_room.pk, process="web-a"),
        lambda: services.seat_disconnect(user=player, table_id=started_room.pk, process="web-a"),
    ):
        with CaptureQueriesContext(connection) as queries:
            step()
        locks = [q["sql"] for q in queries.captured_queries if "FOR UPDATE" in q["sql"]]
        assert len(locks) == 1, locks
        assert locks[0].endswith("ORDER BY s.id FOR UPDATE OF t, m, s")
    seat = Seat.objects.get(table=started_room, user=player)
    assert seat.connections == 0 and seat.sockets == {}


def test_no_bot_move_on_a_table_without_a_match_or_on_a_persons_turn(
    started_room, player, partner, opponent, make_user
):
    users = {0: player, 1: opponent, 2: partner}
    match, _, _ = _to_play(started_room, users)  # the bot has played: a person's turn
    assert not services.match_bot_move(table_id=started_room.pk)
    assert live_match(started_room).version == match.version
    unstarted = services.table_create_friends(user=make_user("nadie"))
    assert not services.match_bot_move(table_id=unstarted.pk)
    assert not services.match_bot_move(table_id=10**9)


def test_a_move_writes_no_indexed_column_so_postgresql_updates_rows_in_place():
    """A HOT update needs every column it changes to be unindexed (and room in the
    page, hence the fillfactor): then a move adds no index entries."""
    from games import rows

    written = {
        "games_match": {Match._meta.get_field(name).column for name in rows._MATCH_MOVE_FIELDS},
        "games_table": {"seq"},
        "games_seat": {"connections", "absent_since", "seen_at"},
    }
    with connection.cursor() as cursor:
        for table, columns in written.items():
            constraints = connection.introspection.get_constraints(cursor, table)
            indexed = {c for info in constraints.values() if info["index"] for c in info["columns"]}
            assert not indexed & columns, (table, indexed & columns)
            if connection.vendor == "postgresql":
                cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [table])
                assert "fillfactor=80" in cursor.fetchone()[0]


def test_the_record_is_written_whole_at_the_end_of_the_match(player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    match = play_out(table, {0: player})
    cache_clear()
    stored = Match.objects.get(pk=match.pk)
    assert sum(len(hand["actions"]) for hand in stored.record["hands"]) == stored.version
    assert engine_match(stored) == rebuild(stored)


def test_a_process_whose_cached_state_is_behind_catches_up_from_the_log(
    started_room, player, partner, opponent
):
    """Another process applied moves: this one's cached state is older than the row."""
    from games import state

    users = {0: player, 1: opponent, 2: partner}
    match, engine, user = _to_play(started_room, users)
    old_version, old_engine = match.version, engine
    for _ in range(3):
        match, engine, user = _to_play(started_room, users)
        services.match_play(
            user=user,
            table_id=started_room.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
    stored = live_match(started_room)
    state.cache_put(stored.pk, old_version, old_engine)
    assert stored.version > old_version
    assert engine_match(stored) == rebuild(stored)
    # A rebuild from the log never reaches past the version of the row it was given.
    stale = Match.objects.get(pk=stored.pk)
    stale.version, stale.hand_no = old_version, old_engine.hand_no
    cache_clear()
    assert rebuild(stale) == old_engine


# --- absence: no-shows and players who let their turns run out -----------------------


def _started_ago(table, seconds: float) -> None:
    Match.objects.filter(table=table).update(started_at=timezone.now() - timedelta(seconds=seconds))


def test_a_seat_not_connected_within_the_grace_counts_as_absent_and_everyone_is_told(
    started_room, player, partner, opponent, settings
):
    settings.ABSENCE_CONNECT_GRACE_SECONDS = 15
    for user in (partner, opponent):
        services.seat_connect(user=user, table_id=started_room.pk)
    _started_ago(started_room, 10)
    assert services.tables_sweep()["no_shows"] == 0  # still within the grace
    _started_ago(started_room, 16)
    seq = Table.objects.get(pk=started_room.pk).seq
    assert services.tables_sweep()["no_shows"] == 1
    absent = Seat.objects.get(table=started_room, user=player)
    assert absent.bot_controlled and absent.absent_since is not None
    assert not Seat.objects.get(table=started_room, user=partner).bot_controlled
    assert Table.objects.get(pk=started_room.pk).seq == seq + 1
    assert services.tables_sweep()["no_shows"] == 0  # once only
    services.seat_connect(user=player, table_id=started_room.pk)  # connecting ends it
    absent.refresh_from_db()
    assert not absent.bot_controlled


def test_an_absent_seats_turn_is_played_without_waiting_out_the_timer(
    started_room, player, partner, opponent, settings
):
    for user in (partner, opponent):
        services.seat_connect(user=user, table_id=started_room.pk)
    _started_ago(started_room, settings.ABSENCE_CONNECT_GRACE_SECONDS + 1)
    services.tables_sweep()
    match = live_match(started_room)
    while engine_match(match).to_play != 0:  # until it is the absent player's turn
        drive_bots(started_room)
        match = live_match(started_room)
        seat = engine_match(match).to_play
        if seat in (1, 2):
            user = opponent if seat == 1 else partner
            legal = engine_match(match).legal_actions()
            services.match_play(
                user=user, table_id=started_room.pk, action=legal[0], version=match.version
            )
            match = live_match(started_room)
    bot_pace = settings.BOT_MOVE_PAUSE_SECONDS + settings.BOT_SAFETY_SECONDS
    assert match.turn_deadline <= timezone.now() + timedelta(seconds=bot_pace)
    drive_bots(started_room)  # the bot runner moves for the absent seat at once
    assert live_match(started_room).version > match.version


def _let_turns_run_out(table, users_by_seat, *, position: int, count: int) -> None:
    """Everyone else plays; `position` lets `count` of its turns time out."""
    timed_out = 0
    while timed_out < count:
        drive_bots(table)
        match = live_match(table)
        engine = engine_match(match)
        if engine.to_play == position:
            Match.objects.filter(pk=match.pk).update(
                turn_deadline=timezone.now() - timedelta(seconds=1)
            )
            assert services.match_timeout(match_id=match.pk, version=match.version)
            timed_out += 1
        else:
            services.match_play(
                user=users_by_seat[engine.to_play],
                table_id=table.pk,
                action=engine.legal_actions()[0],
                version=match.version,
            )


def test_three_turns_in_a_row_run_out_make_a_connected_player_absent(
    started_room, player, partner, opponent, settings
):
    settings.ABSENCE_AFTER_TIMEOUTS = 3
    users = {0: player, 1: opponent, 2: partner}
    for user in users.values():
        services.seat_connect(user=user, table_id=started_room.pk)
    _let_turns_run_out(started_room, users, position=0, count=2)
    assert not Seat.objects.get(table=started_room, user=player).bot_controlled
    _let_turns_run_out(started_room, users, position=0, count=1)
    seat = Seat.objects.get(table=started_room, user=player)
    assert seat.bot_controlled and seat.absent_since is not None


def test_acting_again_ends_the_absence_and_resets_the_count(
    started_room, player, partner, opponent, settings
):
    settings.ABSENCE_AFTER_TIMEOUTS = 3
    users = {0: player, 1: opponent, 2: partner}
    for user in users.values():
        services.seat_connect(user=user, table_id=started_room.pk)
    _let_turns_run_out(started_room, users, position=0, count=2)
    while True:  # the player acts on their next turn
        drive_bots(started_room)
        match = live_match(started_room)
        engine = engine_match(match)
        services.match_play(
            user=users[engine.to_play],
            table_id=started_room.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
        if engine.to_play == 0:
            break
    _let_turns_run_out(started_room, users, position=0, count=2)
    assert not Seat.objects.get(table=started_room, user=player).bot_controlled


# --- a table started from a position ---------------------------------------------

#: A hand dealt by seat 3 at 5–7: seat 0 has bid solo and everybody passed.
POSITION_DEAL = [
    ["1o", "3o", "12o", "11o", "1c"],
    ["10c", "12c", "1e", "3e", "12e"],
    ["3c", "11c", "11e", "1b", "3b"],
    ["10e", "12b", "11b", "10b", "10o"],
]


def _position(actions=("solo", "pass", "pass", "pass")):
    return services.StartPosition(dealer=3, scores=(5, 7), deal=POSITION_DEAL, actions=actions)


def test_a_table_from_a_position_starts_mid_hand_logs_the_hand_so_far_and_ends_with_it(player):
    table = services.table_create_position(
        user=player, mode="practice", rules="online", bot_level="easy", seat=0, position=_position()
    )
    match = live_match(table)
    assert (match.score_a, match.score_b) == (5, 7) and match.last_hand == 1
    assert match.version == 4 and match.to_play == 0
    logged = list(MatchAction.objects.filter(match=match).values_list("number", "seat", "action"))
    assert logged == [(1, 0, "solo"), (2, 1, "pass"), (3, 2, "pass"), (4, 3, "pass")]
    cache_clear()
    assert rebuild(match) == engine_match(match)
    finished = play_out(table, {0: player})
    assert finished.pk == match.pk and finished.status == MatchStatus.FINISHED
    assert finished.hand_no == 1


@pytest.mark.parametrize(
    ("seat", "actions", "error"),
    [
        (4, ("solo",), errors.InvalidSeat),
        (True, ("solo",), errors.InvalidSeat),
        (0, ("solo", "solo"), errors.IllegalAction),
        (0, ("7o",), errors.IllegalAction),
    ],
)
def test_a_bad_seat_or_position_is_refused_and_nothing_is_written(player, seat, actions, error):
    with pytest.raises(error):
        services.table_create_position(
            user=player,
            mode="practice",
            rules="online",
            bot_level="easy",
            seat=seat,
            position=_position(actions),
        )
    assert not Table.objects.exists()


@pytest.mark.parametrize("fresh", [True, False])
def test_a_table_created_in_the_starting_transaction_builds_no_frame(player, monkeypatch, fresh):
    """Nobody can hold a socket on a table not yet committed (a socket opens on a
    committed table and reads its state): a tournament round or the queue seating 256
    new tables skips building their frames. Any other start sends them."""
    from games.frames import live

    built = []
    real = live.table_frames
    monkeypatch.setattr(live, "table_frames", lambda **kw: built.append(kw) or real(**kw))
    with transaction.atomic():
        table = Table.objects.create(
            mode="practice", rules="classic", bot_level="easy", owner=player, status="open"
        )
        Seat.objects.bulk_create(
            [Seat(table=table, position=p, kind=SeatKind.BOT) for p in (1, 2, 3)]
        )
        services.seat_take(seat=Seat(table=table, position=0), user=player)
        locked = services.table_lock(table_id=table.pk)
        services.table_start(table=locked, seats=services.seats_lock(table=locked), fresh=fresh)
    assert len(built) == (0 if fresh else 1)
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING and table.seq == 1
    # The state a socket then reads holds the match either way.
    assert live_match(table).version == 0
