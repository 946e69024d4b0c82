"""Reads for the tournament pages (docs/tournaments.md, "Pages"). Nothing here writes.

- `tournament_lists`: upcoming, running and finished tournaments, with each one's
  entries and the reader's own entry;
- `tournament_page`: one tournament as its page shows it: entrants, rounds and their
  tables (with a watch link where the watching rules allow), standings (the format's
  own, from `tournaments.formats`), the knockout bracket, and the reader's notice
  ("round 3: table 12", "round 4 starts in 2 minutes");
- `table_tournament`: the tournament region of a tournament table's page;
- `partner_choices`: the friends a player may name as partner.

Every read is a fixed number of queries, whatever the number of entries or rounds.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any, Literal

from django.db import connection
from django.db.models import Count, OuterRef, Q, Subquery

from accounts.models import User
from clubs.hooks import ClubSection
from clubs.selectors import club_by_id, clubs_of, is_admin, membership_of
from games.models import Seat, Table, TableStatus
from games.selectors import watchable
from history.hooks import PlayerSection
from social.selectors import friend_ids
from tournaments.formats import arena, knockout, swiss
from tournaments.models import (
    Entry,
    EntryPlayer,
    EntryState,
    Format,
    Game,
    Pairing,
    PairingState,
    Round,
    RoundState,
    Tournament,
    TournamentState,
)

UPCOMING = (
    TournamentState.SCHEDULED,
    TournamentState.REGISTRATION_OPEN,
    TournamentState.REGISTRATION_CLOSED,
)
ENDED = (TournamentState.FINISHED, TournamentState.CANCELLED)
#: Finished tournaments listed on the tournaments page.
FINISHED_LISTED = 20
#: A tournament's page draws the top of the standings and the rows around the reader
#: (all of them on asking), and the current round's first tables and the reader's
#: (a round in full on asking): a 512-team Swiss stays a light page.
STANDINGS_TOP = 32
STANDINGS_AROUND = 2
TABLES_SHOWN = 32


@dataclass(frozen=True)
class Team:
    """An entry as the pages name it: "ana & bea", or a single waiting for a partner."""

    entry_id: int
    names: tuple[str, ...]
    player_ids: tuple[int, ...]
    rating: float
    mine: bool

    @property
    def waiting(self) -> bool:
        return len(self.names) == 1


@dataclass(frozen=True)
class ClubRef:
    """A club as a tournament names it."""

    pk: int
    name: str


@dataclass(frozen=True)
class Card:
    """A tournament on the list."""

    tournament: Tournament
    teams: int
    singles: int
    mine: Team | None
    #: A club's tournament: its club (listed to its members only).
    club: ClubRef | None = None

    @property
    def pool(self) -> int:
        """Coins in the prize pool so far: every entered player's fee."""
        return self.tournament.entry_fee * (2 * self.teams + self.singles)


@dataclass(frozen=True)
class Lists:
    upcoming: list[Card]
    running: list[Card]
    finished: list[Card]


@dataclass(frozen=True)
class TableRow:
    """One tie of a round: its table number, the two teams (B None: a bye), its score."""

    number: int
    team_a: Team
    team_b: Team | None
    state: str
    points_a: int
    points_b: int
    vp_a: int
    vp_b: int
    wins_a: int
    wins_b: int
    no_show_a: bool
    no_show_b: bool
    winner: Literal["a", "b"] | None
    #: The table of its game in play (or its last game), for the watch or play link.
    table_id: int | None
    playing: bool
    watchable: bool
    #: The last finished game's match, for its replay in the history.
    match_id: int | None

    @property
    def mine(self) -> bool:
        return self.team_a.mine or (self.team_b is not None and self.team_b.mine)

    @property
    def bye(self) -> bool:
        return self.team_b is None


@dataclass(frozen=True)
class RoundView:
    number: int
    state: str
    started_at: datetime | None
    ends_at: datetime
    finished_at: datetime | None
    next_starts_at: datetime | None
    #: The tables drawn: every one of the round shown (or its first TABLES_SHOWN and
    #: the reader's), none of the other rounds.
    tables: list[TableRow]
    table_count: int
    #: The reader's own table in this round, if they play in it.
    mine: TableRow | None = None

    @property
    def playing(self) -> bool:
        return self.state == RoundState.PLAYING

    @property
    def cut(self) -> bool:
        return len(self.tables) < self.table_count


@dataclass(frozen=True)
class StandingRow:
    rank: int
    team: Team
    vp: int = 0
    buchholz: int = 0
    points_diff: int = 0
    played: int = 0
    wins: int = 0
    #: Knockout: the round the team went out in (None: still in).
    out_in: int | None = None
    prize_coins: int = 0
    prize_xp: int = 0
    #: Arena: points, each match's points in order, whether the next win counts double.
    points: int = 0
    sheet: tuple[int, ...] = ()
    on_fire: bool = False
    #: Duplicate: the average share of the top over the boards played (percent).
    percent: float | None = None


