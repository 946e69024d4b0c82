"""Matchmaking with bot fill, stake tables, and the settlement of online matches.

A package split by concern; the public API is re-exported here (`from online
import services`): `queue` (the matchmaking queue), `stakes` (stake tables),
`settlement` (the end of an online or stake match), and `seating` (what the first
two share).

The only code that writes the queue and stake rows. Each service is one
transaction. Lock order, always: the matchmaker's advisory lock, then queue
rows; or a table row, then its seats (games.services' order), then queue rows,
then ledger accounts (inside the economy services). Tables are locked, seated,
started, broadcast and closed through games.services' public life cycle
(`table_lock`, `seat_take`, `table_start`, `table_broadcast`, `table_close`), so
the partial unique index on live seats is the last word on "one live table per
player". What online and stake tables do where modes differ is answered by
`online.policies`.
"""

from online.services.partners import (
    queue_partner_accept,
    queue_partner_cancel,
    queue_partner_decline,
    queue_partner_invite,
)
from online.services.queue import (
    MATCHMAKER_LOCK,
    online_sweep,
    queue_join,
    queue_leave,
    queue_match,
    queue_remove_banned,
    queue_seatings_prune,
    quit_notice_dismiss,
)
from online.services.settlement import league_points_for, match_league_points, match_settle
from online.services.stakes import (
    min_reputation_value,
    stake_amount,
    stake_seat_leave_locked,
    stake_table_cancel,
    stake_table_leave,
    stake_table_open,
    stake_table_sit,
    stake_tables_sweep,
)

__all__ = [
    "MATCHMAKER_LOCK",
    "league_points_for",
    "match_league_points",
    "match_settle",
    "min_reputation_value",
    "online_sweep",
    "queue_join",
    "queue_leave",
    "queue_match",
    "queue_partner_accept",
    "queue_partner_cancel",
    "queue_partner_decline",
    "queue_partner_invite",
    "queue_remove_banned",
    "queue_seatings_prune",
    "quit_notice_dismiss",
    "stake_amount",
    "stake_seat_leave_locked",
    "stake_table_cancel",
    "stake_table_leave",
    "stake_table_open",
    "stake_table_sit",
    "stake_tables_sweep",
]
