"""Reads for pages and sockets."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    OuterRef,
    Q,
    Subquery,
    Sum,
    Value,
    When,
)
from django.db.models.functions import Abs, Coalesce, TruncMinute

from economy.models import Currency
from games import hooks
from games.frames import player_names
from games.models import (
    LIVE_STATUSES,
    BotLevel,
    Invitation,
    InvitationStatus,
    Match,
    MatchAction,
    MatchSeat,
    MatchStatus,
    Mode,
    Seat,
    SeatKind,
    Table,
    TableStatus,
    TalkLine,
)
from games.modes import mode_policy, stake_expressions
from games.sockets import live_frames
from games.state import engine_match, record_from_log
from games.talk import PHRASES


@dataclass(frozen=True)
class Access:
    """How a user may see a table: from their seat, or as a spectator (position None)."""

    table: Table
    position: int | None


#: Why a user who may see a table is refused as its watcher (`watch_refusal`); the
#: socket closes with 4433 and 4436 (docs/watching.md).
FORBIDDEN = "forbidden"
PLAYING_ELSEWHERE = "playing_elsewhere"


def table_access(*, user: Any, table_id: int) -> Access | None:
    """Seated players see their seat; staff, invitees and, where the mode opens the
    table to watchers, anyone signed in watch; anyone else sees nothing
    (docs/watching.md, "Who may watch a table"). A watcher may still be refused
    (`watch_refusal`)."""
    table = Table.objects.select_related("owner").filter(pk=table_id).first()
    if table is None:
        return None
    seat = Seat.objects.filter(table=table, user=user).first()
    if seat is not None:
        return Access(table, seat.position)
    if may_watch(user=user, table=table):
        return Access(table, None)
    return None


def _invited(*, user: Any, table: Table) -> bool:
    """An invitation still waiting for an answer: one declined, cancelled or accepted
    (the invitee sat down, and may have left since) gives no view of the room."""
    return Invitation.objects.filter(
        table=table, to_user=user, status=InvitationStatus.PENDING
    ).exists()


def may_watch(*, user: Any, table: Table) -> bool:
    """Whether `user`, not seated at `table`, may see it as a watcher: staff, someone
    invited to the room, or anyone at a table its mode opens to watchers (online and
    stake tables, a friends room its owner opened)."""
    return (
        user.is_staff
        or mode_policy(table.mode).open_to_watch(table=table)
        or _invited(user=user, table=table)
    )


def watchable(table: Table, seats: list[Seat]) -> bool:
    """Open to watchers by the rules: the mode opens the table to them and none of its
    players forbade them when they sat. Staff and a room's invitees watch anyway."""
    return mode_policy(table.mode).open_to_watch(table=table) and not any(
        seat.forbids_watchers for seat in seats
    )


def playing_elsewhere(*, user: Any, table: Table) -> bool:
    """The user holds a live seat at another table whose match is being played (a user
    waiting at an open table is not playing)."""
    return (
        Seat.objects.filter(
            user_id=user.pk, live=True, abandoned=False, table__status=TableStatus.PLAYING
        )
        .exclude(table_id=table.pk)
        .exists()
    )


def watch_refusal(*, user: Any, table: Table, seats: list[Seat] | None = None) -> str | None:
    """Why `user` may not watch `table` now (they may see it: `table_access`), or None:
    FORBIDDEN (a player forbade watchers, or the room is closed to them: a room's
    invitees are not refused for that; or a player here blocked the user),
    PLAYING_ELSEWHERE (their own match is being played at another table). Staff are
    never refused, nor is a player seated here (they see their seat). `seats`: the
    table's, when the caller read them already."""
    if user.is_staff:
        return None
    if seats is None:
        seats = list(Seat.objects.filter(table=table))
    if any(seat.user_id == user.pk for seat in seats):
        return None
    if not watchable(table, seats) and not _invited(user=user, table=table):
        return FORBIDDEN
    players = [seat.user_id for seat in seats if seat.user_id is not None]
    if hooks.blocked_by_any(user.pk, players):
        # A player you blocked cannot watch your table; told as a forbidden table,
        # so that a block is never revealed (docs/social.md).
        return FORBIDDEN
    if playing_elsewhere(user=user, table=table):
        return PLAYING_ELSEWHERE
    return None