@dataclass(frozen=True)
class BracketTie:
    team_a: Team | None
    team_b: Team | None
    wins_a: int
    wins_b: int
    winner: Literal["a", "b"] | None
    bye: bool


@dataclass(frozen=True)
class BracketRound:
    number: int
    ties: list[BracketTie]
    #: Rounds after this one: 0 the final, 1 the semi-finals, 2 the quarter-finals.
    from_end: int


@dataclass(frozen=True)
class Notice:
    """What the reader is told about their own play in a running tournament.

    kind: "play" (their table in the current round; `table` its number, `table_id`
    the game's table), "bye", "wait" (their tie finished, the round goes on),
    "next" (the round finished; the next starts at `at`, at table `table` once it is
    paired: the next round is paired when the previous one ends), "out" (knocked out),
    "done" (the tournament finished: `rank`).
    """

    kind: str
    round: int
    table: int | None = None
    table_id: int | None = None
    at: datetime | None = None
    rank: int | None = None
    prize_coins: int = 0
    prize_xp: int = 0
    #: "next": the reader's tie of the next round is a bye (`table`: its number).
    bye: bool = False


@dataclass(frozen=True)
class Page:
    tournament: Tournament
    teams: list[Team]
    mine: Team | None
    rounds: list[RoundView]
    #: The round whose tables are drawn (the current one unless one was asked for).
    shown: RoundView | None
    standings: list[StandingRow]
    #: The rows drawn: the top STANDINGS_TOP and those around the reader, or all.
    standings_shown: list[StandingRow]
    bracket: list[BracketRound]
    notice: Notice | None
    #: (place, percent of the pool), from the tournament's shares.
    prizes: list[tuple[int, float]] = field(default_factory=list)

    @property
    def registration_open(self) -> bool:
        return self.tournament.state == TournamentState.REGISTRATION_OPEN

    @property
    def current(self) -> RoundView | None:
        return self.rounds[-1] if self.rounds else None

    @property
    def singles(self) -> int:
        return sum(1 for team in self.teams if team.waiting)

    @property
    def team_count(self) -> int:
        return sum(1 for team in self.teams if not team.waiting)

    @property
    def pool(self) -> int:
        players = sum(len(team.player_ids) for team in self.teams)
        return self.tournament.entry_fee * players

    @property
    def standings_cut(self) -> bool:
        return len(self.standings_shown) < len(self.standings)

    @property
    def show_entrants(self) -> bool:
        """Before the first round (afterwards the standings name every team)."""
        return not self.rounds


@dataclass(slots=True)
class _EntryRow:
    """An entry as the page reads it (a tuple from the database, not a model: a
    512-team page reads them all)."""

    pk: int
    player_a_id: int
    player_b_id: int | None
    rating: float
    rank: int | None
    prize_coins: int
    prize_xp: int
    name_a: str
    name_b: str | None

    @property
    def player_ids(self) -> list[int]:
        return [pk for pk in (self.player_a_id, self.player_b_id) if pk is not None]


# The players' names come in the same query (a join, not a list of ids to look up).
_ENTRY_FIELDS = (
    "pk",
    "player_a_id",
    "player_b_id",
    "rating",
    "rank",
    "prize_coins",
    "prize_xp",
    "player_a__username",
    "player_b__username",
)


@dataclass(slots=True)
class _Tie:
    """A pairing as the page reads it (a tuple from the database, not a model)."""

    pk: int
    round_id: int
    number: int
    entry_a_id: int
    entry_b_id: int | None
    state: str
    points_a: int
    points_b: int
    vp_a: int
    vp_b: int
    wins_a: int
    wins_b: int
    no_show_a: bool
    no_show_b: bool
    winner_id: int | None
    finished_at: datetime | None


_TIE_FIELDS = (
    "pk",
    "round_id",
    "number",
    "entry_a_id",
    "entry_b_id",
    "state",
    "points_a",
    "points_b",
    "vp_a",
    "vp_b",
    "wins_a",
    "wins_b",
    "no_show_a",
    "no_show_b",
    "winner_id",
    "finished_at",
)


def _entry_rows(rows: Any) -> list[_EntryRow]:
    return [_EntryRow(*row) for row in rows.values_list(*_ENTRY_FIELDS)]


def _names(user_ids: Iterable[int]) -> dict[int, str]:
    return dict(User.objects.filter(pk__in=set(user_ids)).values_list("pk", "username"))


def _team(entry: Entry | _EntryRow, names: dict[int, str], user_id: int | None) -> Team:
    ids = tuple(entry.player_ids)
    return Team(
        entry_id=entry.pk,
        names=tuple(names.get(pk, "?") for pk in ids),
        player_ids=ids,
        rating=entry.rating,
        mine=user_id in ids,
    )


