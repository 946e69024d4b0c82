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
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

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


def pairs_balanced(
    players: Sequence[Waiting | None], *, bot_rating: int
) -> tuple[tuple[Waiting | None, Waiting | None], tuple[Waiting | None, Waiting | None]]:
    """The most balanced split of four (None: a bot at `bot_rating`): the strongest
    with the weakest against the two in the middle."""
    if len(players) != SEATS:
        raise ValueError(f"a table has {SEATS} players, not {len(players)}")

    def rating(w: Waiting | None) -> int:
        return bot_rating if w is None else w.rating

    first, second, third, fourth = sorted(players, key=rating, reverse=True)
    return (first, fourth), (second, third)


def _allowed(group: Sequence[Waiting], now: datetime, fill_after_seconds: float) -> bool:
    spread = group[-1].rating - group[0].rating  # the group is in rating order
    accepted = max(
        spread_accepted((now - w.joined_at).total_seconds(), fill_after_seconds=fill_after_seconds)
        for w in group
    )
    return spread <= accepted


def _group_from(
    pool: Sequence[Waiting], start: int, blocked: frozenset[frozenset[int]]
) -> list[Waiting] | None:
    """The window of four from `start`, or with blocks the closest four from there
    (in rating order) that hold no blocked pair; None when there is no such four."""
    if not blocked:
        window = list(pool[start : start + SEATS])
        return window if len(window) == SEATS else None
    group: list[Waiting] = []
    for w in pool[start:]:
        if all(frozenset((w.key, g.key)) not in blocked for g in group):
            group.append(w)
            if len(group) == SEATS:
                return group
    return None


def _split_for_bots(
    pool: Sequence[Waiting], blocked: frozenset[frozenset[int]]
) -> list[list[Waiting]]:
    """Those left over, in rating order, in as few tables of at most four as a greedy
    pass finds, no table holding a blocked pair."""
    tables: list[list[Waiting]] = []
    for w in pool:
        for table in tables:
            if len(table) < SEATS and all(frozenset((w.key, g.key)) not in blocked for g in table):
                table.append(w)
                break
        else:
            tables.append([w])
    return tables


def tables_choose(
    waiting: Sequence[Waiting],
    *,
    now: datetime,
    fill_after_seconds: float,
    bot_rating: int,
    blocked: frozenset[frozenset[int]] = frozenset(),
) -> list[Seating]:
    """The tables to open now from the waiting list (see the module's rules)."""
    pool = sorted(waiting, key=lambda w: (w.rating, w.joined_at, w.key))
    tables: list[Seating] = []
    while len(pool) >= SEATS:
        best: tuple[tuple[int, datetime], list[Waiting]] | None = None
        for start in range(len(pool) - SEATS + 1):
            group = _group_from(pool, start, blocked)
            if group is None or not _allowed(group, now, fill_after_seconds):
                continue
            rank = (group[-1].rating - group[0].rating, min(w.joined_at for w in group))
            if best is None or rank < best[0]:
                best = (rank, group)
        if best is None:
            break
        chosen = {w.key for w in best[1]}
        pool = [w for w in pool if w.key not in chosen]
        tables.append(Seating(pairs_balanced(best[1], bot_rating=bot_rating)))
    if pool:
        oldest = min(w.joined_at for w in pool)
        if (now - oldest).total_seconds() >= fill_after_seconds:
            # No four left can sit together (any four would have been seated): bots fill.
            for group in _split_for_bots(pool, blocked):
                players: list[Waiting | None] = [*group, *([None] * (SEATS - len(group)))]
                tables.append(Seating(pairs_balanced(players, bot_rating=bot_rating)))
    return tables
