"""Which waiting players the online queue seats together: a pure function over the
waiting list (no database, no clock), so that each rule is tested on crafted lists.

- Four people sit together only when their ratings are close: the spread (highest
  minus lowest rating) must be within what the longest waiting of them accepts,
  `SPREAD_AT_ONCE` points at once, `SPREAD_PER_SECOND` more for every second
  waited, and any spread once they have waited the bot fill time (20 s).
- Among the groups allowed, the closest four are seated first (smallest spread;
  equal spreads: the group with the longest waiting player), then again among the
  rest. The four closest in rating are always neighbours in rating order, so the
  candidates are the windows of four in that order.
- Each table is split into the most balanced pairs: the strongest with the
  weakest, the two middle ones together.
- Those left over are seated with bots (at the bots' fixed rating) once the
  longest waiting of them has waited the bot fill time.

- Two people of whom one blocked the other, or whose accounts are linked (the
  caller's `blocked`, pairs of keys), never sit at one table, as partners or
  opponents: a candidate group is the window of four in
  rating order, or, when that window holds such a pair, the closest four from its
  first player on that hold none. Those left over once the bot fill time is up are
  split into tables with bots that hold no such pair (one alone with three bots at
  worst): bots are always another choice, so a blocked pair is never seated.

Partners (docs/online.md, "Partners in the queue"):

- Two who queued together (each `partner` naming the other) sit together as one
  pair, a *duo*. So do two waiting alone of whom one marked the other "prefer as
  partner" (`prefer`, marker then marked) when neither blocked nor avoids the other:
  mutual marks first, then the mark of the longest waiting. A duo whose two are a
  blocked (or linked) pair is no duo: they wait alone.
- A duo faces another duo or two players waiting alone (who become partners). Its
  rating is its two players' mean; the table's spread is the gap between the two
  sides' ratings (and, for two alone, the gap between them too), accepted as
  above. Among all the allowed tables (fours of players alone, duo against duo,
  duo against two) the closest is seated first, then again.
- Two of whom one marked the other "avoid as partner" (`avoid`) are never made
  partners by the queue: a four is split into its most balanced pairs that hold no
  such two (a four that has none is not seated), and bots (always another choice)
  partner them otherwise. They may still sit at one table as opponents.
- Once the longest waiting has waited the bot fill time, those left over (duos
  kept together) are split into tables with bots holding no blocked pair and no
  avoided partners.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from itertools import pairwise

#: The rating spread accepted at once, and how much more for each second waited.
SPREAD_AT_ONCE = 150
SPREAD_PER_SECOND = 50
SEATS = 4


@dataclass(frozen=True)
class Waiting:
    """A person in the queue: `key` names them to the caller (the user id)."""

    key: int
    rating: int
    joined_at: datetime
    #: The key of the registered partner they queued with (both rows name each
    #: other), None alone.
    partner: int | None = None


@dataclass(frozen=True)
class Seating:
    """One table: two pairs of two, each player a Waiting or None for a bot. The
    first pair sits on seats 0 and 2 or 1 and 3 (the caller draws which)."""

    pairs: tuple[tuple[Waiting | None, Waiting | None], tuple[Waiting | None, Waiting | None]]

    @property
    def people(self) -> list[Waiting]:
        return [w for pair in self.pairs for w in pair if w is not None]


def spread_accepted(waited_seconds: float, *, fill_after_seconds: float) -> float:
    """The rating spread a player who has waited this long accepts."""
    if waited_seconds >= fill_after_seconds:
        return math.inf
    return SPREAD_AT_ONCE + SPREAD_PER_SECOND * max(0.0, waited_seconds)


Pair = tuple[Waiting | None, Waiting | None]
Kept = frozenset[frozenset[int]]


def pairs_balanced(
    players: Sequence[Waiting | None], *, bot_rating: int, apart: Kept = frozenset()
) -> tuple[Pair, Pair]:
    """The most balanced split of four (None: a bot at `bot_rating`): the strongest
    with the weakest against the two in the middle; when `apart` holds those two
    partners, the next most balanced split that holds none. ValueError when every
    split does (`split_apart` says first)."""
    found = split_apart(players, bot_rating=bot_rating, apart=apart)
    if found is None:
        raise ValueError("every split of these four makes partners of two kept apart")
    return found


def split_apart(
    players: Sequence[Waiting | None], *, bot_rating: int, apart: Kept = frozenset()
) -> tuple[Pair, Pair] | None:
    """`pairs_balanced`, or None when every split of the four makes partners of two
    that `apart` holds."""
    if len(players) != SEATS:
        raise ValueError(f"a table has {SEATS} players, not {len(players)}")

    def rating(w: Waiting | None) -> int:
        return bot_rating if w is None else w.rating

    first, second, third, fourth = sorted(players, key=rating, reverse=True)
    for split in (
        ((first, fourth), (second, third)),
        ((first, third), (second, fourth)),
        ((first, second), (third, fourth)),
    ):
        if not apart or all(not _kept(pair, apart) for pair in split):
            return split
    return None


def _kept(pair: Pair, apart: Kept) -> bool:
    a, b = pair
    return a is not None and b is not None and frozenset((a.key, b.key)) in apart


def _allowed(group: Sequence[Waiting], now: datetime, fill_after_seconds: float) -> bool:
    spread = group[-1].rating - group[0].rating  # the group is in rating order
    accepted = max(
        spread_accepted((now - w.joined_at).total_seconds(), fill_after_seconds=fill_after_seconds)
        for w in group
    )
    return spread <= accepted


def _conflict(w: Waiting, group: Iterable[Waiting], blocked: Kept) -> bool:
    return any(frozenset((w.key, g.key)) in blocked for g in group)


@dataclass
class _Duo:
    """Two who sit together as partners: queued together, or one preferring the other."""

    a: Waiting
    b: Waiting
    rating: float = field(init=False)
    joined_at: datetime = field(init=False)

    def __post_init__(self) -> None:
        self.rating = (self.a.rating + self.b.rating) / 2
        self.joined_at = min(self.a.joined_at, self.b.joined_at)

    @property
    def people(self) -> tuple[Waiting, Waiting]:
        return (self.a, self.b)


def _duos_form(
    pool: Sequence[Waiting],
    blocked: Kept,
    apart: Kept,
    prefer: frozenset[tuple[int, int]],
) -> tuple[list[_Duo], list[Waiting]]:
    """The duos among the waiting (queued together, then preferred), and those alone."""
    by_key = {w.key: w for w in pool}
    taken: set[int] = set()
    duos: list[_Duo] = []
    for w in pool:
        p = by_key.get(w.partner) if w.partner is not None else None
        if (
            p is not None
            and p.partner == w.key
            and w.key < p.key
            and frozenset((w.key, p.key)) not in blocked
        ):
            duos.append(_Duo(w, p))
            taken.update((w.key, p.key))
    if prefer:
        marks = [
            (a, b)
            for a, b in prefer
            if a in by_key
            and b in by_key
            and a != b
            and frozenset((a, b)) not in blocked
            and frozenset((a, b)) not in apart
        ]
        marks.sort(
            key=lambda m: (
                (m[1], m[0]) not in prefer,
                min(by_key[m[0]].joined_at, by_key[m[1]].joined_at),
                by_key[m[0]].joined_at,
                m,
            )
        )
        for a, b in marks:
            if a not in taken and b not in taken:
                duos.append(_Duo(by_key[a], by_key[b]))
                taken.update((a, b))
    return duos, [w for w in pool if w.key not in taken]


Candidate = tuple[tuple[float, datetime], list[Waiting], tuple[Pair, Pair]]


def _duo_candidate(
    duo: _Duo,
    duos: Sequence[_Duo],
    index: int,
    solos: Sequence[Waiting],
    solo_ratings: Sequence[int],
    blocked: Kept,
    apart: Kept,
    now: datetime,
    fill: float,
) -> Candidate | None:
    """The duo's closest allowed opponents: the nearest duos in rating, or two alone
    near its rating (a few looked at either side)."""
    best: Candidate | None = None

    def consider(spread: float, people: list[Waiting], pairs: tuple[Pair, Pair]) -> None:
        nonlocal best
        if not _allowed_spread(spread, people, now, fill):
            return
        rank = (spread, min(w.joined_at for w in people))
        if best is None or rank < best[0]:
            best = (rank, people, pairs)

    for step in (-1, 1):
        j, looked = index + step, 0
        while 0 <= j < len(duos) and looked < 3:
            other = duos[j]
            if not any(_conflict(w, other.people, blocked) for w in duo.people):
                consider(
                    abs(duo.rating - other.rating),
                    [*duo.people, *other.people],
                    (duo.people, other.people),
                )
                looked += 1
            j += step
    # Two alone: the eligible ones nearest the duo's rating, three each side.
    at = bisect_left(solo_ratings, duo.rating)
    below: list[Waiting] = []
    i = at - 1
    while i >= 0 and len(below) < 3:
        if not _conflict(solos[i], duo.people, blocked):
            below.append(solos[i])
        i -= 1
    above: list[Waiting] = []
    i = at
    while i < len(solos) and len(above) < 3:
        if not _conflict(solos[i], duo.people, blocked):
            above.append(solos[i])
        i += 1
    near = [*reversed(below), *above]
    for x, y in pairwise(near):
        if frozenset((x.key, y.key)) in blocked or frozenset((x.key, y.key)) in apart:
            continue
        spread = max(abs(duo.rating - (x.rating + y.rating) / 2), y.rating - x.rating)
        consider(spread, [*duo.people, x, y], (duo.people, (x, y)))
    return best


def _allowed_spread(spread: float, group: Sequence[Waiting], now: datetime, fill: float) -> bool:
    accepted = max(
        spread_accepted((now - w.joined_at).total_seconds(), fill_after_seconds=fill) for w in group
    )
    return spread <= accepted


def _split_for_bots(
    pool: Sequence[Waiting], duos: Sequence[_Duo], blocked: Kept, apart: Kept, bot_rating: int
) -> list[tuple[Pair, Pair]]:
    """Those left over, in rating order (a duo at its rating), in as few tables of at
    most four as a greedy pass finds: no table holding a blocked pair, nor a split
    that makes partners of two kept apart; a duo always sits as partners."""
    units: list[tuple[float, int, Waiting | _Duo]] = [(w.rating, w.key, w) for w in pool]
    units += [(d.rating, min(d.a.key, d.b.key), d) for d in duos]
    units.sort(key=lambda u: (u[0], u[1]))
    tables: list[tuple[list[Waiting], list[_Duo]]] = []
    for _, _, unit in units:
        people = list(unit.people) if isinstance(unit, _Duo) else [unit]
        added = [unit] if isinstance(unit, _Duo) else []
        for index, (table, table_duos) in enumerate(tables):
            if len(table) + len(people) > SEATS or any(
                _conflict(w, table, blocked) for w in people
            ):
                continue
            grown = ([*table, *people], [*table_duos, *added])
            if _bot_split(*grown, apart, bot_rating) is not None:
                tables[index] = grown
                break
        else:
            tables.append((people, added))
    found = [_bot_split(table, table_duos, apart, bot_rating) for table, table_duos in tables]
    return [split for split in found if split is not None]  # each table was kept splittable


def _bot_split(
    people: Sequence[Waiting], duos: Sequence[_Duo], apart: Kept, bot_rating: int
) -> tuple[Pair, Pair] | None:
    """How a table of at most four with bots sits: its duos as partners, the others
    split as balanced as their marks allow; None when no split keeps them apart."""
    if not duos:
        padded: list[Waiting | None] = [*people, *([None] * (SEATS - len(people)))]
        return split_apart(padded, bot_rating=bot_rating, apart=apart)
    if len(duos) == 2:
        return (duos[0].people, duos[1].people)
    duo = duos[0]
    rest: list[Waiting | None] = [w for w in people if w.key not in (duo.a.key, duo.b.key)]
    rest += [None] * (2 - len(rest))
    x, y = rest
    if x is not None and y is not None and frozenset((x.key, y.key)) in apart:
        return None
    return (duo.people, (x, y))


def tables_choose(
    waiting: Sequence[Waiting],
    *,
    now: datetime,
    fill_after_seconds: float,
    bot_rating: int,
    blocked: Kept = frozenset(),
    avoid: frozenset[tuple[int, int]] = frozenset(),
    prefer: frozenset[tuple[int, int]] = frozenset(),
) -> list[Seating]:
    """The tables to open now from the waiting list (see the module's rules).

    `blocked`: pairs never at one table; `avoid` and `prefer`: partner marks, (marker,
    marked). Each four's candidate is kept between rounds and made again only when
    one of its four was seated (it cannot change otherwise), so a pass costs little
    more than one look at every start."""
    fill = fill_after_seconds
    apart: Kept = frozenset(frozenset(m) for m in avoid)
    pool = sorted(waiting, key=lambda w: (w.rating, w.joined_at, w.key))
    duos, solos = _duos_form(pool, blocked, apart, prefer)
    duos.sort(key=lambda d: (d.rating, d.joined_at, d.a.key))
    tables: list[Seating] = []

    # The fours of players alone, by their first player: (rank, group, allowed).
    cache: dict[int, tuple[tuple[int, datetime], list[Waiting], bool] | None] = {}
    members: dict[int, set[int]] = {}  # a player -> the starts whose four holds them
    position = {w.key: i for i, w in enumerate(solos)}
    alive = [True] * len(solos)

    def compute(start_key: int) -> None:
        old = cache.get(start_key)
        if old is not None:
            for w in old[1]:
                members.get(w.key, set()).discard(start_key)
        group = _group_from_alive(start_key)
        if group is None:
            cache[start_key] = None
            return
        for w in group:
            members.setdefault(w.key, set()).add(start_key)
        spread = group[-1].rating - group[0].rating
        rank = (spread, min(w.joined_at for w in group))
        cache[start_key] = (rank, group, _allowed_spread(spread, group, now, fill))

    def _group_from_alive(start_key: int) -> list[Waiting] | None:
        i = position[start_key]
        if not blocked:
            group: list[Waiting] = []
            while i < len(solos) and len(group) < SEATS:
                if alive[i]:
                    group.append(solos[i])
                i += 1
            if len(group) < SEATS:
                return None
            if apart and split_apart(group, bot_rating=bot_rating, apart=apart) is None:
                return None
            return group
        group = []
        while i < len(solos):
            if alive[i]:
                w = solos[i]
                if not _conflict(w, group, blocked):
                    group.append(w)
                    if len(group) == SEATS:
                        break
            i += 1
        else:
            return None
        if apart and split_apart(group, bot_rating=bot_rating, apart=apart) is None:
            return None
        return group

    for w in solos:
        compute(w.key)

    def seat_solos(gone: Sequence[Waiting]) -> None:
        stale: set[int] = set()
        for w in gone:
            alive[position[w.key]] = False
            stale |= members.pop(w.key, set())
            cache.pop(w.key, None)
            stale.discard(w.key)
        for key in stale - {w.key for w in gone}:
            if alive[position[key]]:
                compute(key)

    while True:
        best: Candidate | None = None
        best_duos: tuple[_Duo, ...] = ()
        for entry in cache.values():
            if entry is not None and entry[2] and (best is None or entry[0] < best[0]):
                best = (entry[0], entry[1], ())  # type: ignore[assignment]
        if duos:
            live_solos = [w for i, w in enumerate(solos) if alive[i]]
            ratings = [w.rating for w in live_solos]
            for index, duo in enumerate(duos):
                found = _duo_candidate(
                    duo, duos, index, live_solos, ratings, blocked, apart, now, fill
                )
                if found is not None and (best is None or found[0] < best[0]):
                    best = found
                    best_duos = (duo,)
        if best is None:
            break
        _, group, pairs = best
        if best_duos:
            keys = {w.key for w in group}
            duos = [d for d in duos if d.a.key not in keys]
            seat_solos([w for w in group if w.key in position and alive[position[w.key]]])
            tables.append(Seating(pairs))
        else:
            seat_solos(group)
            tables.append(Seating(pairs_balanced(group, bot_rating=bot_rating, apart=apart)))
    left = [w for i, w in enumerate(solos) if alive[i]]
    people = left + [w for d in duos for w in d.people]
    if people:
        oldest = min(w.joined_at for w in people)
        if (now - oldest).total_seconds() >= fill:
            # No four left can sit together (any four would have been seated): bots fill.
            tables.extend(
                Seating(split) for split in _split_for_bots(left, duos, blocked, apart, bot_rating)
            )
    return tables