def _mine(tournament_ids: list[int], user_id: int | None) -> dict[int, Entry]:
    if user_id is None or not tournament_ids:
        return {}
    places = EntryPlayer.objects.filter(
        tournament_id__in=tournament_ids,
        user_id=user_id,
        entry__state=EntryState.REGISTERED,
    ).select_related("entry")
    return {place.tournament_id: place.entry for place in places}


def _clubs_of(user_id: int | None) -> dict[int, ClubRef]:
    """The open clubs the reader belongs to, by id (their tournaments are listed)."""
    if user_id is None:
        return {}
    return {m.club_id: ClubRef(pk=m.club_id, name=m.club.name) for m in clubs_of(user_id)}


def tournament_club(tournament: Tournament) -> ClubRef | None:
    """A club tournament's club (None: the site's tournament, or no such club)."""
    if tournament.club_id is None:
        return None
    club = club_by_id(tournament.club_id)
    return ClubRef(pk=club.pk, name=club.name) if club is not None else None


def tournament_lists(*, user_id: int | None, now: datetime) -> Lists:
    """Upcoming (soonest first), running, and the last finished or cancelled tournaments:
    the site's, and the tournaments of the reader's clubs (a club's tournament is
    listed to its members only; docs/tournaments.md, "Club tournaments")."""
    live = Q(entries__state=EntryState.REGISTERED)
    clubs = _clubs_of(user_id)
    rows = Tournament.objects.filter(Q(club_id__isnull=True) | Q(club_id__in=list(clubs))).annotate(
        teams=Count("entries", filter=live & Q(entries__player_b__isnull=False)),
        singles=Count("entries", filter=live & Q(entries__player_b__isnull=True)),
    )
    upcoming = list(rows.filter(state__in=UPCOMING).order_by("starts_at", "pk"))
    running = list(rows.filter(state=TournamentState.RUNNING).order_by("starts_at", "pk"))
    finished = list(rows.filter(state__in=ENDED).order_by("-starts_at", "-pk")[:FINISHED_LISTED])
    everything = upcoming + running + finished
    mine = _mine([t.pk for t in everything], user_id)
    names = _names(pk for entry in mine.values() for pk in entry.player_ids)

    def card(tournament: Any) -> Card:
        entry = mine.get(tournament.pk)
        return Card(
            tournament=tournament,
            teams=tournament.teams,
            singles=tournament.singles,
            mine=_team(entry, names, user_id) if entry is not None else None,
            club=clubs.get(tournament.club_id) if tournament.club_id else None,
        )

    return Lists(
        upcoming=[card(t) for t in upcoming],
        running=[card(t) for t in running],
        finished=[card(t) for t in finished],
    )


def tournament_get(tournament_id: int) -> Tournament | None:
    return Tournament.objects.filter(pk=tournament_id).first()


def _entries(tournament: Tournament) -> list[_EntryRow]:
    """The teams of the tournament: live entries."""
    return _entry_rows(
        Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).order_by(
            "-rating", "pk"
        )
    )


def _games_by_pairing(pairing_ids: list[int]) -> dict[int, list[Game]]:
    games: dict[int, list[Game]] = defaultdict(list)
    for game in (
        Game.objects.filter(pairing_id__in=pairing_ids)
        .select_related("table")
        .order_by("pairing_id", "number")
    ):
        games[game.pairing_id].append(game)
    return games


def _watchable_tables(tables: list[Table]) -> set[int]:
    playing = [t for t in tables if t.status == TableStatus.PLAYING]
    seats: dict[int, list[Seat]] = defaultdict(list)
    for seat in Seat.objects.filter(table_id__in=[t.pk for t in playing]):
        seats[seat.table_id].append(seat)
    return {t.pk for t in playing if watchable(t, seats[t.pk])}


def _winner(pairing: _Tie) -> Literal["a", "b"] | None:
    if pairing.winner_id is None:
        return None
    return "a" if pairing.winner_id == pairing.entry_a_id else "b"


def _table_row(pairing: _Tie, team: Any, games: list[Game], open_to_watch: set[int]) -> TableRow:
    last = games[-1] if games else None
    finished = [g for g in games if g.match_id is not None and g.recorded_at is not None]
    return TableRow(
        number=pairing.number,
        team_a=team(pairing.entry_a_id),
        team_b=team(pairing.entry_b_id) if pairing.entry_b_id is not None else None,
        state=pairing.state,
        points_a=pairing.points_a,
        points_b=pairing.points_b,
        vp_a=pairing.vp_a,
        vp_b=pairing.vp_b,
        wins_a=pairing.wins_a,
        wins_b=pairing.wins_b,
        no_show_a=pairing.no_show_a,
        no_show_b=pairing.no_show_b,
        winner=_winner(pairing),
        table_id=last.table_id if last is not None else None,
        playing=last is not None and last.table.status == TableStatus.PLAYING,
        watchable=last is not None and last.table_id in open_to_watch,
        match_id=finished[-1].match_id if finished else None,
    )


