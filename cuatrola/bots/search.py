"""The search levels: sample deals consistent with the view, then score each move.

- hard: perfect-information Monte Carlo. Each sampled deal (bids weigh the
  samples) is solved exactly (`solver.Solver`) for every legal move; the move
  with the best average wins. Every consistent deal is enumerated once few remain.
- medium: flat Monte Carlo. Each sampled deal (hard facts only) is played out
  from every legal move by the rule-based policy of `heuristic.play_card`.

Work is counted (solver nodes, rollout plays), not timed, so that a seed
gives the same move on a loaded machine; the clock is only a safety net at
`DEADLINE_FACTOR` times the budget, and none at all inside `without_clock()`
(the daily deal: the move must be a pure function of the view and the seed).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any

from cuatrola.engine.core import (
    CARD_BIT,
    CARD_CODES,
    CARD_POINTS,
    CARD_SUIT,
    SUIT_MASK,
    beats,
    cards_of,
)
from cuatrola.engine.rules import BID_LEVEL, BIDS

from . import ismcts
from .easy import sensible_card
from .heuristic import declaration_points, rule_based_card
from .knowledge import Knowledge
from .sampling import sample_deals
from .solver import Position, Solver, _next

#: Solver nodes (or rollout plays, for medium) per millisecond of budget on this machine.
NODES_PER_MS = 350
#: Work charged for drawing one sampled deal, in solver nodes.
SAMPLE_COST = 30
#: The clock stops a search at this multiple of its budget (a safety net under load).
DEADLINE_FACTOR = 1.25
#: Hands decided on points: solve the point difference (True) or the win/lose outcome.
HARD_MARGIN = True
#: Hard plays hands decided on points by rollouts until this many cards are left.
HARD_POINTS_ROLLOUTS = True
HARD_SOLVES_FROM = 3
HARD_ROLLOUT_SAMPLES = 1000
ROLLOUT_PLAYS_PER_MS = 150
#: Moves whose mean rollout result is this close to the best are ties.
ROLLOUT_TOLERANCE = 0.08
#: Medium solves exactly once its hand has this many cards or fewer (else rollouts).
MEDIUM_SOLVES_FROM = 2
#: Chance the bidder of a contract makes it, assumed when deciding to pass over it.
ASSUMED_MADE = 0.65
#: How much a bid must beat passing by (in expected match points) to be made.
BID_MARGIN = {"medium": 0.1, "hard": 0.0}
#: Discount on the estimated chance of making a contract. Hard's solved estimates are
#: calibrated (measured: solos bid at an estimate of 0.8 or more were made 95% of the
#: time, at 0.5-0.8 about 65%), so it bids by expected value; medium's 16 rollouts
#: are noisier and its rollout defenders play weakly, so it keeps a small discount.
DECLARER_DISCOUNT = {"medium": 0.05, "hard": 0.0}
#: Hard: added to the estimated chance of making a cuatrola / quintola (bid levels 2, 3).
#: Solving sampled deals lets the two defenders see each other's cards, which real
#: defenders cannot: the estimates for the big contracts run low (measured: of 41
#: cuatrolas bid with an estimate of 0.6 or more, all 41 were made).
BIG_CONTRACT_BONUS = {2: 0.15, 3: 0.15}
#: Sampled deals behind a bid: hard solves each exactly, medium plays each out.
HARD_BID_SAMPLES = 48
MEDIUM_BID_SAMPLES = 16
#: Weigh sampled deals by how well they explain the cards the other seats played
#: (`sampling.play_weight`), per level, in rollouts and in solved (PIMC) play.
PLAY_INFERENCE = {"medium": True, "hard": True}
#: Hard defends trick contracts by information-set MCTS (`ismcts.py`) instead of PIMC.
HARD_DEFENCE_ISMCTS = True
#: ISMCTS iterations per millisecond of budget on this machine.
ISMCTS_ITERATIONS_PER_MS = 20
#: Candidate deals drawn per sampled deal when weighing by the play.
PLAY_BATCH = 3
#: Rollouts behind the value of passing (when nobody has bid yet).
PASS_VALUE_SAMPLES = {"medium": 40, "hard": 40}


#: False inside `without_clock()`: searches then stop on their work budget only.
_CLOCK: ContextVar[bool] = ContextVar("cuatrola_bots_clock", default=True)


@contextmanager
def without_clock() -> Iterator[None]:
    """Searches started inside stop on their work budget alone, never on the clock: the
    move is the same on an idle or an overloaded machine (it may take longer there)."""
    token = _CLOCK.set(False)
    try:
        yield
    finally:
        _CLOCK.reset(token)


def _deadline(budget_ms: int) -> float:
    """When a search with this budget gives up by the clock (`time.perf_counter`)."""
    if not _CLOCK.get():
        return math.inf
    return time.perf_counter() + DEADLINE_FACTOR * max(budget_ms, 1) / 1000


def choose(k: Knowledge, rng: random.Random, *, level: str, budget_ms: int) -> str:
    if k.phase == "bidding":
        return _choose_bid(k, rng, level, budget_ms)
    if level == "hard":
        if k.points_decide and HARD_POINTS_ROLLOUTS and k.own.bit_count() > HARD_SOLVES_FROM:
            # Measured: in hands decided on points, rollouts beat perfect-information
            # solving of the early tricks (partners do not see each other's cards).
            return _choose_card_rollouts(
                k,
                rng,
                budget_ms,
                samples=HARD_ROLLOUT_SAMPLES,
                use_plays=PLAY_INFERENCE["hard"],
            )
        if HARD_DEFENCE_ISMCTS and not k.points_decide and k.seat & 1 != k.declarer & 1:
            return _choose_card_ismcts(k, rng, budget_ms)
        return _choose_card_pimc(
            k, rng, budget_ms, use_bids=not k.points_decide, use_plays=PLAY_INFERENCE["hard"]
        )
    if k.own.bit_count() <= MEDIUM_SOLVES_FROM:
        # The last tricks are cheap to solve exactly.
        return _choose_card_pimc(
            k, rng, budget_ms, use_bids=False, use_plays=PLAY_INFERENCE["medium"]
        )
    return _choose_card_rollouts(k, rng, budget_ms, use_plays=PLAY_INFERENCE["medium"])


# ---------------------------------------------------------------------- helpers


def _position(k: Knowledge, hands: list[int]) -> Position:
    return Position(
        hands=hands,
        trump=k.trump_suit,
        out=k.out,
        declarer=k.declarer,
        contract=k.contract,
        leader=k.leader,
        trick=list(k.trick),
        tricks_won=list(k.tricks_won),
        points=list(k.points),
        decl_used=list(k.decl_used),
        decl_count=list(k.decl_count),
        mano=k.mano,
    )


def _tie_break(k: Knowledge, moves: list[int]) -> int:
    """Among equally good moves: the sensible one, else the cheapest non-trump, non-ace."""
    preferred = sensible_card(k)
    if preferred in moves:
        return preferred
    return min(
        moves,
        key=lambda c: (CARD_SUIT[c] == k.trump_suit, CARD_POINTS[c] >= 11, CARD_POINTS[c], -c),
    )


def _pick(k: Knowledge, moves: list[int], totals: list[float], tolerance: float = 1e-9) -> str:
    """The best move; moves within `tolerance` of it count as equally good."""
    best = max(totals)
    tied = [m for m, t in zip(moves, totals, strict=True) if t >= best - tolerance]
    return CARD_CODES[tied[0] if len(tied) == 1 else _tie_break(k, tied)]


# ---------------------------------------------------------------------- hard play


def _choose_card_pimc(
    k: Knowledge, rng: random.Random, budget_ms: int, *, use_bids: bool, use_plays: bool = False
) -> str:
    moves = list(cards_of(k.legal_mask()))
    solver = Solver(k.rules)
    node_budget = max(1, budget_ms) * NODES_PER_MS
    deadline = _deadline(budget_ms)
    totals = [0.0] * len(moves)
    batch = 16
    done = 0
    while solver.nodes < node_budget and done < 400:
        deals = sample_deals(
            k, rng, batch, use_bids=use_bids, use_plays=use_plays, batch_factor=PLAY_BATCH
        )
        drawn = batch * (PLAY_BATCH if use_bids or use_plays else 1)
        # Weighing a candidate deal by the play replays the hand so far (a node a card).
        solver.nodes += drawn * (SAMPLE_COST + (len(k.history) if use_plays else 0))
        if not deals:
            break
        exhaustive = len(deals) < batch
        for hands, weight in deals:
            vals = solver.values(_position(k, hands), moves, margin=HARD_MARGIN)
            for i, v in enumerate(vals):
                totals[i] += weight * v
            done += 1
            if solver.nodes >= node_budget or time.perf_counter() > deadline:
                break
        if exhaustive or time.perf_counter() > deadline:
            break
    if done == 0:
        return CARD_CODES[sensible_card(k)]
    return _pick(k, moves, totals)


def _choose_card_ismcts(k: Knowledge, rng: random.Random, budget_ms: int) -> str:
    moves = list(cards_of(k.legal_mask()))
    if _partner_has_the_trick(k):
        # The trick is ours whatever we play: keep trumps and aces for later tricks.
        moves = [c for c in moves if CARD_SUIT[c] != k.trump_suit and c % 5 != 0] or moves
    deadline = _deadline(budget_ms)
    iterations = max(1, budget_ms) * ISMCTS_ITERATIONS_PER_MS
    stats = ismcts.search(k, rng, moves, iterations, deadline)
    if not stats:
        return CARD_CODES[sensible_card(k)]
    rates = {share for _, share in stats.values()}
    if len(stats) < len(moves) or len(rates) == 1:
        # Nothing to tell the moves apart (the contract is decided whatever we do).
        return CARD_CODES[_tie_break(k, list(stats))]
    return CARD_CODES[max(stats, key=lambda m: stats[m][0])]


# ---------------------------------------------------------------------- medium play


def _rollout(k: Knowledge, hands: list[int], seat: int, move: int) -> float:
    """Play the hand out with the rule-based policy from `seat` playing `move` (-1: the
    policy's card); +1 if `seat`'s pair wins it, -1 if not (2 for a pass hand over 100)."""
    trump = k.trump_suit
    out = k.out
    nplayers = 3 if out >= 0 else 4
    by_points = k.points_decide
    declare = k.contract == 0 or k.rules.declarations_in_solo
    need = k.rules.tricks_needed[k.contract] if k.contract else 0
    dpair = k.declarer & 1 if k.declarer >= 0 else -1
    hands = hands[:]
    points = list(k.points)
    used = list(k.decl_used)
    count = list(k.decl_count)
    tricks = [0, 0]
    for s in range(4):
        tricks[s & 1] += k.tricks_won[s]
    trick = list(k.trick)
    gone = k.played
    cur = seat
    last_pair = -1

    def policy(cur: int) -> int:
        return rule_based_card(hands[cur], trick, trump, cur, gone, k.declarer, by_points, nplayers)

    card = move if move >= 0 else policy(cur)
    while True:
        hands[cur] ^= CARD_BIT[card]
        trick.append((cur, card))
        gone |= CARD_BIT[card]
        if len(trick) == nplayers:
            win = trick[0][1]
            winner = trick[0][0]
            pts = 0
            for s, c in trick:
                pts += CARD_POINTS[c]
                if beats(c, win, trump):
                    win, winner = c, s
            wp = winner & 1
            tricks[wp] += 1
            points[wp] += pts
            trick = []
            left = hands[winner].bit_count()
            if not by_points:
                if tricks[dpair] >= need:
                    return 1.0 if seat & 1 == dpair else -1.0
                if tricks[dpair ^ 1] > 5 - need:
                    return -1.0 if seat & 1 == dpair else 1.0
            elif left == 0:
                points[wp] += k.rules.last_trick_bonus
                last_pair = wp
            elif declare:
                points[wp] += declaration_points(hands, winner, out, trump, used, count, k.rules)
            if left == 0:
                break
            cur = winner
        else:
            cur = _next(cur, out)
        card = policy(cur)
    diff = points[0] - points[1]
    if diff == 0:
        tie_rule = k.rules.pass_tie if k.contract == 0 else k.rules.solo_tie
        winner_pair = last_pair if tie_rule == "last_trick" else k.mano & 1
    else:
        winner_pair = 0 if diff > 0 else 1
    mp = 1.0
    above = k.rules.pass_hand_bonus_above
    if k.contract == 0 and above is not None and points[winner_pair] > above:
        mp = float(k.rules.pass_hand_bonus_points)
    return mp if seat & 1 == winner_pair else -mp


def _partner_has_the_trick(k: Knowledge) -> bool:
    """Whether this seat plays last to a trick its partner's card already wins."""
    nplayers = 3 if k.out >= 0 else 4
    if len(k.trick) != nplayers - 1:
        return False
    win = k.trick[0][1]
    win_seat = k.trick[0][0]
    for s, c in k.trick[1:]:
        if beats(c, win, k.trump_suit):
            win, win_seat = c, s
    return win_seat == k.seat ^ 2


def _choose_card_rollouts(
    k: Knowledge,
    rng: random.Random,
    budget_ms: int,
    samples: int = 200,
    use_plays: bool = False,
) -> str:
    moves = list(cards_of(k.legal_mask()))
    if not k.points_decide and _partner_has_the_trick(k):
        # The trick is ours whatever we play: keep trumps and aces for later tricks.
        keep = [c for c in moves if CARD_SUIT[c] != k.trump_suit and c % 5 != 0]
        if keep:
            moves = keep
        if len(moves) == 1:
            return CARD_CODES[moves[0]]
    work_budget = max(1, budget_ms) * ROLLOUT_PLAYS_PER_MS
    deadline = _deadline(budget_ms)
    totals = [0.0] * len(moves)
    work = 0
    plays_left = sum(k.hand_sizes[s] for s in range(4) if s != k.out)
    done = 0
    wsum = 0.0
    use_plays = use_plays and any(s != k.seat for s, _ in k.history)
    # Weighing a candidate deal by the play replays the hand so far (a play a card).
    weigh_cost = PLAY_BATCH * len(k.history) if use_plays else 0
    while work < work_budget and done < samples:
        deals = sample_deals(
            k, rng, 8, use_bids=False, use_plays=use_plays, batch_factor=PLAY_BATCH
        )
        if not deals:
            break
        work += weigh_cost * len(deals)
        if use_plays:
            # Deals drawn twice are played out once (rollouts are deterministic).
            merged: dict[tuple[int, ...], list[Any]] = {}
            for hands, w in deals:
                key = tuple(hands)
                if key in merged:
                    merged[key][1] += w
                else:
                    merged[key] = [hands, w]
            unique = [(h, w) for h, w in merged.values()]
        else:
            unique = deals
        for hands, w in unique:
            for i, m in enumerate(moves):
                totals[i] += w * _rollout(k, hands, k.seat, m)
            wsum += w
            work += plays_left * len(moves)
            done += 1
            if work >= work_budget or time.perf_counter() > deadline:
                break
        if len(deals) < 8 or time.perf_counter() > deadline:
            break
    if done == 0 or wsum <= 0:
        return CARD_CODES[sensible_card(k)]
    # Rollouts are noisy: near-equal moves go to the rule-based choice.
    return _pick(k, moves, totals, tolerance=ROLLOUT_TOLERANCE * wsum)


# ---------------------------------------------------------------------- bidding


def _made_chances(
    k: Knowledge, rng: random.Random, levels: list[int], level: str, budget_ms: int
) -> dict[int, float]:
    """Chance of making each contract level as declarer over sampled deals.

    Hard solves each deal exactly; medium plays it out with the rule-based policy.
    """
    if level != "hard":
        return _made_chances_rollouts(k, rng, levels)
    solver = Solver(k.rules)
    n = HARD_BID_SAMPLES
    node_budget = max(1, budget_ms) * NODES_PER_MS
    deadline = _deadline(budget_ms)
    deals = sample_deals(k, rng, n, use_bids=level == "hard")
    out = k.seat ^ 2
    leader = k.mano if k.mano != out else _next(k.mano, out)
    made = dict.fromkeys(levels, 0.0)
    total = 0.0
    for hands, weight in deals:
        total += weight
        for lv in sorted(levels):
            pos = Position(
                hands=hands,
                trump=k.trump_suit,
                out=out,
                declarer=k.seat,
                contract=lv,
                leader=leader,
                trick=[],
                tricks_won=[0, 0, 0, 0],
                points=[0, 0],
                decl_used=[0, 0],
                decl_count=[0, 0],
                mano=k.mano,
            )
            if solver.by_points(pos):
                ok = _points_root_wins(solver, pos)
            else:
                ok = solver.declarer_makes(pos)
            if not ok:
                break  # a higher contract cannot be made either
            made[lv] += weight
        if solver.nodes >= node_budget or time.perf_counter() > deadline:
            break
    if total <= 0:
        return dict.fromkeys(levels, 0.0)
    return {lv: made[lv] / total for lv in levels}


def _made_chances_rollouts(
    k: Knowledge, rng: random.Random, levels: list[int], n: int = MEDIUM_BID_SAMPLES
) -> dict[int, float]:
    out = k.seat ^ 2
    leader = k.mano if k.mano != out else _next(k.mano, out)
    deals = sample_deals(k, rng, n, use_bids=False)
    if not deals:
        return dict.fromkeys(levels, 0.0)
    made = dict.fromkeys(levels, 0.0)
    for hands, _ in deals:
        for lv in levels:
            k2 = replace(
                k, phase="playing", contract=lv, declarer=k.seat, out=out, leader=leader, trick=[]
            )
            v = _rollout(k2, hands, leader, -1)
            if (v > 0) == (leader & 1 == k.seat & 1):
                made[lv] += 1
    return {lv: made[lv] / len(deals) for lv in levels}


def _points_root_wins(solver: Solver, pos: Position) -> bool:
    """Classic solo: whether the declarer wins on points from the first lead."""
    leader = pos.leader
    moves = list(cards_of(pos.hands[leader]))
    vals = solver.values(pos, moves)
    best = max(vals)
    return best > 0 if leader & 1 == pos.declarer & 1 else best < 0


@dataclass(frozen=True, slots=True)
class BidEstimate:
    """What a search level weighs before it bids (see `bid_estimate`)."""

    #: Expected match points for this seat's pair if it passes.
    ev_pass: float
    #: Estimated chance of making each legal contract level as declarer.
    chances: dict[int, float]


def bid_estimate(
    k: Knowledge, rng: random.Random, level: str, budget_ms: int
) -> BidEstimate | None:
    """The estimates behind a bid, or None when the seat passes without searching
    (no bid is legal, or the hand is hopeless)."""
    bids = [a for a in k.legal if a != "pass" and a in BID_LEVEL]
    if not bids or _hand_is_hopeless(k):
        return None
    values = k.rules.contract_values
    high_seat = -1
    high = 0
    for s, lv in k.bids:
        if lv > high:
            high, high_seat = lv, s
    if high == 0:
        ev_pass = _pass_hand_value(k, rng, level)
    elif high_seat & 1 == k.seat & 1:
        ev_pass = values[high] * (2 * ASSUMED_MADE - 1)
    else:
        ev_pass = -values[high] * (2 * ASSUMED_MADE - 1)
    chances = _made_chances(k, rng, [BID_LEVEL[b] for b in bids], level, budget_ms)
    return BidEstimate(ev_pass, chances)


def bid_from_estimate(values: tuple[int, ...], estimate: BidEstimate | None, level: str) -> str:
    """The bid with the best expected match points (`values`: the rules' contract values)."""
    if estimate is None:
        return "pass"
    best_word = "pass"
    best_ev = estimate.ev_pass + BID_MARGIN[level]
    for lv, chance in estimate.chances.items():
        p = chance - DECLARER_DISCOUNT[level]
        if level == "hard":
            p += BIG_CONTRACT_BONUS.get(lv, 0.0)
        p = min(1.0, max(0.0, p))
        ev = values[lv] * (2 * p - 1)
        if ev > best_ev:
            best_ev = ev
            best_word = BIDS[lv]
    return best_word


def _choose_bid(k: Knowledge, rng: random.Random, level: str, budget_ms: int) -> str:
    estimate = bid_estimate(k, rng, level, budget_ms)
    return bid_from_estimate(k.rules.contract_values, estimate, level)


def _pass_hand_value(k: Knowledge, rng: random.Random, level: str) -> float:
    """Expected match points for this seat's pair if the hand is passed out (rollouts)."""
    k2 = replace(k, phase="playing", contract=0, declarer=-1, out=-1, leader=k.mano, trick=[])
    deals = sample_deals(k, rng, PASS_VALUE_SAMPLES[level], use_bids=False)
    if not deals:
        return 0.0
    total = 0.0
    for hands, _ in deals:
        v = _rollout(k2, hands, k.mano, -1)
        total += v if k.mano & 1 == k.seat & 1 else -v
    return total / len(deals)


def _hand_is_hopeless(k: Knowledge) -> bool:
    trumps = k.own & SUIT_MASK[k.trump_suit]
    aces = sum(1 for c in cards_of(k.own) if c % 5 == 0)
    return trumps.bit_count() <= 1 and aces == 0
