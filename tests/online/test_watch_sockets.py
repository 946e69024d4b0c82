"""Watching online and stake tables (docs/watching.md): a whole online match seen by a
watcher without a hand, stake players forbidding watchers, a watcher who sits down."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from cuatrola.engine import Match as EngineMatch
from games import selectors
from games.fanout import presence
from games.models import Match, MatchStatus, Seat
from online import services as online
from tests.games.hidden import leaks_in_frame
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive, refused_with
from tests.games.sockets.test_watchers import close_code, still_answers
from tests.online.conftest import play_out

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


async def opened(user, table_id):
    comm = communicator(user, table_id)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    state = await receive(comm)
    assert state["type"] == "state", state
    return comm, state


def _seat_four(cast) -> int:
    for user in cast:
        online.queue_join(user=user)
    online.queue_match()
    table = selectors.live_table_for(cast[0])
    assert table is not None and all(selectors.live_table_for(u) == table for u in cast)
    return table.pk


async def test_a_watcher_sees_a_whole_online_match_and_never_a_hand_in_play(players, make_user):
    cast = await database_sync_to_async(players)(4)
    watcher = await database_sync_to_async(make_user)("mirona")
    table_id = await database_sync_to_async(_seat_four)(cast)
    comm, state = await opened(watcher, table_id)
    frames = [state]
    table = await database_sync_to_async(lambda: Match.objects.get(table_id=table_id).table)()
    match = await database_sync_to_async(play_out)(table)
    assert match.status == MatchStatus.FINISHED
    while frames[-1].get("table", {}).get("status") != "finished":
        frames.append(await receive(comm))
    await comm.disconnect()
    steps = [s for s, _ in EngineMatch.replay(match.record)]
    boards = [f for f in frames if f["type"] in ("state", "update")]
    assert len(boards) > match.version / 2  # frames of the match, not just its end
    for frame in boards:
        assert frame["seat"] is None
        if frame.get("view") and not steps[frame["version"]].is_over:
            assert frame["view"]["hand"]["hand"] is None
            assert not frame["view"]["hand"]["legal_actions"]
            assert not leaks_in_frame(frame, steps[frame["version"]], None), frame
    # Each hand's end is summarised for the watcher, as for the players.
    assert any(frame.get("summary") for frame in boards)
    assert boards[-1]["summary"]["final"]


# --- stake tables -----------------------------------------------------------------------


async def test_opening_a_stake_table_forbidding_watchers_refuses_them_with_4433(
    players, make_user, staff_user
):
    (opener,) = await database_sync_to_async(players)(1)
    watcher = await database_sync_to_async(make_user)("mirona")
    table = await database_sync_to_async(online.stake_table_open)(
        user=opener, stake=100, allow_watchers=False
    )
    seat = await database_sync_to_async(Seat.objects.get)(table=table, user=opener)
    assert seat.forbids_watchers
    assert await refused_with(communicator(watcher, table.pk)) == 4433
    staff, _ = await opened(staff_user, table.pk)
    await staff.disconnect()


async def test_a_player_sitting_down_forbidding_watchers_closes_the_watching_sockets(
    players, make_user, staff_user
):
    opener, second, third = await database_sync_to_async(players)(3)
    watcher = await database_sync_to_async(make_user)("mirona")
    table = await database_sync_to_async(online.stake_table_open)(user=opener, stake=100)
    await database_sync_to_async(online.stake_table_sit)(user=second, table_id=table.pk)
    watching, _ = await opened(watcher, table.pk)
    staff, _ = await opened(staff_user, table.pk)
    seated, _ = await opened(opener, table.pk)
    await database_sync_to_async(online.stake_table_sit)(
        user=third, table_id=table.pk, allow_watchers=False
    )
    assert await close_code(watching) == 4433
    for kept in (staff, seated):
        await still_answers(kept, 5)


async def test_a_seat_freed_at_a_stake_table_forgets_its_players_forbidding(players):
    opener, second = await database_sync_to_async(players)(2)
    table = await database_sync_to_async(online.stake_table_open)(user=opener, stake=100)
    await database_sync_to_async(online.stake_table_sit)(
        user=second, table_id=table.pk, allow_watchers=False
    )
    seat = await database_sync_to_async(Seat.objects.get)(table=table, user=second)
    assert seat.forbids_watchers
    await database_sync_to_async(online.stake_table_leave)(user=second, table_id=table.pk)
    assert not (await database_sync_to_async(Seat.objects.get)(pk=seat.pk)).forbids_watchers
    seats = await database_sync_to_async(selectors.table_seats)(table)
    assert selectors.watchable(table, seats)


async def test_a_watcher_who_sits_down_stops_counting_as_a_watcher(players):
    opener, newcomer = await database_sync_to_async(players)(2)
    table = await database_sync_to_async(online.stake_table_open)(user=opener, stake=100)
    comm, state = await opened(newcomer, table.pk)
    assert state["seat"] is None
    assert await presence.watchers_counted(table.pk) == 1
    await database_sync_to_async(online.stake_table_sit)(user=newcomer, table_id=table.pk)
    while (frame := await receive(comm))["type"] != "watchers" or frame["count"] != 0:
        pass
    assert await presence.watching_counted(newcomer.pk) == 0
    await comm.disconnect()
    assert await presence.watchers_counted(table.pk) == 0


@pytest.mark.parametrize("value", [None, 0, "", "no", "false", [], {}])
async def test_only_false_forbids_watchers_any_other_value_allows_them(players, value):
    opener, second = await database_sync_to_async(players)(2)
    table = await database_sync_to_async(online.stake_table_open)(
        user=opener, stake=100, allow_watchers=value
    )
    await database_sync_to_async(online.stake_table_sit)(
        user=second, table_id=table.pk, allow_watchers=value
    )
    seats = await database_sync_to_async(selectors.table_seats)(table)
    assert not any(seat.forbids_watchers for seat in seats)