def _rounds(
    rounds: list[Round],
    pairings: list[_Tie],
    team: Any,
    *,
    shown_number: int | None,
    mine: int | None,
    limit: int | None,
) -> list[RoundView]:
    """Each round, with the tables of round `shown_number` (its first `limit` and the
    reader's, or all) and the reader's own table in every round. Games, tables and
    seats are read for those tables only."""
    by_round: dict[int, list[_Tie]] = defaultdict(list)
    for pairing in pairings:
        by_round[pairing.round_id].append(pairing)
    wanted: dict[int, list[_Tie]] = {}
    own: dict[int, _Tie] = {}
    for r in rounds:
        ties = by_round.get(r.pk, [])
        if r.number == shown_number:
            wanted[r.pk] = [
                p
                for i, p in enumerate(ties)
                if limit is None or i < limit or mine in (p.entry_a_id, p.entry_b_id)
            ]
        if mine is not None:
            found = next((p for p in ties if mine in (p.entry_a_id, p.entry_b_id)), None)
            if found is not None:
                own[r.pk] = found
    read = {p.pk for ties in wanted.values() for p in ties} | {p.pk for p in own.values()}
    games = _games_by_pairing(sorted(read))
    current = rounds[-1].pk if rounds else None
    in_play = [
        games[p.pk][-1].table
        for p in [*wanted.get(current or 0, []), *([own[current]] if current in own else [])]
        if games.get(p.pk)
    ]
    open_to_watch = _watchable_tables(in_play)
    views = []
    for r in rounds:
        tables = [
            _table_row(p, team, games.get(p.pk, []), open_to_watch) for p in wanted.get(r.pk, [])
        ]
        mine_row = (
            _table_row(own[r.pk], team, games.get(own[r.pk].pk, []), open_to_watch)
            if r.pk in own
            else None
        )
        views.append(
            RoundView(
                number=r.number,
                state=r.state,
                started_at=r.started_at,
                ends_at=r.ends_at,
                finished_at=r.finished_at,
                next_starts_at=r.next_starts_at,
                tables=tables,
                table_count=len(by_round.get(r.pk, [])),
                mine=mine_row,
            )
        )
    return views


def _swiss_standings(teams: dict[int, Team], pairings: list[_Tie]) -> list[StandingRow]:
    results = [
        swiss.SwissResult(
            team_a=p.entry_a_id,
            team_b=p.entry_b_id,
            vp_a=p.vp_a,
            vp_b=p.vp_b,
            points_a=p.points_a,
            points_b=p.points_b,
        )
        for p in pairings
        if p.state == PairingState.FINISHED
        and p.entry_a_id in teams
        and (p.entry_b_id is None or p.entry_b_id in teams)
    ]
    standings = swiss.swiss_standings([(pk, t.rating) for pk, t in teams.items()], results)
    return [
        StandingRow(
            rank=s.rank,
            team=teams[s.id],
            vp=s.vp,
            buchholz=s.buchholz,
            points_diff=s.points_diff,
            played=s.played,
            wins=s.wins,
        )
        for s in standings
    ]


def _knockout(
    teams: dict[int, Team], rounds: list[Round], pairings: list[_Tie], team: Any
) -> tuple[list[StandingRow], list[BracketRound]]:
    size = knockout.bracket_size(max(len(teams), 2))
    needed = knockout.rounds_needed(max(len(teams), 2))
    by_round: dict[int, list[_Tie]] = defaultdict(list)
    for pairing in pairings:
        by_round[pairing.round_id].append(pairing)
    numbers = {r.number: r.pk for r in rounds}
    bracket: list[BracketRound] = []
    out: dict[int, int] = {}
    for number in range(1, needed + 1):
        if number not in numbers:
            ties = [BracketTie(None, None, 0, 0, None, False) for _ in range(size >> number)]
        else:
            ties = []
            for p in by_round.get(numbers[number], []):
                winner = _winner(p)
                ties.append(
                    BracketTie(
                        team_a=team(p.entry_a_id),
                        team_b=team(p.entry_b_id) if p.entry_b_id is not None else None,
                        wins_a=p.wins_a,
                        wins_b=p.wins_b,
                        winner=winner,
                        bye=p.entry_b_id is None,
                    )
                )
                if winner is not None and p.entry_b_id is not None:
                    out[p.entry_b_id if winner == "a" else p.entry_a_id] = number
        bracket.append(BracketRound(number=number, ties=ties, from_end=needed - number))
    ordered = sorted(
        teams.values(),
        key=lambda t: (
            out.get(t.entry_id) is not None,
            -out.get(t.entry_id, 0),
            -t.rating,
            t.entry_id,
        ),
    )
    standings: list[StandingRow] = []
    for i, one in enumerate(ordered):
        key = out.get(one.entry_id)
        previous = standings[-1] if standings else None
        rank = previous.rank if previous is not None and previous.out_in == key else i + 1
        standings.append(StandingRow(rank=rank, team=one, out_in=key))
    return standings, bracket


