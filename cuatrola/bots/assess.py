"""What every legal action of one seat is worth, from that seat's view alone (the coach).

    from cuatrola.bots.assess import assess
    a = assess(seat_view(match, seat), seed=7)
    a.value("1o"), a.best, a.loss("1o"), a.error("1o")

The input is exactly what `choose_action` reads: `cuatrola.engine.seat_view` of the
seat about to act (its own cards, the public play, the bids, its legal actions).
No other seat's cards reach this module, so the hidden hands are only ever the
ones sampled here, consistent with what the seat has seen (`sampling.py`).

Each legal action gets its **expected match points**: what the hand is worth to the
seat's pair (its match points if it scores the hand, minus the other pair's if
they do), averaged over deals consistent with the view, weighed as the hard bot
weighs them (by the bids heard and the cards seen played). Every action is scored
on the same deals, so the difference between two actions (what a choice cost) is
estimated far more precisely than either value alone; `error` is the standard
error of that difference.

How each deal is scored, by the hard bot's own means (docs/bots.md, docs/coach.md):

- a card in a contract decided on tricks: the deal is solved exactly for every
  legal card (win or lose, times the contract's value);
- a card in a hand decided on points (pass hands, the classic solo): the hand is
  played out from every legal card by the rule-based policy of the rollouts;
- a bid: each contract the seat may bid is solved exactly as the hard bot solves
  it before bidding (declarer alone against two), with the hard bot's
  correction for the big contracts; passing is worth the passed-out hand played
  out by the rollouts when nobody has bid, else the standing contract solved on
  the same deal.

Work is a number of deals (`samples`), never a time budget: the same view, seed
and sample count give the same figures on any machine, however loaded.

`perfect(view, hands)` is the other side of the same decision, for the fair-play
screen (docs/fairplay.md): every legal card scored on **the real deal**, every hand
seen, by the same solver (what the whole deal says, which no seat could know).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from cuatrola.engine.core import CARD_BIT, CODE_INDEX
from cuatrola.engine.rules import BID_LEVEL

from . import BotError
from .knowledge import Knowledge
from .sampling import ENUMERATE_LIMIT, all_deals, bid_weight, deal_count, play_weight, sample_deals
from .search import (
    BIG_CONTRACT_BONUS,
    PLAY_BATCH,
    _points_root_wins,
    _position,
    _rollout,
)
from .solver import Position, Solver, _next

#: Deals sampled per decision, by kind of decision (docs/coach.md gives the errors
#: they leave). Fewer remain late in a hand: then every consistent deal is weighed.
SAMPLES: Final = {"bid": 300, "tricks": 200, "points": 300}


@dataclass(frozen=True, slots=True)
class Assessment:
    """Expected match points of each legal action for the seat's pair."""

    #: The legal actions, in the engine's order.
    actions: tuple[str, ...]
    #: Expected net match points of each action (same order).
    values: tuple[float, ...]
    #: Standard error of (best value − this action's value), same order (0 for the best).
    errors: tuple[float, ...]
    #: The action with the highest value (the first in the engine's order on a tie).
    best: str
    #: Distinct deals the figures rest on (0 for a forced action).
    deals: int
    #: Every deal consistent with the view was weighed: no sampling error.
    exact: bool

    @property
    def forced(self) -> bool:
        """Only one legal action: nothing to judge."""
        return len(self.actions) == 1

    def value(self, action: str) -> float:
        return self.values[self._index(action)]

    def loss(self, action: str) -> float:
        """Expected match points `action` gives up against the best action (≥ 0)."""
        return self.values[self._index(self.best)] - self.value(action)

    def error(self, action: str) -> float:
        return self.errors[self._index(action)]

    def _index(self, action: str) -> int:
        try:
            return self.actions.index(action)
        except ValueError:
            raise BotError(
                f"{action!r} is not a legal action here (legal: {', '.join(self.actions)})",
                code="not_legal",
                action=repr(action),
            ) from None