@dataclass(frozen=True)
class Admission:
    """What a table socket learns before it opens (one database call): whether the
    user may see the table and from which seat, whether they are banned, why they may
    not watch it (`watch_refusal`), and for a watcher whose talk it must not show."""

    found: bool
    position: int | None = None
    banned: bool = False
    refusal: str | None = None
    talk_blocked: frozenset[int] = frozenset()
    talk_hidden: bool = False


def table_admission(*, user: Any, table_id: int) -> Admission:
    """The checks a table socket makes before joining anything (games/sockets/consumers.py)."""
    from accounts.selectors import ban_in_force

    access = table_access(user=user, table_id=table_id)
    if access is None:
        return Admission(found=False)
    banned = ban_in_force(user.pk) is not None
    if access.position is not None or banned:
        return Admission(found=True, position=access.position, banned=banned)
    blocked, hidden = hooks.watcher_talk_filter(user.pk)
    return Admission(
        found=True,
        refusal=watch_refusal(user=user, table=access.table),
        talk_blocked=blocked,
        talk_hidden=hidden,
    )


def table_seats(table: Table) -> list[Seat]:
    return list(Seat.objects.filter(table=table).select_related("user").order_by("position"))


def latest_match(table: Table) -> Match | None:
    return Match.objects.filter(table=table).order_by("-pk").first()


@contextmanager
def snapshot() -> Iterator[None]:
    """Reads that must agree with each other (which seat a user holds, and that seat's
    cards): one transaction that sees the database as it was at its first read
    (REPEATABLE READ on PostgreSQL, where each statement of a READ COMMITTED
    transaction would see the commits made meanwhile; a SQLite transaction reads one
    snapshot already). Inside a transaction already, its reads are the caller's to
    keep consistent (a service holding the table's lock does)."""
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
        yield


def state_frame(
    *, table: Table, seats: list[Seat], match: Match | None, position: int | None
) -> dict[str, Any]:
    """The full `state` frame of one seat (or the spectators') from rows read together."""
    engine = engine_match(match) if match is not None else None
    return live_frames.build_frame(
        kind="state",
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        position=position,
        outcome=match_outcome(match, mode=table.mode),
    )


def table_frame(*, table_id: int, position: int | None) -> dict[str, Any]:
    """The full state frame for one seat (or spectators), as the table page draws it
    first. The caller reads `position` in the same snapshot (views.table_page)."""
    table = Table.objects.select_related("owner").get(pk=table_id)
    return state_frame(
        table=table, seats=table_seats(table), match=latest_match(table), position=position
    )


@dataclass(frozen=True)
class SeatFrame:
    """A `state` frame and the seat it was built for, read in one snapshot."""

    frame: dict[str, Any]
    position: int | None  # None: the spectators' frame
    seat_id: int | None


def seat_frame(*, table_id: int, user: Any) -> SeatFrame | None:
    """The full state for the seat `user` holds as it is read, or the spectators' when
    they hold none (`user` None: the spectators'); None when there is no such table.
    A socket's `sync`: the position may have changed since the socket last heard."""
    with snapshot():
        table = Table.objects.select_related("owner").filter(pk=table_id).first()
        if table is None:
            return None
        seats = table_seats(table)
        seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
        position = seat.position if seat is not None else None
        frame = state_frame(table=table, seats=seats, match=latest_match(table), position=position)
    return SeatFrame(frame, position, seat.pk if seat is not None else None)


def tables_unlisted(*, table_ids: list[int], process: str) -> list[int]:
    """Of these tables, those whose row does not list web process `process` among its
    listeners (games/sockets/listeners.py); a table deleted meanwhile is left out."""
    rows = Table.objects.filter(pk__in=table_ids).values_list("pk", "listeners")
    return sorted(pk for pk, listeners in rows if process not in listeners.split())


def user_balances(user_ids: list[int]) -> dict[int, dict[str, int]]:
    """Each user's coins, XP and level (what the navigation shows), by user id."""
    from economy.levels import level_progress
    from economy.selectors import balances

    return {
        user_id: {
            "coins": amounts[Currency.COINS],
            "xp": amounts[Currency.XP],
            "level": level_progress(amounts[Currency.XP]).level,
        }
        for user_id in user_ids
        for amounts in [balances(user_id)]
    }


