"""Reads of the games app for pages, sockets and the apps above it.

A package split by concern; the public API is re-exported here (`from games
import selectors`, `selectors.table_frame(...)`):

- `access`: who may see a table and from which seat, the table socket's admission,
  the watching rules (docs/watching.md);
- `tables`: a table's rows and its `state` frames read together (the page's first
  frame, a socket's `sync`), a finished match's outcome;
- `balances`: the players' coins, XP and level for the navigation;
- `lobby`: the live table a player sits at, invitations;
- `watch_list`: the tables in play anyone may watch;
- `finished`: finished matches as stored, and each seat's name as the table named it;
- `talk`: a table's talk: the last lines a socket shows as it opens, a match's
  transcript for a report and the replay;
- `monitoring`: what operators watch (tables in play, moves, finished matches).

Nothing here writes.
"""

from games.selectors.access import (
    FORBIDDEN,
    PLAYING_ELSEWHERE,
    Access,
    Admission,
    may_watch,
    playing_elsewhere,
    table_access,
    table_admission,
    watch_refusal,
    watchable,
)
from games.selectors.balances import user_balances
from games.selectors.finished import FinishedMatch, finished_match, match_names, match_players
from games.selectors.lobby import (
    live_table_for,
    live_table_ids_of,
    live_tables_of,
    pending_invitations,
    room_invitations,
)
from games.selectors.monitoring import (
    FinishedSince,
    finished_since,
    moves_by_minute,
    tables_playing_by_mode,
)
from games.selectors.tables import (
    SeatFrame,
    latest_match,
    match_outcome,
    seat_frame,
    snapshot,
    state_frame,
    table_frame,
    table_seats,
    tables_unlisted,
)
from games.selectors.talk import talk_log, talk_muted_seats, talk_said, talk_transcript
from games.selectors.watch_list import PlayerInPlay, TableInPlay, tables_in_play

__all__ = [
    "FORBIDDEN",
    "PLAYING_ELSEWHERE",
    "Access",
    "Admission",
    "FinishedMatch",
    "FinishedSince",
    "PlayerInPlay",
    "SeatFrame",
    "TableInPlay",
    "finished_match",
    "finished_since",
    "latest_match",
    "live_table_for",
    "live_table_ids_of",
    "live_tables_of",
    "match_names",
    "match_outcome",
    "match_players",
    "may_watch",
    "moves_by_minute",
    "pending_invitations",
    "playing_elsewhere",
    "room_invitations",
    "seat_frame",
    "snapshot",
    "state_frame",
    "table_access",
    "table_admission",
    "table_frame",
    "table_seats",
    "tables_in_play",
    "tables_playing_by_mode",
    "tables_unlisted",
    "talk_log",
    "talk_muted_seats",
    "talk_said",
    "talk_transcript",
    "user_balances",
    "watch_refusal",
    "watchable",
]
