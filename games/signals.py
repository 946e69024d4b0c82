"""Hooks other apps connect to from their `AppConfig.ready()` (games never imports them).

`match_finished` is sent inside the settlement transaction of a match, after its
seats have their results: a receiver that writes rows writes them in the same
transaction (and a receiver that fails rolls the move back, like any other error).
Arguments: `match` (games.Match), `table`, `match_seats` (list of MatchSeat with
results) and `engine` (the finished engine Match).

`match_started` is sent after the commit of a match's start (`table_start`), with
`match_id`, `table_id`, `mode` and `user_ids` (the players in its seats, bots left
out). Sent robustly: a receiver that fails is logged, never the start's error (the
match has started). Social tells the players' friends from it (docs/notifications.md,
`friend_playing`).
"""

from django.dispatch import Signal

match_finished = Signal()
match_started = Signal()

#: Results outside a single match were recorded: a daily deal's day closed, a league
#: week closed, a tournament finished. Sent inside the closing transaction (a receiver
#: that writes rows writes them in it) with `event` ("daily", "league", "tournament")
#: and `ref_id` (the day's, the week's, the tournament's id). Achievements read them
#: (docs/achievements.md, "Results outside a match").
results_recorded = Signal()
