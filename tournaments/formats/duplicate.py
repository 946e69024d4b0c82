"""Duplicate pairs: matchpoints and movements (issue 43).

Boards. Every table of a round plays the same deals (the daily deal's deterministic
deals for that round), so a round's board set is the round's number at every table
and each table plays it once. A pair's result on a board is compared with every pair
that held the same cards in the same direction (North-South with North-South,
East-West with East-West) in that round.

Matchpoints (`board_matchpoints`): 2 for each pair beaten, 1 for each tie, 0 for each
pair that did better; the top on a board of n comparable pairs is 2 (n - 1).
`matchpoint_percentages` gives each pair's share of the top (50 % alone on a board).

Movements. Pairs are numbered 1..n (the caller maps them to entries); a round is a list
of seatings (table, North-South pair, East-West pair, board set) and the pair that sits
out, if any.

- Howell (`howell_movement`), for a few tables: every pair meets every other pair once
  over n - 1 rounds (n rounds when n is odd, one pair sitting out each round); the
  circle method, with directions alternating so each pair sits North-South about as
  often as East-West, and the tables rotating.
- Mitchell (`mitchell_movement`), for more tables: pairs 1..T sit North-South at their
  own table all session; East-West pairs T+1..2T move up one table each round, so over
  T rounds every East-West pair meets every North-South pair once and no two pairs
  meet twice. North-South and East-West are two fields (each compared within itself).
  An odd field: the caller makes the missing pair a phantom; its opponent sits out.
- `movement_for(pairs)` chooses: Howell up to HOWELL_MAX_TABLES tables, Mitchell above.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

#: Howell for up to this many tables (ten pairs, nine rounds); Mitchell above.
HOWELL_MAX_TABLES = 5

Direction = Literal["NS", "EW"]


@dataclass(frozen=True)
class BoardResult:
    """A pair's score on one board (match points won minus lost, or any comparable number)."""

    pair: int
    direction: Direction
    score: int


def board_matchpoints(scores: Mapping[int, int]) -> dict[int, int]:
    """Matchpoints among pairs that held the same cards in the same direction: pair -> MP."""
    values = list(scores.values())
    return {
        pair: sum(2 if score > other else 1 if score == other else 0 for other in values) - 1
        for pair, score in scores.items()
    }


def score_board(results: Sequence[BoardResult]) -> dict[int, int]:
    """Matchpoints of one board over every direction: each compared within its direction."""
    pairs = [r.pair for r in results]
    if len(set(pairs)) != len(pairs):
        raise ValueError("a pair plays a board once")
    matchpoints: dict[int, int] = {}
    for direction in ("NS", "EW"):
        matchpoints |= board_matchpoints(
            {r.pair: r.score for r in results if r.direction == direction}
        )
    return matchpoints


def matchpoint_percentages(scores: Mapping[int, int]) -> dict[int, Fraction]:
    """Each pair's matchpoints as a percentage of the top (exact; 50 when alone)."""
    top = 2 * (len(scores) - 1)
    matchpoints = board_matchpoints(scores)
    if top == 0:
        return dict.fromkeys(matchpoints, Fraction(50))
    return {pair: Fraction(100 * mp, top) for pair, mp in matchpoints.items()}


@dataclass(frozen=True)
class Seating:
    table: int
    ns: int
    ew: int
    board_set: int


@dataclass(frozen=True)
class MovementRound:
    number: int
    seatings: tuple[Seating, ...]
    sit_out: int | None


@dataclass(frozen=True)
class Movement:
    kind: Literal["howell", "mitchell"]
    pairs: int
    tables: int
    rounds: tuple[MovementRound, ...]


def howell_movement(pairs: int, *, rounds: int | None = None) -> Movement:
    """A complete round robin of `pairs` pairs (module docstring); `rounds` cuts it short."""
    if pairs < 2:
        raise ValueError("a movement needs at least two pairs")
    players = pairs + pairs % 2  # with a phantom (number pairs + 1) when odd
    full = players - 1
    count = full if rounds is None else rounds
    if not 1 <= count <= full:
        raise ValueError(f"a Howell of {pairs} pairs has 1 to {full} rounds")
    tables = players // 2
    circle = list(range(1, players + 1))
    made: list[MovementRound] = []
    for number in range(1, count + 1):
        fixed, rest = circle[0], circle[1:]
        shift = (number - 1) % len(rest)
        rotated = rest[shift:] + rest[:shift]
        line = [fixed, *rotated]
        meetings = [(line[i], line[-1 - i]) for i in range(tables)]
        seatings: list[Seating] = []
        sit_out: int | None = None
        table = 0
        for i, (a, b) in enumerate(meetings):
            if b > pairs or a > pairs:
                sit_out = a if b > pairs else b
                continue
            # The fixed pair alternates direction by round; the others sit North-South
            # in the circle's top row, where each spends about half the rounds.
            top_ns = number % 2 == 1 if i == 0 else True
            ns, ew = (a, b) if top_ns else (b, a)
            table += 1
            seatings.append(Seating(table=table, ns=ns, ew=ew, board_set=number))
        # Rotate tables so pairs move round the room.
        if seatings:
            turn = (number - 1) % len(seatings)
            seatings = seatings[turn:] + seatings[:turn]
            seatings = [
                Seating(table=t, ns=s.ns, ew=s.ew, board_set=s.board_set)
                for t, s in enumerate(seatings, start=1)
            ]
        made.append(MovementRound(number=number, seatings=tuple(seatings), sit_out=sit_out))
    return Movement(kind="howell", pairs=pairs, tables=pairs // 2, rounds=tuple(made))


def mitchell_movement(tables: int, *, rounds: int | None = None) -> Movement:
    """A Mitchell for `tables` tables, pairs 1..2*tables (module docstring)."""
    if tables < 1:
        raise ValueError("a movement needs at least one table")
    count = tables if rounds is None else rounds
    if not 1 <= count <= tables:
        raise ValueError(f"a Mitchell of {tables} tables has 1 to {tables} rounds")
    made: list[MovementRound] = []
    for number in range(1, count + 1):
        seatings = tuple(
            Seating(
                table=table,
                ns=table,
                ew=tables + 1 + (table - number) % tables,
                board_set=number,
            )
            for table in range(1, tables + 1)
        )
        made.append(MovementRound(number=number, seatings=seatings, sit_out=None))
    return Movement(kind="mitchell", pairs=2 * tables, tables=tables, rounds=tuple(made))


def movement_for(pairs: int, *, rounds: int | None = None) -> Movement:
    """Howell for a few tables, Mitchell above (an odd Mitchell field has a phantom pair)."""
    tables = (pairs + 1) // 2
    if tables <= HOWELL_MAX_TABLES:
        return howell_movement(pairs, rounds=rounds)
    return mitchell_movement(tables, rounds=rounds)