def _arena_standings(teams: dict[int, Team], pairings: list[_Tie]) -> list[StandingRow]:
    """Arena points over the ties in the order they ended (a tie stopped by staff, with
    no winner, is left out), as the services rank them."""
    results: dict[int, list[bool]] = {pk: [] for pk in teams}
    ended = sorted(
        (p for p in pairings if p.state == PairingState.FINISHED and p.winner_id is not None),
        key=lambda p: (p.finished_at is None, p.finished_at, p.pk),
    )
    for p in ended:
        for entry in (p.entry_a_id, p.entry_b_id):
            if entry in results:
                results[entry].append(entry == p.winner_id)
    return [
        StandingRow(
            rank=s.rank,
            team=teams[s.id],
            played=s.played,
            wins=s.wins,
            points=s.points,
            sheet=s.sheet,
            on_fire=s.on_fire,
        )
        for s in arena.arena_standings(list(results.items()))
    ]


def _duplicate_standings(teams: dict[int, Team], pairings: list[_Tie]) -> list[StandingRow]:
    """Each pair's average share of the top over the boards it played: the matchpoints
    of a board (stored as the tie's vp) over 2 × (tables of the round − 1)."""
    by_round: dict[int, list[_Tie]] = defaultdict(list)
    for p in pairings:
        if p.state == PairingState.FINISHED and p.entry_b_id is not None:
            by_round[p.round_id].append(p)
    shares: dict[int, list[float]] = {pk: [] for pk in teams}
    for tables in by_round.values():
        top = 2 * (len(tables) - 1)
        for p in tables:
            for entry, mp in ((p.entry_a_id, p.vp_a), (p.entry_b_id, p.vp_b)):
                if entry in shares:
                    shares[entry].append(100 * mp / top if top else 50.0)
    average = {pk: round(sum(v) / len(v), 6) if v else 0.0 for pk, v in shares.items()}
    order = sorted(teams, key=lambda pk: (-average[pk], -teams[pk].rating, pk))
    rows: list[StandingRow] = []
    for i, pk in enumerate(order):
        same = bool(rows) and average[order[i - 1]] == average[pk]
        rows.append(
            StandingRow(
                rank=rows[-1].rank if same else i + 1,
                team=teams[pk],
                played=len(shares[pk]),
                percent=round(average[pk], 1),
            )
        )
    return rows


def _final(entries: list[_EntryRow], teams: dict[int, Team]) -> list[StandingRow]:
    ranked = sorted((e for e in entries if e.rank is not None), key=lambda e: (e.rank or 0, e.pk))
    return [
        StandingRow(
            rank=e.rank or 0,
            team=teams[e.pk],
            prize_coins=e.prize_coins,
            prize_xp=e.prize_xp,
        )
        for e in ranked
    ]


def _own(ties: list[_Tie], mine: Team | None) -> _Tie | None:
    """The reader's tie among `ties` (None: not theirs, or no reader)."""
    if mine is None:
        return None
    return next((p for p in ties if mine.entry_id in (p.entry_a_id, p.entry_b_id)), None)


def _notice(
    tournament: Tournament,
    mine: Team | None,
    rounds: list[RoundView],
    standings: list[StandingRow],
    *,
    next_tie: _Tie | None = None,
) -> Notice | None:
    if mine is None:
        return None
    if tournament.state == TournamentState.FINISHED:
        final = next((s for s in standings if s.team.entry_id == mine.entry_id), None)
        if final is None:
            return None
        return Notice(
            kind="done",
            round=tournament.current_round,
            rank=final.rank,
            prize_coins=final.prize_coins,
            prize_xp=final.prize_xp,
        )
    if tournament.state != TournamentState.RUNNING or not rounds:
        return None
    current = rounds[-1]
    if tournament.format == Format.KNOCKOUT:
        for r in rounds:
            tie = r.mine
            if (
                tie is not None
                and tie.winner is not None
                and not tie.bye
                and (tie.winner == "a") != tie.team_a.mine
            ):
                return Notice(kind="out", round=r.number)
    if current.playing:
        row = current.mine
        if row is None:
            return Notice(kind="wait", round=current.number)
        if row.state == PairingState.FINISHED:
            return Notice(kind="wait", round=current.number, table=row.number)
        if row.bye and row.table_id is None:
            return Notice(kind="bye", round=current.number)
        return Notice(
            kind="bye" if row.bye else "play",
            round=current.number,
            table=row.number,
            table_id=row.table_id,
        )
    return Notice(
        kind="next",
        round=current.number + 1,
        at=current.next_starts_at,
        table=next_tie.number if next_tie is not None else None,
        bye=next_tie is not None and next_tie.entry_b_id is None,
    )


