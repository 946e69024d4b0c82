"""Tables in play, for watchers (docs/watching.md, "Pages")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
from django.db.models.functions import Abs, Coalesce

from games import hooks
from games.frames.builder import player_names
from games.models import BotLevel, Match, MatchStatus, Mode, Seat, SeatKind, Table, TableStatus
from games.modes import stake_expressions


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
