"""Pairs of players who sat at the same matches, for the fair-play screen
(docs/fairplay.md): who played together often in a window, how many matches each
played, and the matches a pair shared, from the history's own `PlayerMatch` rows
(one per person per finished match, with the partner and the opponents on it)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Count, QuerySet

from history.models import Outcome, PlayerMatch

#: User ids per `IN (…)` list.
CHUNK = 5000


@dataclass(frozen=True)
class PairTogether:
    """Two players (`a` the lower id) and their matches together in a window."""

    a: int
    b: int
    partners: int
    opponents: int

    @property
    def together(self) -> int:
        return self.partners + self.opponents


def pairs_together(
    *, since: datetime, until: datetime, modes: Sequence[str], minimum: int
) -> list[PairTogether]:
    """Every pair of people who sat at `minimum` or more of the same finished matches of
    these modes between `since` (inclusive) and `until`, as partners or opponents.

    Plain SQL, one statement (docs/architecture.md, "Plain SQL": what the ORM cannot
    say): a match's pair is counted once, from the row of its lower id (the partner,
    then each opponent, as columns of that row), all three grouped together.
    """
    if not modes:
        return []
    line = PlayerMatch._meta.db_table
    user = PlayerMatch._meta.get_field("user").column
    partner = PlayerMatch._meta.get_field("partner").column
    first = PlayerMatch._meta.get_field("opponent_1").column
    second = PlayerMatch._meta.get_field("opponent_2").column
    slots = ", ".join(["%s"] * len(modes))
    where = f"finished_at >= %s AND finished_at < %s AND mode IN ({slots})"
    bounds = [
        connection.ops.adapt_datetimefield_value(since),
        connection.ops.adapt_datetimefield_value(until),
        *modes,
    ]
    parts = [
        f"SELECT {user} AS a, {other} AS b, {kind} AS partners FROM {line} "
        f"WHERE {where} AND {other} > {user}"
        for other, kind in ((partner, 1), (first, 0), (second, 0))
    ]
    sql = (
        "SELECT a, b, SUM(partners), COUNT(*) - SUM(partners) FROM ("
        + " UNION ALL ".join(parts)
        + ") AS together GROUP BY a, b HAVING COUNT(*) >= %s ORDER BY a, b"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [*bounds, *bounds, *bounds, minimum])
        rows = cursor.fetchall()
    return [PairTogether(a, b, int(partners), int(opponents)) for a, b, partners, opponents in rows]


def matches_played(
    *, user_ids: Iterable[int], since: datetime, until: datetime, modes: Sequence[str]
) -> dict[int, int]:
    """How many finished matches of these modes each player played in the window."""
    counted: dict[int, int] = {}
    for lines in _lines_of(user_ids, since, until, modes):
        rows = lines.values("user_id").annotate(n=Count("pk")).values_list("user_id", "n")
        counted.update(rows)
    return counted


def _lines_of(
    user_ids: Iterable[int], since: datetime, until: datetime, modes: Sequence[str]
) -> Iterator[QuerySet[PlayerMatch]]:
    """These players' lines of the window, CHUNK players a query."""
    ids = sorted(set(user_ids))
    for start in range(0, len(ids), CHUNK):
        yield PlayerMatch.objects.filter(
            user_id__in=ids[start : start + CHUNK],
            finished_at__gte=since,
            finished_at__lt=until,
            mode__in=modes,
        )


@dataclass(frozen=True)
class SharedMatch:
    """A finished match two players (`a` the lower id) sat at together."""

    match_id: int
    partners: bool
    #: A's pair won it (A won it; or A abandoned it and took place 1 or 2, the
    #: winning pair's places).
    a_won: bool
    mode: str
    finished_at: datetime


def shared_matches(
    *, pairs: Iterable[tuple[int, int]], since: datetime, until: datetime, modes: Sequence[str]
) -> dict[tuple[int, int], list[SharedMatch]]:
    """The matches of these modes each pair (lower id first) shared in the window,
    newest first, read from the lower ids' rows."""
    wanted: dict[int, set[int]] = {}
    for a, b in pairs:
        wanted.setdefault(min(a, b), set()).add(max(a, b))
    found: dict[tuple[int, int], list[SharedMatch]] = {}
    for lines in _lines_of(wanted, since, until, modes):
        rows = lines.order_by("-finished_at", "-match_id").values_list(
            "match_id",
            "user_id",
            "partner_id",
            "opponent_1_id",
            "opponent_2_id",
            "outcome",
            "place",
            "mode",
            "finished_at",
        )
        for match_id, a, partner, first, second, outcome, place, mode, finished in rows.iterator():
            for b, partners in ((partner, True), (first, False), (second, False)):
                if b is not None and b in wanted[a]:
                    won = outcome == Outcome.WON or (
                        outcome == Outcome.ABANDONED and place is not None and place <= 2
                    )
                    shared = SharedMatch(match_id, partners, won, mode, finished)
                    found.setdefault((a, b), []).append(shared)
    return found