def _standings_shown(standings: list[StandingRow], *, everything: bool) -> list[StandingRow]:
    if everything or len(standings) <= STANDINGS_TOP + 2 * STANDINGS_AROUND + 1:
        return standings
    at = next((i for i, s in enumerate(standings) if s.team.mine), None)
    keep = set(range(STANDINGS_TOP))
    if at is not None:
        keep |= set(range(max(0, at - STANDINGS_AROUND), at + STANDINGS_AROUND + 1))
    return [s for i, s in enumerate(standings) if i in keep]


@dataclass(frozen=True)
class _Core:
    """What a tournament's page shows the same to every reader (teams with `mine`
    False): read and ranked once per change of the tournament, not once per poll."""

    entries: list[_EntryRow]
    teams: dict[int, Team]
    extra: dict[int, Team]
    rounds: list[Round]
    pairings: list[_Tie]
    #: The ties of the round paired ahead of its start (empty: none is).
    next_ties: list[_Tie]
    standings: list[StandingRow]
    bracket: list[BracketRound]


#: A computed core is kept this long at most (a change it cannot see: staff's edits).
CORE_KEEP_SECONDS = 30
#: The cores of the tournaments this process drew lately (kept here, not in the shared
#: cache: unpickling a 512-team core costs more than the poll should).
_cores: dict[int, tuple[tuple[Any, ...], float, _Core]] = {}
_CORES_KEPT = 32


def core_memo_clear() -> None:
    """Forget every kept core (tests)."""
    _cores.clear()


def _fingerprint(tournament: Tournament) -> tuple[Any, ...]:
    """One query whose answer changes whenever the core would: its entries, rounds and
    pairings (counts, newest rows, results). Far cheaper than the core: the page is
    polled by every entrant."""
    pairing, entry, round_ = (m._meta.db_table for m in (Pairing, Entry, Round))
    with connection.cursor() as cursor:
        cursor.execute(
            f"""
            SELECT p.*, e.*, r.* FROM
              (SELECT count(*), max(id), count(finished_at), max(finished_at), count(winner_id),
                      sum(points_a + points_b + vp_a + vp_b + wins_a + wins_b),
                      sum(CASE WHEN no_show_a OR no_show_b THEN 1 ELSE 0 END)
                 FROM {pairing} WHERE tournament_id = %s) AS p,
              (SELECT count(*), max(id), sum(CASE WHEN state = %s THEN 1 ELSE 0 END),
                      count(player_b_id), count(rank)
                 FROM {entry} WHERE tournament_id = %s) AS e,
              (SELECT count(*), count(started_at), count(finished_at), max(next_starts_at)
                 FROM {round_} WHERE tournament_id = %s) AS r
            """,
            [tournament.pk, EntryState.REGISTERED.value, tournament.pk, tournament.pk],
        )
        found = cursor.fetchone()
    return (tournament.state, tournament.current_round, tournament.created_at, *found)


def _core(tournament: Tournament) -> _Core:
    """The core as it stands: this process's kept one while nothing changed since."""
    fingerprint = _fingerprint(tournament)
    kept = _cores.get(tournament.pk)
    now = time.monotonic()
    if kept is not None and kept[0] == fingerprint and now - kept[1] < CORE_KEEP_SECONDS:
        return kept[2]
    core = _core_read(tournament)
    if len(_cores) >= _CORES_KEPT:
        _cores.pop(next(iter(_cores)), None)
    _cores[tournament.pk] = (fingerprint, now, core)
    return core


def _core_read(tournament: Tournament) -> _Core:
    entries = _entries(tournament)
    every_round = list(Round.objects.filter(tournament=tournament).order_by("number"))
    # A round paired ahead of its start is not drawn as a round yet: its ties give the
    # reader's next table (the notice) and the bracket's next ties.
    rounds = [r for r in every_round if r.state != RoundState.PAIRED]
    coming = next((r for r in every_round if r.state == RoundState.PAIRED), None)
    pairings = [
        _Tie(*row)
        for row in Pairing.objects.filter(tournament=tournament)
        .order_by("round_id", "number")
        .values_list(*_TIE_FIELDS)
    ]
    next_ties = [p for p in pairings if coming is not None and p.round_id == coming.pk]
    if coming is not None:
        pairings = [p for p in pairings if p.round_id != coming.pk]
    known = {e.pk for e in entries}
    wanted = {pk for p in pairings for pk in (p.entry_a_id, p.entry_b_id) if pk is not None}
    if tournament.state == TournamentState.FINISHED:
        ranked = _entry_rows(
            Entry.objects.filter(tournament=tournament, rank__isnull=False).exclude(pk__in=known)
        )
        entries += ranked
        known |= {e.pk for e in ranked}
    # Entries that played and left (withdrawn, merged) still name their tables.
    extra_entries = (
        _entry_rows(Entry.objects.filter(pk__in=wanted - known)) if wanted - known else []
    )
    names: dict[int, str] = {}
    for e in entries + extra_entries:
        names[e.player_a_id] = e.name_a
        if e.player_b_id is not None and e.name_b is not None:
            names[e.player_b_id] = e.name_b
    teams = {e.pk: _team(e, names, None) for e in entries}
    extra = {e.pk: _team(e, names, None) for e in extra_entries}

    def team(entry_id: int) -> Team:
        return teams.get(entry_id) or extra[entry_id]

    playing_teams = {pk: t for pk, t in teams.items() if not t.waiting}
    bracket: list[BracketRound] = []
    standings: list[StandingRow] = []
    if tournament.format == Format.KNOCKOUT and rounds:
        standings, bracket = _knockout(
            playing_teams,
            rounds + ([coming] if coming is not None else []),
            pairings + next_ties,
            team,
        )
    elif tournament.format == Format.SWISS and rounds:
        standings = _swiss_standings(playing_teams, pairings)
    elif tournament.format == Format.ARENA and rounds:
        standings = _arena_standings(playing_teams, pairings)
    elif tournament.format == Format.DUPLICATE and rounds:
        standings = _duplicate_standings(playing_teams, pairings)
    if tournament.state == TournamentState.FINISHED:
        standings = _final(entries, teams)
    return _Core(
        entries=entries,
        teams=teams,
        extra=extra,
        rounds=rounds,
        pairings=pairings,
        next_ties=next_ties,
        standings=standings,
        bracket=bracket,
    )


