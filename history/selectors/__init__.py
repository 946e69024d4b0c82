"""Reads for the history pages, shaped so a page costs a fixed number of queries.

A package split by concern; the public API is re-exported here (`from history
import selectors`):

- `listing`: the history page — a player's matches filtered and paged;
- `stats`: the player page's figures, reputation, league weeks and level;
- `wallet`: the owner's coins and XP month by month;
- `match`: one finished match, and the rewards of matches;
- `dates`: days and months as the pages count them;
- `pairs`: players who sat together, for the fair-play screen;
- `partners`: registered pairs' pages and their leaderboard (imported as
  `history.selectors.partners`).

The history reads its own `PlayerMatch` rows and asks the other apps through their
selectors (games for matches and names, the economy for the ledger, the league for
its weeks). Nothing here writes: history/cached.py keeps what the player page reads
in the cache, and a missing match is None (the view answers 404).
"""

from history.selectors.dates import month_starts
from history.selectors.listing import (
    HistoryFilters,
    HistoryRow,
    ListedSeat,
    filtered_player_matches,
    history_page,
)
from history.selectors.match import (
    StoredMatch,
    finished_match,
    match_results,
    match_talk,
    rewards_by_match_and_user,
)
from history.selectors.pairs import (
    PairTogether,
    SharedMatch,
    matches_played,
    pairs_together,
    shared_matches,
)
from history.selectors.stats import (
    ContractLine,
    LeagueWeekLine,
    PlayerStats,
    Reputation,
    Results,
    StatsSums,
    league_weeks,
    level_of,
    player_stats,
    player_stats_sums,
    reputation_by_user,
    reputation_of,
)
from history.selectors.wallet import ClosedSums, WalletMonth, closed_month_sums, wallet_by_month

__all__ = [
    "ClosedSums",
    "ContractLine",
    "HistoryFilters",
    "HistoryRow",
    "LeagueWeekLine",
    "ListedSeat",
    "PairTogether",
    "PlayerStats",
    "Reputation",
    "Results",
    "SharedMatch",
    "StatsSums",
    "StoredMatch",
    "WalletMonth",
    "closed_month_sums",
    "filtered_player_matches",
    "finished_match",
    "history_page",
    "league_weeks",
    "level_of",
    "match_results",
    "match_talk",
    "matches_played",
    "month_starts",
    "pairs_together",
    "player_stats",
    "player_stats_sums",
    "reputation_by_user",
    "reputation_of",
    "rewards_by_match_and_user",
    "shared_matches",
    "stats_version_key",
    "wallet_by_month",
]
