"""Information-set Monte Carlo tree search for the defence of trick contracts (hard).

Perfect-information solving (PIMC) lets each sampled deal's defenders see every
hand, their partner's included, so it defends as if the two could agree on a
plan no real pair could share. Here one tree is grown over the defender's
information set instead (single-observer ISMCTS): every iteration takes the next
deal of a pool sampled from the view (weighted by the bids and the play), walks
the tree choosing among the moves legal in that deal (UCB, counting how often a
move was available), adds one node and plays the rest of the hand out with the
rule-based policy until the contract is decided. The most visited first move is
played. Measured against PIMC on 285 contract hands declared by medium: 240
made against 243 at hard's budget (docs/bots.md, "Levels").
"""

from __future__ import annotations

import math
import random
import time

from cuatrola.engine.core import CARD_BIT, beats, cards_of

from .heuristic import rule_based_card, trick_legal_mask
from .knowledge import Knowledge
from .sampling import sample_deals
from .solver import _next

#: Sampled deals the iterations cycle through.
POOL = 60
#: UCB exploration constant.
EXPLORATION = 0.7


class _Node:
    __slots__ = ("avail", "children", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.wins = 0
        self.avail = 0


def search(
    k: Knowledge,
    rng: random.Random,
    moves: list[int],
    iterations: int,
    deadline: float,
) -> dict[int, tuple[int, float]] | None:
    """Per first move (one of `moves`): (visits, share won by the seat's pair), or
    None when no deal fits the view. Stops at `iterations` or, as a safety net, at
    `deadline` (a `time.perf_counter` value)."""
    trump = k.trump_suit
    out = k.out
    need = k.rules.tricks_needed[k.contract]
    fail_at = 6 - need
    dpair = k.declarer & 1
    deals = [h for h, _ in sample_deals(k, rng, POOL, use_bids=True, use_plays=True)]
    if not deals:
        return None
    dt0 = sum(k.tricks_won[s] for s in range(4) if s & 1 == dpair)
    ot0 = sum(k.tricks_won[s] for s in range(4) if s & 1 != dpair)
    nplayers = 3 if out >= 0 else 4
    root = _Node()
    root_moves = 0
    for m in moves:
        root_moves |= CARD_BIT[m]
    for it in range(iterations):
        if it & 255 == 255 and time.perf_counter() > deadline:
            break
        hands = list(deals[it % len(deals)])
        trick = list(k.trick)
        gone = k.played
        seat = k.seat
        dt, ot = dt0, ot0
        node = root
        path: list[tuple[_Node, int]] = []  # (node entered, seat whose move led there)
        in_tree = True
        made = None
        while made is None:
            legal = trick_legal_mask(hands[seat], trick, trump)
            if node is root:
                legal &= root_moves
            if in_tree:
                options = cards_of(legal)
                fresh = [m for m in options if m not in node.children]
                for m in options:
                    if m in node.children:
                        node.children[m].avail += 1
                if fresh:
                    card = fresh[rng.randrange(len(fresh))]
                    child = _Node()
                    node.children[card] = child
                    node = child
                    in_tree = False
                else:
                    card = max(options, key=lambda m: _ucb(node.children[m]))
                    node = node.children[card]
                path.append((node, seat))
            else:
                card = rule_based_card(
                    hands[seat], trick, trump, seat, gone, k.declarer, False, nplayers
                )
            bit = CARD_BIT[card]
            hands[seat] ^= bit
            gone |= bit
            trick.append((seat, card))
            if len(trick) < nplayers:
                seat = _next(seat, out)
                continue
            win, winner = trick[0][1], trick[0][0]
            for s, c in trick[1:]:
                if beats(c, win, trump):
                    win, winner = c, s
            if winner & 1 == dpair:
                dt += 1
            else:
                ot += 1
            if dt >= need:
                made = True
            elif ot >= fail_at:
                made = False
            trick = []
            seat = winner
        for n, mover in path:
            n.visits += 1
            if (mover & 1 == dpair) == made:
                n.wins += 1
    return {m: (ch.visits, ch.wins / ch.visits) for m, ch in root.children.items() if ch.visits}


def _ucb(node: _Node) -> float:
    return node.wins / node.visits + EXPLORATION * math.sqrt(
        math.log(max(node.avail, 1)) / node.visits
    )