def _as_mine(team: Team | None, mine_id: int | None) -> Team | None:
    if team is None or mine_id is None or team.entry_id != mine_id:
        return team
    return replace(team, mine=True)


def tournament_page(
    *,
    tournament: Tournament,
    user_id: int | None,
    round_number: int | None = None,
    everything: bool = False,
) -> Page:
    """Everything the tournament's page shows (module docstring). `round_number`: the
    round whose tables are drawn in full (default: the current round, its first
    TABLES_SHOWN tables); `everything`: every row of the standings."""
    core = _core(tournament)
    mine_id = next(
        (pk for pk, t in core.teams.items() if user_id is not None and user_id in t.player_ids),
        None,
    )
    teams = dict(core.teams)
    mine = None
    if mine_id is not None:
        mine = teams[mine_id] = replace(teams[mine_id], mine=True)

    def team(entry_id: int) -> Team:
        return teams.get(entry_id) or core.extra[entry_id]

    current = core.rounds[-1].number if core.rounds else None
    shown_number = round_number if round_number is not None else current
    views = _rounds(
        core.rounds,
        core.pairings,
        team,
        shown_number=shown_number,
        mine=mine_id,
        limit=None if round_number is not None else TABLES_SHOWN,
    )
    standings = [
        replace(s, team=teams[mine_id]) if s.team.entry_id == mine_id else s for s in core.standings
    ]
    bracket = [
        replace(
            r,
            ties=[
                replace(
                    tie, team_a=_as_mine(tie.team_a, mine_id), team_b=_as_mine(tie.team_b, mine_id)
                )
                for tie in r.ties
            ],
        )
        for r in core.bracket
    ]
    shares = [int(s) for s in tournament.prize_shares or [] if int(s) > 0]
    total = sum(shares)
    return Page(
        tournament=tournament,
        teams=sorted(teams.values(), key=lambda t: (-t.rating, t.entry_id)),
        mine=mine,
        rounds=views,
        shown=next((v for v in views if v.number == shown_number), None),
        standings=standings,
        standings_shown=_standings_shown(standings, everything=everything),
        bracket=bracket,
        notice=_notice(tournament, mine, views, standings, next_tie=_own(core.next_ties, mine)),
        prizes=[
            (place, round(100 * share / total, 1)) for place, share in enumerate(shares, start=1)
        ],
    )


@dataclass(frozen=True)
class TablePanel:
    tournament: Tournament
    round: int
    table: int
    game: int
    team_a: Team
    team_b: Team | None
    wins_a: int
    wins_b: int
    points_a: int
    points_b: int
    best_of: int
    #: When the next round starts, once this one is over.
    next_starts_at: datetime | None
    #: The reader's table in the next round, once it is paired (None: not yet, not
    #: theirs, or a reader who does not play).
    next_table: int | None = None


