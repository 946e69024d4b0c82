"""Lucky guesses: the close decisions of a finished match (pure: the engine, the
bots and the coach's judgement; no Django, no rows).

At each card a person chose with a choice, two searches score the legal cards:

- **the seat's own knowledge**: the coach's judgement (`coach.judge.judge`: the hard
  bot's search over the deals consistent with the seat's view), in expected match
  points;
- **the whole deal**: the solver on the real hands (`cuatrola.bots.assess.perfect`),
  every hand seen, in match points (a contract decided on tricks: made or broken) or
  in card points (a hand decided on points: the final point difference).

The cards within ε (`near_equal`) of the best by the seat's knowledge are its
*nearly equal* choices. A decision is **close** when there are at least two and the
whole deal puts them at least δ apart (`apart_points` card points, `apart_tricks`
match points). At a close decision the player made a **hit** when the card chosen
is one the whole deal rates best among them; a close decision where the player
chose none of the nearly equal cards counts for nothing (it says nothing about
guessing between them). A player who sees a hidden hand hits more often than the
honest players of their rating (docs/fairplay.md).

The whole deal is solved first, and it is cheap (a few milliseconds): only the
decisions it separates are judged from the seat's knowledge, the costly search.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from coach.judge import decision_points, judge
from cuatrola.bots.assess import perfect
from cuatrola.engine import Match

#: A tolerance for comparing solver values (whole numbers) and rounded estimates.
TOLERANCE = 1e-9


@dataclass(frozen=True)
class Thresholds:
    #: ε: expected match points within which two choices are nearly equal.
    near_equal: float
    #: δ: card points the whole deal must put between them (hands decided on points).
    apart_points: float
    #: δ: match points the whole deal must put between them (contracts decided on tricks).
    apart_tricks: float

    def apart(self, unit: str) -> float:
        return self.apart_points if unit == "points" else self.apart_tricks


@dataclass(frozen=True)
class CloseCall:
    """A close decision and what the player chose."""

    number: int
    hand_no: int
    seat: int
    chosen: str
    #: The nearly equal cards: (value from the seat's knowledge, value on the whole deal).
    near: dict[str, tuple[float, float]]
    unit: str
    hit: bool


@dataclass
class MatchScreen:
    """What one match gave: the decisions examined, those judged, the close ones."""

    decisions: int = 0
    judged: int = 0
    calls: list[CloseCall] = field(default_factory=list)


def close_call(
    *,
    chosen: str,
    knowledge: Mapping[str, float],
    whole: Mapping[str, float],
    unit: str,
    thresholds: Thresholds,
) -> tuple[dict[str, tuple[float, float]], bool] | None:
    """The nearly equal choices and whether `chosen` is the whole deal's best among
    them, or None when the decision is not close (or the choice was none of them).

    `knowledge` and `whole` map every legal card to its value (the same cards)."""
    if set(knowledge) != set(whole) or chosen not in knowledge:
        raise ValueError("the two searches must score the same legal cards, the chosen one too")
    best = max(knowledge.values())
    near = [card for card, value in knowledge.items() if best - value < thresholds.near_equal]
    if len(near) < 2:
        return None
    top = max(whole[card] for card in near)
    bottom = min(whole[card] for card in near)
    if top - bottom < thresholds.apart(unit) - TOLERANCE or chosen not in near:
        return None
    figures = {card: (knowledge[card], whole[card]) for card in near}
    return figures, whole[chosen] >= top - TOLERANCE


def screen_match(
    record: dict[str, Any],
    *,
    screened: Callable[[int, int], bool],
    thresholds: Thresholds,
    samples: int | None,
    knowledge: Mapping[int, Mapping[str, float]] | None = None,
) -> MatchScreen:
    """The close decisions of a finished match's record.

    `screened(number, seat)` says which decisions count (a person's own card, not a
    bot's standing in). `knowledge` holds the values of decisions the coach already
    judged (by move number), reused instead of searching again; `samples` is the
    coach's search's deal count for the others (None: the coach's defaults). Bids
    are not screened (`cuatrola.bots.assess.perfect`).
    """
    steps = Match.replay(record)
    known = knowledge or {}
    result = MatchScreen()
    for point in decision_points(record):
        if point.kind == "bid" or not screened(point.number, point.seat):
            continue
        result.decisions += 1
        hand = steps[point.number - 1][0].hand
        deal = perfect(point.view, [hand.hand_of(seat) for seat in range(4)])
        if max(deal.values) - min(deal.values) < thresholds.apart(deal.unit) - TOLERANCE:
            continue  # the whole deal does not separate any two cards here
        whole = dict(zip(deal.actions, deal.values, strict=True))
        values = known.get(point.number)
        if values is None or set(values) != set(whole):
            values = judge(view=point.view, action=point.action, samples=samples).values
        result.judged += 1
        found = close_call(
            chosen=point.action,
            knowledge=values,
            whole=whole,
            unit=deal.unit,
            thresholds=thresholds,
        )
        if found is not None:
            near, hit = found
            result.calls.append(
                CloseCall(
                    number=point.number,
                    hand_no=point.hand_no,
                    seat=point.seat,
                    chosen=point.action,
                    near=near,
                    unit=deal.unit,
                    hit=hit,
                )
            )
    return result
