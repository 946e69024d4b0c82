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


Near = dict[int, set[int]]


def _neighbours(pairs: Kept) -> Near:
    """Each key -> the keys it makes a pair with (a block, a linked account)."""
    near: Near = {}
    for pair in pairs:
        if len(pair) == 2:
            a, b = pair
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return near


def _conflict(w: Waiting, group: Iterable[Waiting], blocked: Near) -> bool:
    mine = blocked.get(w.key)
    return mine is not None and any(g.key in mine for g in group)


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


class _Alive:
    """Which of n positions are still waiting, and the nearest one still waiting
    from a position either way, in near-constant time (path-compressed skips)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.flags = [True] * n
        self._up = list(range(n + 1))  # position n: past the end
        self._down = list(range(-1, n))  # index i + 1 holds position i; 0: before the start

    def __getitem__(self, i: int) -> bool:
        return self.flags[i]

    def remove(self, i: int) -> None:
        self.flags[i] = False
        self._up[i] = i + 1
        self._down[i + 1] = i - 1

    def next_from(self, i: int) -> int:
        """The first position >= i still waiting (n when none)."""
        root = i
        while self._up[root] != root:
            root = self._up[root]
        while self._up[i] != root:
            self._up[i], i = root, self._up[i]
        return root

    def prev_from(self, i: int) -> int:
        """The last position <= i still waiting (-1 when none)."""
        root = i
        while root >= 0 and self._down[root + 1] != root:
            root = self._down[root + 1]
        while i >= 0 and self._down[i + 1] != root:
            self._down[i + 1], i = root, self._down[i + 1]
        return root


Candidate = tuple[tuple[float, datetime], list[Waiting], tuple[Pair, Pair]]
#: How many nearest duos, and players alone, a duo looks at on either side.
NEAR = 3


def _duo_candidate(
    index: int,
    duos: Sequence[_Duo],
    duo_alive: _Alive,
    solos: Sequence[Waiting],
    solo_alive: _Alive,
    solo_ratings: Sequence[int],
    blocked: Near,
    apart: Kept,
    accepts: dict[int, float],
) -> tuple[Candidate | None, set[int]]:
    """The duo's closest allowed opponents: the nearest duos in rating, or two alone
    near its rating (NEAR looked at either side), and the keys of everyone looked at
    (the candidate changes only when one of them is seated)."""
    duo = duos[index]
    a, b = duo.a, duo.b
    mine = accepts[a.key] if accepts[a.key] > accepts[b.key] else accepts[b.key]
    kept_a, kept_b = blocked.get(a.key, ()), blocked.get(b.key, ())
    best: tuple[float, datetime] | None = None
    chosen: tuple[Waiting, Waiting] | None = None
    looked: set[int] = {a.key, b.key}

    def consider(spread: float, accept: float, joined: datetime, x: Waiting, y: Waiting) -> None:
        nonlocal best, chosen
        if spread > mine and spread > accept:
            return
        rank = (spread, joined if joined < duo.joined_at else duo.joined_at)
        if best is None or rank < best:
            best, chosen = rank, (x, y)

    for step in (-1, 1):
        j, found = index, 0
        while found < NEAR:
            j = duo_alive.next_from(j + 1) if step > 0 else duo_alive.prev_from(j - 1)
            if not 0 <= j < len(duos):
                break
            other = duos[j]
            c, d = other.a.key, other.b.key
            looked.add(c)
            looked.add(d)
            if c not in kept_a and d not in kept_a and c not in kept_b and d not in kept_b:
                accept = accepts[c] if accepts[c] > accepts[d] else accepts[d]
                consider(abs(duo.rating - other.rating), accept, other.joined_at, other.a, other.b)
                found += 1
    # Two alone: the eligible ones nearest the duo's rating, NEAR each side.
    at = bisect_left(solo_ratings, duo.rating)
    sides: list[list[Waiting]] = []
    for start, step in ((at - 1, -1), (at, 1)):
        side: list[Waiting] = []
        i = start
        while len(side) < NEAR:
            i = solo_alive.next_from(i) if step > 0 else solo_alive.prev_from(i)
            if not 0 <= i < len(solos):
                break
            w = solos[i]
            looked.add(w.key)
            if w.key not in kept_a and w.key not in kept_b:
                side.append(w)
            i += step
        sides.append(side)
    near = [*reversed(sides[0]), *sides[1]]
    for x, y in pairwise(near):
        if x.key in blocked.get(y.key, ()) or (apart and frozenset((x.key, y.key)) in apart):
            continue
        spread = max(abs(duo.rating - (x.rating + y.rating) / 2), y.rating - x.rating)
        accept = accepts[x.key] if accepts[x.key] > accepts[y.key] else accepts[y.key]
        joined = x.joined_at if x.joined_at < y.joined_at else y.joined_at
        consider(spread, accept, joined, x, y)
    if best is None or chosen is None:
        return None, looked
    x, y = chosen
    return (best, [a, b, x, y], ((a, b), (x, y))), looked


def _split_for_bots(
    pool: Sequence[Waiting], duos: Sequence[_Duo], blocked: Near, apart: Kept, bot_rating: int
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
    marked). Each candidate (a four from each player alone, opponents for each duo)
    is kept between rounds and made again only when one of those it looked at was
    seated (it cannot change otherwise), so a pass costs little more than one look
    at every start."""
    fill = fill_after_seconds
    apart: Kept = frozenset(frozenset(m) for m in avoid)
    pool = sorted(waiting, key=lambda w: (w.rating, w.joined_at, w.key))
    accepts = {
        w.key: spread_accepted((now - w.joined_at).total_seconds(), fill_after_seconds=fill)
        for w in pool
    }
    duos, solos = _duos_form(pool, blocked, apart, prefer)
    near = _neighbours(blocked)
    duos.sort(key=lambda d: (d.rating, d.joined_at, d.a.key))
    tables: list[Seating] = []

    # The fours of players alone, by their first player: (rank, group, allowed).
    cache: dict[int, tuple[tuple[int, datetime], list[Waiting], bool] | None] = {}
    members: dict[int, set[int]] = {}  # a player -> the starts whose four holds them
    position = {w.key: i for i, w in enumerate(solos)}
    alive = _Alive(len(solos))
    solo_ratings = [w.rating for w in solos]
    # Each duo's candidate, and who it looked at: a player -> the duos to look again.
    duo_alive = _Alive(len(duos))
    duo_cache: dict[int, Candidate | None] = {}
    duo_watch: dict[int, set[int]] = {}

    def group_from(start_key: int) -> list[Waiting] | None:
        i = alive.next_from(position[start_key])
        group: list[Waiting] = []
        while i < len(solos):
            if not near or not _conflict(solos[i], group, near):
                group.append(solos[i])
                if len(group) == SEATS:
                    break
            i = alive.next_from(i + 1)
        else:
            return None
        return group

    def compute(start_key: int) -> None:
        group = group_from(start_key)
        if group is None:  # fewer than four left from here: only fewer later
            cache[start_key] = None
            return
        # Watched even when it cannot be split: once one of the four is seated, the
        # next four from here may split.
        for w in group:
            members.setdefault(w.key, set()).add(start_key)
        spread = group[-1].rating - group[0].rating
        rank = (spread, min(w.joined_at for w in group))
        allowed = spread <= max(accepts[w.key] for w in group) and (
            not apart or split_apart(group, bot_rating=bot_rating, apart=apart) is not None
        )
        cache[start_key] = (rank, group, allowed)

    def compute_duo(index: int) -> None:
        found, looked = _duo_candidate(
            index, duos, duo_alive, solos, alive, solo_ratings, near, apart, accepts
        )
        duo_cache[index] = found
        for key in looked:
            duo_watch.setdefault(key, set()).add(index)

    for w in solos:
        compute(w.key)
    for index in range(len(duos)):
        compute_duo(index)
    duo_of = {w.key: i for i, d in enumerate(duos) for w in d.people}

    def seat(gone: Sequence[Waiting]) -> None:
        stale: set[int] = set()
        stale_duos: set[int] = set()
        for w in gone:
            if w.key in position:
                alive.remove(position[w.key])
                cache.pop(w.key, None)
            elif duo_alive[duo_of[w.key]]:
                duo_alive.remove(duo_of[w.key])
                duo_cache.pop(duo_of[w.key], None)
            stale |= members.pop(w.key, set())
            stale_duos |= duo_watch.pop(w.key, set())
        for key in stale:
            if alive[position[key]]:
                compute(key)
        for index in stale_duos:
            if duo_alive[index]:
                compute_duo(index)

    while True:
        best: Candidate | None = None
        from_duo = False
        for entry in cache.values():
            if entry is not None and entry[2] and (best is None or entry[0] < best[0]):
                best = (entry[0], entry[1], ((None, None), (None, None)))
        for found in duo_cache.values():
            if found is not None and (best is None or found[0] < best[0]):
                best, from_duo = found, True
        if best is None:
            break
        _, group, pairs = best
        seat(group)
        if from_duo:
            tables.append(Seating(pairs))
        else:
            tables.append(Seating(pairs_balanced(group, bot_rating=bot_rating, apart=apart)))
    left = [w for i, w in enumerate(solos) if alive[i]]
    duos = [d for i, d in enumerate(duos) if duo_alive[i]]
    people = left + [w for d in duos for w in d.people]
    if people:
        oldest = min(w.joined_at for w in people)
        if (now - oldest).total_seconds() >= fill:
            # No four left can sit together (any four would have been seated): bots fill.
            tables.extend(
                Seating(split) for split in _split_for_bots(left, duos, near, apart, bot_rating)
            )
    return tables
