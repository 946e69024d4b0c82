"""The player page's figures: results by mode, rule set and month, contracts and
pass hands, reputation, league weeks and level. Worked out by the database over the
player's `PlayerMatch` rows (one range of the (user, finished_at) index), never by
a Python loop over matches. Reads only: history/cached.py keeps the sums in the
cache between two matches of the player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.conf import settings
from django.db.models import Count, Q, Sum
from django.db.models.functions import TruncMonth

from economy.levels import LevelProgress
from economy.selectors import user_level
from games.hooks import SeatReputation
from games.models import Mode, RuleSetName
from games.modes import modes_in_history
from history.figures import CONTRACTS, FIGURE_NAMES
from history.models import Outcome, PlayerMatch
from history.selectors.dates import day_start, month_starts
from leagues.selectors import division_labels, league_standings_of

# --- reputation -------------------------------------------------------------------


@dataclass(frozen=True)
class Reputation:
    """A player's reputation over their recorded matches (docs/fairplay.md): of those
    `played`, `abandoned` ones, and `late` ones finished with a turn of theirs timed
    out (a turn a bot played because the player's clock ran out while present)."""

    played: int
    abandoned: int
    late: int = 0

    @property
    def percent(self) -> int | None:
        """Matches finished (not abandoned) out of those played, in percent; rounded
        down so that a single abandonment never shows as 100."""
        if not self.played:
            return None
        return 100 * (self.played - self.abandoned) // self.played

    @property
    def on_time_percent(self) -> int | None:
        """Matches finished without a turn timed out, out of those played, in percent
        (rounded down; never above `percent`)."""
        if not self.played:
            return None
        return 100 * (self.played - self.abandoned - self.late) // self.played

    @property
    def seat(self) -> SeatReputation | None:
        """The two figures as games stores them on a seat."""
        if self.percent is None or self.on_time_percent is None:
            return None
        return SeatReputation(finished=self.percent, on_time=self.on_time_percent)


def reputation_by_user(user_ids: list[int]) -> dict[int, Reputation]:
    """Each user's played, abandoned and late matches, counted in one query (from the
    (user, outcome, timeouts) index). Users with no finished match are absent."""
    if not user_ids:
        return {}
    counts = (
        PlayerMatch.objects.filter(user_id__in=user_ids)
        .values("user_id")
        .annotate(
            played=Count("pk"),
            abandoned=Count("pk", filter=Q(outcome=Outcome.ABANDONED)),
            late=Count("pk", filter=~Q(outcome=Outcome.ABANDONED) & Q(timeouts__gt=0)),
        )
    )
    return {
        row["user_id"]: Reputation(
            played=row["played"], abandoned=row["abandoned"], late=row["late"]
        )
        for row in counts
    }


def reputation_of(user_id: int) -> SeatReputation | None:
    """The figures shown beside a name at tables and stake tables (games.hooks)."""
    found = reputation_by_user([user_id]).get(user_id)
    return found.seat if found else None


# --- results and figures ----------------------------------------------------------


@dataclass
class Results:
    """Matches won, lost and abandoned (an abandonment is also a loss in the record)."""

    label: str = ""
    won: int = 0
    lost: int = 0
    abandoned: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.abandoned

    @property
    def losses(self) -> int:
        return self.lost + self.abandoned

    @property
    def win_percent(self) -> int | None:
        return round(100 * self.won / self.played) if self.played else None

    def add(self, outcome: str, count: int) -> None:
        setattr(self, outcome, getattr(self, outcome) + count)


@dataclass(frozen=True)
class ContractLine:
    contract: str
    bids: int
    played: int
    made: int

    @property
    def made_percent(self) -> int | None:
        return round(100 * self.made / self.played) if self.played else None


@dataclass
class PlayerStats:
    totals: Results
    by_mode: list[Results]
    by_rules: list[Results]
    by_month: list[tuple[date, Results]]
    figures: dict[str, int]
    # Matches finished (not abandoned) with a turn of the player's timed out.
    late: int = 0

    @property
    def reputation(self) -> Reputation:
        return Reputation(
            played=self.totals.played, abandoned=self.totals.abandoned, late=self.late
        )

    @property
    def contracts(self) -> list[ContractLine]:
        f = self.figures
        return [
            ContractLine(
                contract=c, bids=f[f"{c}_bids"], played=f[f"{c}_played"], made=f[f"{c}_made"]
            )
            for c in CONTRACTS
        ]

    @property
    def broken_percent(self) -> int | None:
        f = self.figures
        return round(100 * f["broken"] / f["defended"]) if f["defended"] else None

    @property
    def pass_average_points(self) -> float | None:
        f = self.figures
        return round(f["pass_card_points"] / f["pass_hands"], 1) if f["pass_hands"] else None

    @property
    def pass_last_trick_percent(self) -> int | None:
        f = self.figures
        return round(100 * f["pass_last_tricks"] / f["pass_hands"]) if f["pass_hands"] else None


#: What `player_stats` adds up: the sums by mode, rule set and outcome, and the
#: outcomes by month (plain data, which history/cached.py keeps in the cache).
StatsSums = tuple[list[Any], list[dict[str, Any]]]


def player_stats_sums(user: Any, *, starts: list[date]) -> StatsSums:
    """The two queries of the player page's figures, over the months from `starts[0]`."""
    rows = PlayerMatch.objects.filter(user=user)
    sums = {name: Sum(name) for name in FIGURE_NAMES}
    grouped = list(
        rows.values("mode", "rules", "outcome").annotate(
            n=Count("pk"), late=Count("pk", filter=Q(timeouts__gt=0)), **sums
        )
    )
    recent = []
    for group in (
        rows.filter(finished_at__gte=day_start(starts[0]))
        .annotate(month=TruncMonth("finished_at"))
        .values("month", "outcome")
        .annotate(n=Count("pk"))
    ):
        month = group["month"]
        recent.append(
            {
                "month": month.date() if isinstance(month, datetime) else month,
                "outcome": group["outcome"],
                "n": group["n"],
            }
        )
    return grouped, recent


def player_stats(
    user: Any, *, now: datetime | None = None, sums: StatsSums | None = None
) -> PlayerStats:
    """Everything the player page shows about matches: the sums by mode, rule set and
    outcome over all the player's matches, and the outcomes by month over the last
    `PLAYER_PAGE_MONTHS` months. Two queries, none when `sums` (`player_stats_sums`
    over those months, as history/cached.py keeps them) are given."""
    starts = month_starts(settings.PLAYER_PAGE_MONTHS, now=now)
    grouped, recent = sums if sums is not None else player_stats_sums(user, starts=starts)
    totals = Results()
    recorded = set(modes_in_history())
    modes = {value: Results(label=str(label)) for value, label in Mode.choices if value in recorded}
    rule_sets = {value: Results(label=str(label)) for value, label in RuleSetName.choices}
    figures = dict.fromkeys(FIGURE_NAMES, 0)
    late = 0
    for group in grouped:
        if group["outcome"] != Outcome.ABANDONED:
            late += group.get("late") or 0
        for results in (totals, modes.get(group["mode"]), rule_sets.get(group["rules"])):
            if results is not None:
                results.add(group["outcome"], group["n"])
        for name in FIGURE_NAMES:
            figures[name] += group[name] or 0
    monthly = {start: Results() for start in starts}
    for group in recent:
        if group["month"] in monthly:
            monthly[group["month"]].add(group["outcome"], group["n"])
    return PlayerStats(
        totals=totals,
        by_mode=list(modes.values()),
        by_rules=list(rule_sets.values()),
        by_month=list(monthly.items()),
        figures=figures,
        late=late,
    )


# --- league weeks and level ----------------------------------------------------------


@dataclass(frozen=True)
class LeagueWeekLine:
    starts_at: datetime
    division: int
    division_label: str
    rank: int
    points: int
    movement: int


def league_weeks(user: Any, *, weeks: int | None = None) -> list[LeagueWeekLine]:
    """The player's archived league weeks (division, rank, points), oldest first: the
    last `PLAYER_PAGE_LEAGUE_WEEKS` closed weeks they played in. Public, as the
    archived standings are."""
    weeks = settings.PLAYER_PAGE_LEAGUE_WEEKS if weeks is None else weeks
    labels = division_labels()
    return [
        LeagueWeekLine(
            starts_at=s.week.starts_at,
            division=s.division,
            division_label=labels.get(s.division, str(s.division)),
            rank=s.rank,
            points=s.points,
            movement=s.movement,
        )
        for s in league_standings_of(user=user, weeks=weeks)
    ]


def level_of(user: Any) -> LevelProgress:
    """The player's level (public: the profile shows it)."""
    return user_level(user)