def match_outcome(match: Match | None, *, mode: str | None = None) -> dict[str, Any] | None:
    """A finished match's places, with the coins and XP each player earned (from the
    ledger) and the players' balances now; None while it is not finished.

    `coins` and `xp` are None where nothing could be earned: a bot's seat, and every
    seat in a mode that pays nothing (practice). `mode` is the table's (read from the
    match when not given)."""
    if match is None or match.status != MatchStatus.FINISHED:
        return None
    from economy.selectors import match_rewards

    pays = mode_policy(mode or match.table.mode).reward_rate() is not None
    rows = list(match.match_seats.order_by("position"))
    rewards = match_rewards([match.pk]) if pays else {}
    ratings = hooks.match_ratings(match.pk)
    places = []
    for ms in rows:
        earns = pays and ms.user_id is not None and not ms.is_bot
        got = rewards.get((match.pk, ms.user_id), {}) if earns else {}
        places.append(
            {
                "position": ms.position,
                "place": ms.place,
                "won": bool(ms.won),
                "abandoned": ms.abandoned,
                "personal_points": ms.personal_points,
                "tricks": ms.tricks_won,
                "coins": got.get("coins", 0) if earns else None,
                "xp": got.get("xp", 0) if earns else None,
                # before, after, change, provisional; None where the seat was not rated
                "rating": ratings.get(ms.position),
            }
        )
    humans = [ms.user_id for ms in rows if ms.user_id and not ms.is_bot]
    return {
        "winner": match.winner,
        "scores": [match.score_a, match.score_b],
        "places": places,
        "balances": user_balances(humans),
    }


def live_table_for(user: Any) -> Table | None:
    """The live table the user sits at, if any (there is at most one)."""
    seat = (
        Seat.objects.filter(user=user, live=True, table__status__in=LIVE_STATUSES)
        .select_related("table")
        .first()
    )
    return seat.table if seat is not None else None


def live_tables_of(user_ids: list[int]) -> dict[int, str]:
    """The mode of the live table each of these users sits at (those at none left out)."""
    rows = Seat.objects.filter(
        user_id__in=user_ids, live=True, table__status__in=LIVE_STATUSES
    ).values_list("user_id", "table__mode")
    return dict(rows)


def live_table_ids_of(user_ids: list[int]) -> dict[int, int]:
    """The id of the live table each of these users sits at (those at none left out)."""
    rows = Seat.objects.filter(
        user_id__in=user_ids, live=True, table__status__in=LIVE_STATUSES
    ).values_list("user_id", "table_id")
    return dict(rows)


def pending_invitations(user: Any) -> list[Invitation]:
    return list(
        Invitation.objects.filter(
            to_user=user, status=InvitationStatus.PENDING, table__status__in=LIVE_STATUSES
        )
        .select_related("from_user", "table")
        .order_by("-created_at")
    )


def room_invitations(table: Table) -> list[Invitation]:
    return list(
        Invitation.objects.filter(table=table)
        .filter(Q(status=InvitationStatus.PENDING) | Q(status=InvitationStatus.DECLINED))
        .select_related("to_user")
        .order_by("created_at")
    )


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as it was stored: the row (with its table), its seats by
    position (with their players), its engine record rebuilt from the deals and
    the action log (no hands for a match stored without them), and each seat's
    name as the table named it."""

    match: Match
    seats: list[MatchSeat]
    record: dict[str, Any]
    names: list[str | None]


def finished_match(match_id: int) -> FinishedMatch | None:
    """The finished match `match_id`, or None for any other (live, aborted, unknown):
    a live match's cards never leave here. Four queries."""
    match = (
        Match.objects.select_related("table")
        .filter(pk=match_id, status=MatchStatus.FINISHED)
        .first()
    )
    if match is None:
        return None
    seats = list(match.match_seats.select_related("user").order_by("position"))
    names = player_names(
        seed=match.seed,
        people={seat.position: seat.user.username for seat in seats if seat.user is not None},
        bots=[seat.position for seat in seats if seat.user is None and seat.is_bot],
    )
    return FinishedMatch(match=match, seats=seats, record=record_from_log(match), names=names)


def match_names(match_ids: list[int]) -> dict[int, list[str | None]]:
    """The name of each seat of these matches, by match id then position, as the table
    showed them (`games.frames.player_names`: people by username, bots by the name drawn
    from the match's seed). One query."""
    people: dict[int, dict[int, str]] = {}
    bots: dict[int, list[int]] = {}
    seeds: dict[int, int] = {}
    for match_id, seed, position, username, is_bot in MatchSeat.objects.filter(
        match_id__in=match_ids
    ).values_list("match_id", "match__seed", "position", "user__username", "is_bot"):
        seeds[match_id] = seed
        if username is not None:
            people.setdefault(match_id, {})[position] = username
        elif is_bot:
            bots.setdefault(match_id, []).append(position)
    return {
        match_id: player_names(
            seed=seed, people=people.get(match_id, {}), bots=bots.get(match_id, [])
        )
        for match_id, seed in seeds.items()
    }