def view_knowledge(view: dict[str, Any]) -> Knowledge:
    """`Knowledge.from_view`, with the bots' error for what is not a seat view on its turn."""
    try:
        k = Knowledge.from_view(view)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise BotError(f"not a seat view: {exc!r}", code="not_a_seat_view") from None
    if not k.legal:
        raise BotError(
            "this seat has nothing to play (not its turn, or the hand is over)",
            code="nothing_to_play",
        )
    return k


def assess(view: dict[str, Any], *, seed: int, samples: int | None = None) -> Assessment:
    """Every legal action of `view`'s seat with its expected match points.

    `samples` deals are drawn (default: `SAMPLES` for the kind of decision); the
    same view, seed and samples always give the same assessment.
    """
    k = view_knowledge(view)
    actions = tuple(k.legal)
    if len(actions) == 1:
        return Assessment(actions, (0.0,), (0.0,), actions[0], 0, True)
    rng = random.Random(f"cuatrola-coach:{seed}")
    if k.phase == "bidding":
        n = SAMPLES["bid"] if samples is None else samples
        rows, shifts, exact = _bid_rows(k, rng, actions, n)
    elif k.points_decide:
        n = SAMPLES["points"] if samples is None else samples
        rows, exact = _rollout_rows(k, rng, actions, n)
        shifts = [0.0] * len(actions)
    else:
        n = SAMPLES["tricks"] if samples is None else samples
        rows, exact = _solved_rows(k, rng, actions, n)
        shifts = [0.0] * len(actions)
    return _summarise(actions, rows, shifts, exact)


# ---------------------------------------------------------------------- the whole deal


@dataclass(frozen=True, slots=True)
class Perfect:
    """Every legal card of a seat scored on the real deal, every hand seen."""

    #: The legal cards, in the engine's order.
    actions: tuple[str, ...]
    #: Per card, with best play by all four afterwards: in a contract decided on
    #: tricks, the contract's value won (+) or lost (−) by the seat's pair; in a hand
    #: decided on points, the final point difference (cards, last trick, declarations)
    #: of the seat's pair minus the other's.
    values: tuple[float, ...]
    #: What the values count: "tricks" (match points) or "points" (card points).
    unit: str


def perfect(view: dict[str, Any], hands: Sequence[Iterable[str]]) -> Perfect:
    """Every legal card of `view`'s seat scored on the real deal.

    `hands` are the four seats' cards at this moment (card codes, by seat; the
    sitting-out hand included), of which `view` is one seat's view. Bids are not
    scored (what a bid is worth depends on the others' later bids, which no deal
    fixes): a view in the bidding raises `BotError` (`bidding`), as do hands that
    are not this view's deal (`not_this_deal`).
    """
    k = view_knowledge(view)
    if k.phase == "bidding":
        raise BotError("bids are not scored on the whole deal", code="bidding")
    masks = []
    try:
        for cards in hands:
            mask = 0
            for code in cards:
                mask |= CARD_BIT[CODE_INDEX[code]]
            masks.append(mask)
    except (KeyError, TypeError) as exc:
        raise BotError(f"not a deal: {exc!r}", code="not_this_deal") from None
    held = 0
    for mask in masks:
        held |= mask
    if (
        len(masks) != 4
        or masks[k.seat] != k.own
        or sum(m.bit_count() for m in masks) != held.bit_count()
        or held & k.played
        or any(masks[s] & k.known[s] != k.known[s] for s in range(4))
        or [m.bit_count() for m in masks] != k.hand_sizes
    ):
        raise BotError("these hands are not the deal of this view", code="not_this_deal")
    actions = tuple(k.legal)
    moves = [CODE_INDEX[a] for a in actions]
    solver = Solver(k.rules)
    position = _position(k, masks)
    if k.points_decide:
        return Perfect(actions, tuple(solver.values(position, moves, margin=True)), "points")
    value = k.rules.contract_values[k.contract]
    outcome = solver.values(position, moves)
    return Perfect(actions, tuple(value * v for v in outcome), "tricks")


