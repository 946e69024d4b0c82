"""Every change to tournaments (the only writers): keyword-only, one transaction each,
the tournament's row locked first; after-commit notices (`tournaments.signals`).

- `registration`: register (a pair or a single), withdraw, the close (singles paired),
  cancel with every fee refunded;
- `rounds`: a round paired and seated at tournament tables, the next game of a tie,
  no-shows;
- `results`: a game's result into its tie (the mode's settlement);
- `lifecycle`: the beat's tick, the finish (standings, prizes), recurring tournaments.
"""

from tournaments.services.lifecycle import (
    Advanced,
    schedules_create_next,
    standings_ranks,
    tournament_advance,
    tournament_create,
    tournaments_tick,
)
from tournaments.services.registration import (
    tournament_cancel,
    tournament_register,
    tournament_withdraw,
)
from tournaments.services.results import game_record

__all__ = [
    "Advanced",
    "game_record",
    "schedules_create_next",
    "standings_ranks",
    "tournament_advance",
    "tournament_cancel",
    "tournament_create",
    "tournament_register",
    "tournament_withdraw",
    "tournaments_tick",
]