def match_players(match_id: int) -> set[int]:
    """The ids of the people who played the match (registered for accounts' reports)."""
    return set(
        MatchSeat.objects.filter(match_id=match_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )


def talk_transcript(match_id: int, *, watchers: bool = True) -> list[dict[str, Any]]:
    """What was said with this match, in order (`seat`: None for a watcher's line,
    said to the other watchers only; `phrase`: an id of games.talk; `text`: free
    text; `step`: the moves made by then, the replay's step): a report's transcript
    (every line), the replay's timeline (`watchers` False: the players' lines only,
    as the players saw them). One query."""
    lines = TalkLine.objects.filter(match_id=match_id)
    if not watchers:
        lines = lines.filter(position__isnull=False)
    return [
        {
            "at": line.created_at,
            "seat": line.position,
            "name": line.user.username,
            "phrase": line.phrase or None,
            "text": line.text or None,
            # the replay's step it was said at: the moves made by then
            "step": line.step or 0,
        }
        for line in lines.annotate(
            step=Subquery(
                MatchAction.objects.filter(
                    match_id=match_id, created_at__lte=OuterRef("created_at")
                )
                .order_by()
                .values("match_id")
                .annotate(n=Count("pk"))
                .values("n")
            )
        )
        .select_related("user")
        .order_by("created_at", "pk")
    ]


def talk_said(match_id: int, *, watchers: bool = True) -> list[dict[str, Any]]:
    """The transcript with each line as said: a phrase in the active language, free
    text as written (`watchers` as for `talk_transcript`)."""
    lines = talk_transcript(match_id, watchers=watchers)
    for line in lines:
        phrase = PHRASES.get(line["phrase"] or "")
        line["said"] = str(phrase.label) if phrase is not None else line["text"]
    return lines


# --- Tables in play, for watchers (docs/watching.md, "Pages") -----------------------


@dataclass(frozen=True)
class PlayerInPlay:
    """A seat of a table in play as the list shows it: the name the table shows,
    the rating (`value`, `provisional`, `bot`: the shape of games/rating.html; None
    when ratings are off) and, for a bot, its level."""

    position: int
    name: str
    rating: dict[str, Any] | None
    bot_level: str | None
    bot_level_label: str | None


@dataclass(frozen=True)
class TableInPlay:
    table_id: int
    mode: str
    mode_label: str
    #: Seats 1 and 3 (positions 0, 2), then seats 2 and 4 (positions 1, 3).
    pairs: tuple[list[PlayerInPlay], list[PlayerInPlay]]
    #: The match score of each pair, in the order of `pairs`.
    scores: tuple[int, int]
    hand_no: int
    #: The coins each player staked (None: no stake).
    stake: int | None
    #: The sum of the four ratings (bots at their level's): the first sort key.
    rating: int


def tables_in_play(limit: int = 50) -> list[TableInPlay]:
    """The tables anyone signed in may watch now: online and stake tables being played
    where no player forbade watchers, and friends rooms their owner opened to watch.

    Sorted so the most interesting come first: the highest combined rating (bots at
    their level's fixed rating), then the closer score, then the bigger stake, then
    the newest table. Two queries: the tables with their match's score and hand, the
    combined rating and the stake (sorted and cut in the database), then their seats."""
    playing = Match.objects.filter(table=OuterRef("pk"), status=MatchStatus.PLAYING).order_by("-pk")
    forbidden = Seat.objects.filter(table=OuterRef("pk"), forbids_watchers=True)
    bot_ratings = {level: hooks.bot_rating(level) for level in BotLevel.values}
    bot_rating = Case(
        *(When(bot_level=level, then=Value(value or 0)) for level, value in bot_ratings.items()),
        default=Value(0),
        output_field=IntegerField(),
    )
    stakes = stake_expressions()
    stake: Any = (
        Value(None, output_field=IntegerField())
        if not stakes
        else stakes[0]
        if len(stakes) == 1
        else Coalesce(*stakes, output_field=IntegerField())
    )
    rows = list(
        Table.objects.filter(status=TableStatus.PLAYING)
        .filter(
            (Q(mode__in=[Mode.ONLINE, Mode.STAKE]) & ~Exists(forbidden))
            | Q(mode=Mode.FRIENDS, open_to_watch=True)
        )
        .annotate(
            humans=Coalesce(Sum("seats__rating", filter=Q(seats__kind=SeatKind.HUMAN)), Value(0)),
            bots=Count("seats", filter=Q(seats__kind=SeatKind.BOT)),
        )
        .annotate(
            score_a=Subquery(playing.values("score_a")[:1]),
            score_b=Subquery(playing.values("score_b")[:1]),
            hand_no=Subquery(playing.values("hand_no")[:1]),
            seed=Subquery(playing.values("seed")[:1]),
            combined=F("humans") + F("bots") * bot_rating,
            stake=stake,
        )
        .filter(seed__isnull=False)
        .annotate(gap=Abs(F("score_a") - F("score_b")))
        .order_by("-combined", "gap", F("stake").desc(nulls_last=True), "-pk")
        .values(
            "pk", "mode", "bot_level", "score_a", "score_b", "hand_no", "seed", "combined", "stake"
        )[:limit]
    )
    seats: dict[int, list[tuple[int, str, str | None, int | None, bool]]] = {}
    for table_id, *seat in (
        Seat.objects.filter(table_id__in=[row["pk"] for row in rows])
        .order_by("table_id", "position")
        .values_list(
            "table_id", "position", "kind", "user__username", "rating", "rating_provisional"
        )
    ):
        seats.setdefault(table_id, []).append(tuple(seat))  # type: ignore[arg-type]
    listed = []
    for row in rows:
        at = seats.get(row["pk"], [])
        names = player_names(
            seed=row["seed"],
            people={pos: name for pos, _kind, name, _r, _p in at if name is not None},
            bots=[pos for pos, kind, _name, _r, _p in at if kind == SeatKind.BOT],
        )
        players = {}
        for pos, kind, _name, rating, provisional in at:
            bot = kind == SeatKind.BOT
            value = bot_ratings[row["bot_level"]] if bot else rating
            players[pos] = PlayerInPlay(
                position=pos,
                name=names[pos] or "",
                rating=None
                if value is None
                else {"value": value, "provisional": provisional and not bot, "bot": bot},
                bot_level=row["bot_level"] if bot else None,
                bot_level_label=str(BotLevel(row["bot_level"]).label) if bot else None,
            )
        listed.append(
            TableInPlay(
                table_id=row["pk"],
                mode=row["mode"],
                mode_label=str(Mode(row["mode"]).label),
                pairs=(
                    [players[p] for p in (0, 2) if p in players],
                    [players[p] for p in (1, 3) if p in players],
                ),
                scores=(row["score_a"], row["score_b"]),
                hand_no=row["hand_no"],
                stake=row["stake"],
                rating=row["combined"],
            )
        )
    return listed


# --- What operators watch (cuatrola_site/monitoring.py) ------------------------------


def tables_playing_by_mode() -> dict[str, int]:
    """Tables with a match in play, by mode (every mode present, 0 when none)."""
    counts = dict.fromkeys(Mode.values, 0)
    rows = (
        Table.objects.filter(status=TableStatus.PLAYING)
        .values_list("mode")
        .annotate(n=Count("pk"))
        .order_by()
    )
    counts.update(dict(rows))
    return counts


def moves_by_minute(since: datetime) -> dict[datetime, int]:
    """Moves applied since `since`, counted by the minute they were made in."""
    rows = (
        MatchAction.objects.filter(created_at__gte=since)
        .annotate(minute=TruncMinute("created_at"))
        .values_list("minute")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return dict(rows)


@dataclass(frozen=True)
class FinishedSince:
    matches: dict[str, int]  # by mode
    seats: int  # human seats of those matches
    abandoned: int  # of which abandoned


def finished_since(since: datetime) -> FinishedSince:
    """Matches finished since `since`, by mode, and how many of their players'
    seats were abandoned."""
    matches = dict.fromkeys(Mode.values, 0)
    rows = (
        Match.objects.filter(finished_at__gte=since, status=MatchStatus.FINISHED)
        .values_list("table__mode")
        .annotate(n=Count("pk"))
        .order_by()
    )
    matches.update(dict(rows))
    seats = MatchSeat.objects.filter(
        match__finished_at__gte=since, match__status=MatchStatus.FINISHED, is_bot=False
    ).aggregate(n=Count("pk"), abandoned=Count("pk", filter=Q(abandoned=True)))
    return FinishedSince(matches=matches, seats=seats["n"], abandoned=seats["abandoned"])
