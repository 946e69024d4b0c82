"""Signals of tournaments: sent after commit, for the pages' live updates."""

from django.dispatch import Signal

#: A tournament changed (registration, a round started, a result, the end): sent after
#: the change commits with `tournament_id` and `what` ("entries", "round", "result",
#: "state"). The pages listen (their live standings and pairings).
tournament_changed = Signal()
