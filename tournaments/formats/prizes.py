"""A prize pool split by rank, to the coin (issue 43).

`shares` are per-mille of the pool by finishing place: (500, 300, 200) pays half to
first, 30 % to second, 20 % to third. Any non-negative weights work (they are shares of
their own total), so shares that add up to less than 1000 still pay the whole pool.

- Places are taken in rank order; entries with the same rank share the places they
  occupy: two entries tied first with (500, 300, 200) share 500 + 300 and each get
  40 %, and the next entry is third with 20 %.
- When fewer entries are ranked than there are shares, only the places taken are paid,
  over their own total (the pool is always paid out in full).
- Amounts are whole coins and add up to the pool exactly: each entry gets the floor of
  its exact share, and the coins left over go one each by largest remainder, then
  better rank, then smaller entry id.
- Every ranked entry is in the answer, 0 when out of the prizes.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from itertools import groupby

PER_MILLE = 1000


def prize_split(
    pool: int, shares: Sequence[int], ranks: Sequence[tuple[int, int]]
) -> dict[int, int]:
    """Coins per entry id for `pool` split by `shares` (per-mille by place) over `ranks`."""
    if pool < 0:
        raise ValueError("the pool is never negative")
    if any(share < 0 for share in shares):
        raise ValueError("shares are never negative")
    entries = [entry for entry, _ in ranks]
    if len(set(entries)) != len(entries):
        raise ValueError("entry ids must be unique")
    if any(rank < 1 for _, rank in ranks):
        raise ValueError("ranks start at 1")
    ordered = sorted(ranks, key=lambda r: (r[1], r[0]))
    paid = list(shares[: len(ordered)])
    total = sum(paid)
    if pool and total == 0:
        raise ValueError("a pool needs a positive share for a ranked place")
    exact: dict[int, Fraction] = {}
    rank_of = dict(ranks)
    place = 0
    for _, group in groupby(ordered, key=lambda r: r[1]):
        members = [entry for entry, _ in group]
        combined = sum(paid[place : place + len(members)])
        for entry in members:
            exact[entry] = Fraction(pool * combined, total * len(members)) if total else Fraction(0)
        place += len(members)
    amounts = {entry: int(value) for entry, value in exact.items()}  # floor: values >= 0
    left = pool - sum(amounts.values())
    by_remainder = sorted(exact, key=lambda e: (-(exact[e] - amounts[e]), rank_of[e], e))
    for entry in by_remainder[:left]:
        amounts[entry] += 1
    return amounts
