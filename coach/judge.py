"""The coach's judgement of one decision, and of a whole match (no Django here).

Two steps, kept apart so that the judgement can only see what the seat saw:

1. `decision_points(record)` replays a finished match (its engine record, every
   deal included) and, before each action, takes **the acting seat's view**
   (`cuatrola.engine.seat_view`: its own cards, the public play, the bids, the match
   score) — the only thing handed on. A forced action (one legal choice) is left
   out: it is not judged.
2. `judge(view=..., action=...)` weighs every legal action of that view
   (`cuatrola.bots.assess`, the hard bot's search over deals consistent with it) and
   marks the action taken by what it cost. Its inputs are the view and the action:
   it never receives the record, so the real hidden hands cannot reach it.

The seed of each search is drawn from the view itself (`view_seed`), so the same
view gets the same judgement in any match, on any machine.

Thresholds, the accuracy figure and the sample counts are documented in
docs/coach.md.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Final

from cuatrola.bots.assess import assess
from cuatrola.engine import Match, seat_view

#: Expected match points a choice may give up before it is marked, lowest first.
THRESHOLDS: Final = (("blunder", 1.0), ("mistake", 0.5), ("inaccuracy", 0.2))
INACCURACY: Final = THRESHOLDS[-1][1]
#: How the replay writes each mark (chess's notation).
SYMBOLS: Final = {"inaccuracy": "?!", "mistake": "?", "blunder": "??", "": ""}
#: The kinds of decision the trends group points lost by.
KINDS: Final = ("bid", "lead", "follow")


def classify(loss: float) -> str:
    """The mark of a choice that gave up `loss` expected match points ('' for none)."""
    for mark, threshold in THRESHOLDS:
        if loss >= threshold - 1e-9:
            return mark
    return ""


@dataclass(frozen=True)
class DecisionPoint:
    """A seat about to act with more than one legal action, as the seat saw it."""

    #: The action's number in the match (1-based): the replay's step once it is made.
    number: int
    hand_no: int
    seat: int
    #: What the seat did.
    action: str
    #: bid, lead (first card of a trick) or follow.
    kind: str
    #: `seat_view` of the acting seat just before the action.
    view: dict[str, Any]


def decision_points(record: dict[str, Any]) -> list[DecisionPoint]:
    """Every decision with a choice in a match record, with the acting seat's view.

    Forced actions (a single legal action) are left out: they are not judged.
    """
    steps = Match.replay(record)
    points = []
    for number in range(1, len(steps)):
        before = steps[number - 1][0]
        seat = before.to_play
        if seat is None:
            continue
        legal = before.legal_actions()
        if len(legal) < 2:
            continue
        hand = before.hand
        action = hand_action(steps[number][0], before)
        kind = "bid" if hand.phase == "bidding" else ("follow" if hand.current_trick else "lead")
        points.append(
            DecisionPoint(
                number=number,
                hand_no=before.hand_no,
                seat=seat,
                action=action,
                kind=kind,
                view=seat_view(before, seat),
            )
        )
    return points


def hand_action(after: Match, before: Match) -> str:
    """The action that took `before` to `after` (the last of its hand)."""
    hand = after.hands[before.hand_no - 1]
    return hand.actions[len(before.hand.actions)]


def view_seed(view: dict[str, Any]) -> int:
    """A search seed drawn from the view alone: the same view, the same figures."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return zlib.crc32(text.encode())


@dataclass(frozen=True)
class Judgement:
    """What one choice was worth, from the chooser's seat."""

    action: str
    best: str
    #: Expected net match points of every legal action, in the engine's order.
    values: dict[str, float]
    #: Expected match points the action gave up against the best (≥ 0).
    loss: float
    #: Standard error of `loss` (0 when every consistent deal was weighed).
    error: float
    #: '', 'inaccuracy', 'mistake' or 'blunder'.
    mark: str
    #: Distinct deals weighed.
    deals: int

    @property
    def spread(self) -> float:
        """What was at stake: the best action's value minus the worst's."""
        return max(self.values.values()) - min(self.values.values())


def judge(*, view: dict[str, Any], action: str, samples: int | None = None) -> Judgement:
    """The judgement of `action` taken from `view` (a seat view with a choice).

    Only the view is searched; `action` must be one of its legal actions.
    """
    assessment = assess(view, seed=view_seed(view), samples=samples)
    loss = max(0.0, assessment.loss(action))
    return Judgement(
        action=action,
        best=assessment.best,
        values=dict(zip(assessment.actions, assessment.values, strict=True)),
        loss=round(loss, 6),
        error=assessment.error(action),
        mark=classify(loss),
        deals=assessment.deals,
    )


def accuracy(judgements: Iterable[tuple[float, float]]) -> int | None:
    """The accuracy of a set of decisions, 0–100, from (loss, spread) pairs.

    The share of the expected match points at stake that the choices kept:
    100 × (1 − Σ loss / Σ spread), where a decision's spread is its best action's
    value minus its worst's. Always choosing the best action scores 100, always
    the worst 0; decisions where nothing was at stake weigh nothing. None when
    nothing was at stake at all.
    """
    lost = 0.0
    stake = 0.0
    for loss, spread in judgements:
        lost += loss
        stake += spread
    if stake <= 1e-9:
        return None
    return max(0, min(100, round(100 * (1 - lost / stake))))
