"""Hooks other apps connect to from their `AppConfig.ready()` (games never imports them).

`match_finished` is sent inside the settlement transaction of a match, after its
seats have their results: a receiver that writes rows writes them in the same
transaction (and a receiver that fails rolls the move back, like any other error).
Arguments: `match` (games.Match), `table`, `match_seats` (list of MatchSeat with
results) and `engine` (the finished engine Match).
"""

from django.dispatch import Signal

match_finished = Signal()