# ---------------------------------------------------------------------- deals


def _deals(
    k: Knowledge, rng: random.Random, n: int, *, use_bids: bool, use_plays: bool
) -> tuple[list[tuple[list[int], float]], bool]:
    """Distinct deals with their weights, and whether they are every consistent deal.

    When at most `n` deals fit the view, every one of them is weighed (by the bids
    and the play, as the sampler weighs them). Otherwise random deals come from the
    hard bot's sampler, drawn in proportion to those weights (so each weighs 1); a
    deal drawn twice is scored once, weighing 2.
    """
    use_bids = use_bids and bool(k.bids)
    use_plays = use_plays and any(s != k.seat for s, _ in k.history)
    if deal_count(k) <= max(n, ENUMERATE_LIMIT // 4):
        every = list(all_deals(k))
        if every and len(every) <= n:
            weighed = []
            for hands in every:
                w = bid_weight(k, hands) if use_bids else 1.0
                if use_plays:
                    w *= play_weight(k, hands)
                if w > 0:
                    weighed.append((hands, w))
            if weighed:
                return weighed, True
    drawn = sample_deals(k, rng, n, use_bids=use_bids, use_plays=use_plays, batch_factor=PLAY_BATCH)
    if not drawn:
        raise BotError("no deal fits this view", code="no_consistent_deal")
    merged: dict[tuple[int, ...], list[Any]] = {}
    for hands, weight in drawn:
        key = tuple(hands)
        if key in merged:
            merged[key][1] += weight
        else:
            merged[key] = [hands, weight]
    return [(h, float(w)) for h, w in merged.values()], False


# ---------------------------------------------------------------------- card play


def _solved_rows(
    k: Knowledge, rng: random.Random, actions: tuple[str, ...], n: int
) -> tuple[list[tuple[float, list[float]]], bool]:
    """Trick contracts: each deal solved exactly for every legal card."""
    value = k.rules.contract_values[k.contract]
    moves = [CODE_INDEX[a] for a in actions]
    solver = Solver(k.rules)
    deals, exact = _deals(k, rng, n, use_bids=True, use_plays=True)
    rows = []
    for hands, weight in deals:
        outcome = solver.values(_position(k, hands), moves)
        rows.append((weight, [value * v for v in outcome]))
    return rows, exact


def _rollout_rows(
    k: Knowledge, rng: random.Random, actions: tuple[str, ...], n: int
) -> tuple[list[tuple[float, list[float]]], bool]:
    """Hands decided on points: each deal played out from every legal card by the
    rule-based policy (the rollouts of the hard bot)."""
    # The rollouts score a contract decided on points as ±1: its value scales it.
    scale = float(k.rules.contract_values[k.contract]) if k.contract else 1.0
    moves = [CODE_INDEX[a] for a in actions]
    deals, exact = _deals(k, rng, n, use_bids=False, use_plays=True)
    rows = []
    for hands, weight in deals:
        rows.append((weight, [scale * _rollout(k, hands, k.seat, m) for m in moves]))
    return rows, exact


# ---------------------------------------------------------------------- bidding


def _bid_rows(
    k: Knowledge, rng: random.Random, actions: tuple[str, ...], n: int
) -> tuple[list[tuple[float, list[float]]], list[float], bool]:
    """Bids: each legal contract solved as the hard bot solves it before bidding;
    passing played out (nobody has bid) or the standing contract solved. Returns the
    rows, a shift per action (the hard bot's correction of the big contracts'
    chances, applied to the mean) and whether the deals were all of them."""
    values = k.rules.contract_values
    solver = Solver(k.rules)
    deals, exact = _deals(k, rng, n, use_bids=True, use_plays=False)
    high, high_seat = 0, -1
    for s, lv in k.bids:
        if lv > high:
            high, high_seat = lv, s
    levels = [BID_LEVEL[a] for a in actions]
    passed_out = replace(
        k, phase="playing", contract=0, declarer=-1, out=-1, leader=k.mano, trick=[]
    )
    rows: list[tuple[float, list[float]]] = []
    made_sum = dict.fromkeys(levels, 0.0)
    total = 0.0
    for hands, weight in deals:
        made: dict[int, bool] = {}
        row = []
        for lv in levels:
            if lv == 0:
                if high == 0:
                    v = _rollout(passed_out, hands, k.mano, -1)
                    row.append(v if k.mano & 1 == k.seat & 1 else -v)
                    continue
                ok = _declarer_makes(solver, k, hands, high_seat, high)
                ours = high_seat & 1 == k.seat & 1
                made[0] = ok
                row.append(values[high] * (1.0 if ok == ours else -1.0))
                continue
            lower = [m for lv2, m in made.items() if 0 < lv2 < lv]
            if lower and not lower[-1] and not _by_points(k, lv):
                ok = False  # a contract decided on tricks: more tricks cannot be made
            else:
                ok = _declarer_makes(solver, k, hands, k.seat, lv)
            made[lv] = ok
            row.append(values[lv] * (1.0 if ok else -1.0))
        for lv in levels:
            if lv in made:
                made_sum[lv] += weight * made[lv]
        total += weight
        rows.append((weight, row))
    shifts = []
    for lv in levels:
        contract = lv if lv else high
        bonus = BIG_CONTRACT_BONUS.get(contract, 0.0)
        if not bonus or (lv == 0 and high == 0):
            shifts.append(0.0)
            continue
        p = made_sum[lv] / total
        shift = 2 * values[contract] * (min(1.0, p + bonus) - p)
        # Passing over the other pair's big contract: their correction is our loss.
        ours = lv != 0 or high_seat & 1 == k.seat & 1
        shifts.append(shift if ours else -shift)
    return rows, shifts, exact


def _by_points(k: Knowledge, level: int) -> bool:
    return level == 1 and k.rules.solo_by_points


def _declarer_makes(
    solver: Solver, k: Knowledge, hands: list[int], declarer: int, level: int
) -> bool:
    """Whether `declarer` makes `level` on this deal, its partner sitting out, every
    hand seen (the hard bot's estimate before bidding)."""
    out = declarer ^ 2
    leader = k.mano if k.mano != out else _next(k.mano, out)
    pos = Position(
        hands=hands,
        trump=k.trump_suit,
        out=out,
        declarer=declarer,
        contract=level,
        leader=leader,
        trick=[],
        tricks_won=[0, 0, 0, 0],
        points=[0, 0],
        decl_used=[0, 0],
        decl_count=[0, 0],
        mano=k.mano,
    )
    if solver.by_points(pos):
        return _points_root_wins(solver, pos)
    return solver.declarer_makes(pos)


# ---------------------------------------------------------------------- summary


def _summarise(
    actions: tuple[str, ...],
    rows: list[tuple[float, list[float]]],
    shifts: list[float],
    exact: bool,
) -> Assessment:
    total = sum(w for w, _ in rows)
    count = len(actions)
    means = [sum(w * row[i] for w, row in rows) / total + shifts[i] for i in range(count)]
    top = max(means)
    best = next(i for i, m in enumerate(means) if m >= top - 1e-9)
    # Effective number of deals (a deal drawn twice weighs 2, not two deals).
    n_eff = total * total / sum(w * w for w, _ in rows)
    errors = []
    for i in range(count):
        if i == best or exact or n_eff <= 1:
            errors.append(0.0)
            continue
        diffs = [(w, row[best] - row[i]) for w, row in rows]
        mean = sum(w * d for w, d in diffs) / total
        var = sum(w * (d - mean) ** 2 for w, d in diffs) / total
        errors.append(math.sqrt(var * n_eff / (n_eff - 1) / n_eff))
    return Assessment(
        actions=actions,
        values=tuple(round(m, 6) for m in means),
        errors=tuple(round(e, 6) for e in errors),
        best=actions[best],
        deals=len(rows),
        exact=exact,
    )
