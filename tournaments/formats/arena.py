"""Arena: points per match with a streak bonus, and standings (issue 43; as lichess's arena).

A win scores 2 and a loss 0. After two wins in a row a team is "on fire": each further
win scores double (4) until it loses; the loss puts the streak out and the next win
scores 2 again. W W W W L W scores 2, 2, 4, 4, 0, 2 (14). Cuatrola matches are never
drawn, so there is no draw point.

Standings: by points, then by fewer matches played (the same points in fewer matches
is better), then teams share a rank; within a shared rank they are listed by id.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIN_POINTS = 2
LOSS_POINTS = 0
#: Wins in a row after which further wins count double.
STREAK = 2


def arena_points(results: Sequence[bool]) -> list[int]:
    """Points of each match in order (True a win), with the streak bonus."""
    points: list[int] = []
    streak = 0
    for won in results:
        if won:
            points.append(WIN_POINTS * (2 if streak >= STREAK else 1))
            streak += 1
        else:
            points.append(LOSS_POINTS)
            streak = 0
    return points


def on_fire(results: Sequence[bool]) -> bool:
    """Whether the next win would count double."""
    streak = 0
    for won in results:
        streak = streak + 1 if won else 0
    return streak >= STREAK


@dataclass(frozen=True)
class ArenaStanding:
    id: int
    rank: int
    points: int
    played: int
    wins: int
    on_fire: bool
    #: Each match's points, in order (for the "2 2 4 0" line).
    sheet: tuple[int, ...]


def arena_standings(entries: Sequence[tuple[int, Sequence[bool]]]) -> list[ArenaStanding]:
    """Rank entries (id, results in order) by arena points (module docstring)."""
    ids = [entry for entry, _ in entries]
    if len(set(ids)) != len(ids):
        raise ValueError("entry ids must be unique")
    rows = []
    for entry, results in entries:
        sheet = tuple(arena_points(results))
        rows.append((entry, sheet, sum(results), on_fire(results)))
    rows.sort(key=lambda row: (-sum(row[1]), len(row[1]), row[0]))
    standings: list[ArenaStanding] = []
    for i, (entry, sheet, wins, fire) in enumerate(rows):
        key = (sum(sheet), len(sheet))
        previous = standings[-1] if standings else None
        same = previous is not None and (previous.points, previous.played) == key
        standings.append(
            ArenaStanding(
                id=entry,
                rank=previous.rank if same and previous is not None else i + 1,
                points=key[0],
                played=key[1],
                wins=wins,
                on_fire=fire,
                sheet=sheet,
            )
        )
    return standings
