"""Every change to tables, seats, invitations and matches (the only writers).

A package split by concern; the public API is re-exported here, so callers
write `from games import services` / `services.match_play(...)`:

- `tables`: the table life cycle other modules and apps build on — lock
  (`table_lock`, `match_lock`, `seats_lock`, `table_lock_all`, `table_lock_live`), seat
  (`seat_take`, `seat_free`), start (`table_start`), broadcast
  (`table_broadcast`, `user_notify`, `table_watchers_close`), close (`table_close`);
- `rooms`: creating tables, invitations, arranging and leaving seats, starting a
  room's match, playing again;
- `play`: moves (players', bots', timed-out turns) and the end of a match;
- `presence`: sockets, heartbeats, absence and abandonment;
- `sweep`: the periodic safety net;
- `moderation`: staff aborting a match, banned players leaving.

Where modes differ, the services ask the table's mode policy (`games.modes`).
One transaction per public service. Lock order, always: the table row, then
its match row, then its seats ordered by primary key. Broadcasts and bot moves
are queued with `transaction.on_commit`, so nobody ever sees uncommitted state.
"""

from games.services.moderation import match_abort, match_stop, user_remove_from_tables
from games.services.play import (
    bot_action,
    match_bot_move,
    match_play,
    match_play_bot,
    match_timeout,
    places_for,
)
from games.services.presence import (
    Joined,
    seat_abandon_absent,
    seat_abandon_locked,
    seat_connect,
    seat_disconnect,
    seat_mark_no_show,
    seat_presence_lost,
    seat_process_gone,
    seats_heard,
    table_join,
    table_listening,
    web_process_beat,
    web_process_left,
)
from games.services.rooms import (
    invitation_accept,
    invitation_create,
    invitation_decline,
    match_start,
    room_cancel,
    room_reopen,
    room_seat_leave,
    seat_leave,
    seat_set_bot,
    seat_swap,
    table_configure,
    table_create_against_bots,
    table_create_friends,
    table_create_position,
    table_create_practice,
    table_rematch,
)
from games.services.sweep import tables_sweep
from games.services.tables import (
    StartPosition,
    match_lock,
    seat_free,
    seat_release,
    seat_take,
    seats_lock,
    table_broadcast,
    table_close,
    table_lock,
    table_lock_live,
    table_start,
    table_watchers_close,
    user_notify,
)
from games.services.talk import talk_mute, talk_send, talk_watch_send

__all__ = [
    "Joined",
    "StartPosition",
    "bot_action",
    "invitation_accept",
    "invitation_create",
    "invitation_decline",
    "match_abort",
    "match_bot_move",
    "match_lock",
    "match_play",
    "match_play_bot",
    "match_start",
    "match_stop",
    "match_timeout",
    "places_for",
    "room_cancel",
    "room_reopen",
    "room_seat_leave",
    "seat_abandon_absent",
    "seat_abandon_locked",
    "seat_connect",
    "seat_disconnect",
    "seat_free",
    "seat_leave",
    "seat_mark_no_show",
    "seat_presence_lost",
    "seat_process_gone",
    "seat_release",
    "seat_set_bot",
    "seat_swap",
    "seat_take",
    "seats_heard",
    "seats_lock",
    "table_broadcast",
    "table_close",
    "table_configure",
    "table_create_against_bots",
    "table_create_friends",
    "table_create_position",
    "table_create_practice",
    "table_join",
    "table_listening",
    "table_lock",
    "table_lock_live",
    "table_rematch",
    "table_start",
    "table_watchers_close",
    "tables_sweep",
    "talk_mute",
    "talk_send",
    "talk_watch_send",
    "user_notify",
    "user_remove_from_tables",
    "web_process_beat",
    "web_process_left",
]