def table_tournament(*, table_id: int, user_id: int | None) -> TablePanel | None:
    """The tournament, round and tie a tournament table belongs to (None: no such table)."""
    game = (
        Game.objects.filter(table_id=table_id)
        .select_related("pairing", "pairing__round", "pairing__tournament")
        .first()
    )
    if game is None:
        return None
    pairing = game.pairing
    entries = list(Entry.objects.filter(pk__in=[pairing.entry_a_id, pairing.entry_b_id]))
    names = _names(pk for e in entries for pk in e.player_ids)
    teams = {e.pk: _team(e, names, user_id) for e in entries}
    mine = next((t for t in teams.values() if t.mine), None)
    next_table = None
    if mine is not None and pairing.round.next_starts_at is not None:
        next_table = (
            Pairing.objects.filter(
                Q(entry_a_id=mine.entry_id) | Q(entry_b_id=mine.entry_id),
                tournament_id=pairing.tournament_id,
                round__number=pairing.round.number + 1,
            )
            .values_list("number", flat=True)
            .first()
        )
    return TablePanel(
        tournament=pairing.tournament,
        round=pairing.round.number,
        table=pairing.number,
        game=game.number,
        team_a=teams[pairing.entry_a_id],
        team_b=teams.get(pairing.entry_b_id) if pairing.entry_b_id is not None else None,
        wins_a=pairing.wins_a,
        wins_b=pairing.wins_b,
        points_a=pairing.points_a,
        points_b=pairing.points_b,
        best_of=pairing.tournament.best_of,
        next_starts_at=pairing.round.next_starts_at,
        next_table=next_table,
    )


def partner_choices(user_id: int) -> list[tuple[str, str]]:
    """The friends a player may enter with: (username, username) by name."""
    names = (
        User.objects.filter(pk__in=friend_ids(user_id), is_active=True)
        .order_by("username")
        .values_list("username", flat=True)
    )
    return [(name, name) for name in names]


#: How many of a player's finished tournaments their page lists (newest first).
PLAYER_PAGE_TOURNAMENTS = 10


@dataclass(frozen=True)
class PlayedRow:
    """One finished tournament on a player's page: where their team finished."""

    tournament_id: int
    name: str
    finished_at: datetime | None
    partner: str | None
    rank: int | None
    teams: int
    prize_coins: int
    prize_xp: int


def player_section(*, player: Any, viewer: Any) -> PlayerSection:
    """The player page's panel (history.hooks): the tournaments the player finished, how
    many, their best place, and the last ones with place, partner and prize."""
    teams = (
        Entry.objects.filter(tournament=OuterRef("tournament"), state=EntryState.REGISTERED)
        .values("tournament")
        .annotate(n=Count("pk"))
        .values("n")
    )
    played = Entry.objects.filter(
        Q(player_a=player) | Q(player_b=player),
        state=EntryState.REGISTERED,
        tournament__state=TournamentState.FINISHED,
    )
    best = played.filter(rank__isnull=False).order_by("rank").values_list("rank", flat=True).first()
    rows = [
        PlayedRow(
            tournament_id=entry.tournament_id,
            name=entry.tournament.name,
            finished_at=entry.tournament.finished_at,
            partner=(
                entry.player_b.username
                if entry.player_a_id == player.pk and entry.player_b is not None
                else entry.player_a.username
                if entry.player_a_id != player.pk
                else None
            ),
            rank=entry.rank,
            teams=entry.teams or 0,
            prize_coins=entry.prize_coins,
            prize_xp=entry.prize_xp,
        )
        for entry in played.select_related("tournament", "player_a", "player_b")
        .annotate(teams=Subquery(teams))
        .order_by("-tournament__finished_at", "-pk")[:PLAYER_PAGE_TOURNAMENTS]
    ]
    return PlayerSection(
        template="tournaments/player_section.html",
        context={"played": played.count(), "best": best, "rows": rows},
    )


#: A club page's tournaments: those to come and playing, and the last ones played.
CLUB_FINISHED_SHOWN = 5


@dataclass(frozen=True)
class ClubTournaments:
    coming: list[Tournament]
    finished: list[Tournament]


def club_tournaments(club_id: int) -> ClubTournaments:
    """A club's tournaments for its page: to come and running (soonest first), and the
    last CLUB_FINISHED_SHOWN finished or cancelled (one query each)."""
    rows = Tournament.objects.filter(club_id=club_id).annotate(
        teams=Count(
            "entries",
            filter=Q(entries__state=EntryState.REGISTERED, entries__player_b__isnull=False),
        )
    )
    ended = (TournamentState.FINISHED, TournamentState.CANCELLED)
    return ClubTournaments(
        coming=list(rows.exclude(state__in=ended).order_by("starts_at", "pk")),
        finished=list(
            rows.filter(state__in=ended).order_by("-starts_at", "-pk")[:CLUB_FINISHED_SHOWN]
        ),
    )


def club_section(*, club: Any, user: Any, membership: Any) -> ClubSection:
    """The club page's tournaments panel (clubs.hooks): the club's tournaments, and for
    its owner and admins the link to schedule one."""
    return ClubSection(
        template="tournaments/club_section.html",
        context={
            "club": club,
            "tournaments": club_tournaments(club.pk),
            "can_schedule": is_admin(membership),
            "member": membership is not None,
        },
    )


def club_run_by(club_id: Any, user_id: int | None) -> Any:
    """The open club `club_id` if `user_id` is its owner or an admin, else None."""
    club = club_by_id(club_id)
    if club is None or not club.is_open or user_id is None:
        return None
    return club if is_admin(membership_of(club.pk, user_id)) else None
