"""Information-set Monte Carlo tree search (hard): the defence of trick contracts and
the early tricks of hands decided on points.

Perfect-information solving (PIMC) lets each sampled deal's players see every
hand, their partner's included, so it plays as if a pair could agree on a plan
no real pair could share. Here one tree is grown over the seat's information set
instead (single-observer ISMCTS): every iteration takes the next deal of a pool
sampled from the view (weighted by the play, and in contracts by the bids), walks
the tree choosing among the moves legal in that deal (UCB, counting how often a
move was available), adds one node and plays the rest of the hand out with the
rule-based policy: a trick contract until it is decided, a hand decided on points
to the end (cards, the last trick's 10, declarations). Each node keeps the mean
result for the seat that chose its move. The most visited first move is played.
Measured against PIMC on 285 contract hands declared by medium: 240 made against
243 at hard's budget (docs/bots.md, "Levels").
"""

from __future__ import annotations

import math
import random
import time

from games.engine.core import CARD_BIT, CARD_POINTS, CARD_SUIT, beats, cards_of, legal_mask

from .heuristic import declaration_points, rule_based_card
from .knowledge import Knowledge
from .sampling import sample_deals
from .solver import _next

#: Sampled deals the iterations cycle through.
POOL = 60
#: UCB exploration constant.
EXPLORATION = 0.7


class _Node:
    __slots__ = ("avail", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.reward = 0.0
        self.avail = 0


def search(
    k: Knowledge,
    rng: random.Random,
    moves: list[int],
    iterations: int,
    deadline: float,
) -> dict[int, tuple[int, float]] | None:
    """Per first move (one of `moves`): (visits, mean result for the seat's pair in
    [0, 1]), or None when no deal fits the view. A trick contract scores 1 when the
    pair's side of it wins; a hand on points scores (match points won + 2) / 4, so a
    pass hand won above 100 is 1 and lost above 100 is 0. Stops at `iterations` or,
    as a safety net, at `deadline` (a `time.perf_counter` value)."""
    by_points = k.points_decide
    deals = [h for h, _ in sample_deals(k, rng, POOL, use_bids=not by_points, use_plays=True)]
    if not deals:
        return None
    trump = k.trump_suit
    out = k.out
    rules = k.rules
    nplayers = 3 if out >= 0 else 4
    dpair = k.declarer & 1 if k.declarer >= 0 else -1
    need = rules.tricks_needed[k.contract] if k.contract else 0
    declare = k.contract == 0 or rules.declarations_in_solo
    tie_rule = rules.pass_tie if k.contract == 0 else rules.solo_tie
    bonus_above = rules.pass_hand_bonus_above if k.contract == 0 else None
    tricks0 = [0, 0]
    for s in range(4):
        tricks0[s & 1] += k.tricks_won[s]
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
        tricks = tricks0[:]
        points = list(k.points)
        used = list(k.decl_used)
        count = list(k.decl_count)
        node = root
        path: list[tuple[_Node, int]] = []  # (node entered, seat whose move led there)
        in_tree = True
        result0 = -1.0  # the result for pair 0, in [0, 1], once the hand is decided
        while result0 < 0:
            lead = win = -1
            if trick:
                lead = CARD_SUIT[trick[0][1]]
                win = trick[0][1]
                for _, c in trick[1:]:
                    if beats(c, win, trump):
                        win = c
            legal = legal_mask(hands[seat], lead, win, trump)
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
                    hands[seat], trick, trump, seat, gone, k.declarer, by_points, nplayers
                )
            bit = CARD_BIT[card]
            hands[seat] ^= bit
            gone |= bit
            trick.append((seat, card))
            if len(trick) < nplayers:
                seat = _next(seat, out)
                continue
            win, winner = trick[0][1], trick[0][0]
            pts = 0
            for s, c in trick:
                pts += CARD_POINTS[c]
                if beats(c, win, trump):
                    win, winner = c, s
            wp = winner & 1
            tricks[wp] += 1
            trick = []
            seat = winner
            if not by_points:
                if tricks[dpair] >= need:
                    result0 = 1.0 if dpair == 0 else 0.0
                elif tricks[dpair ^ 1] > 5 - need:
                    result0 = 0.0 if dpair == 0 else 1.0
                continue
            points[wp] += pts
            if hands[winner]:
                if declare:
                    points[wp] += declaration_points(hands, winner, out, trump, used, count, rules)
                continue
            points[wp] += rules.last_trick_bonus
            diff = points[0] - points[1]
            tie_winner = wp if tie_rule == "last_trick" else k.mano & 1
            won = tie_winner if diff == 0 else int(diff < 0)
            mp = 1
            if bonus_above is not None and points[won] > bonus_above:
                mp = rules.pass_hand_bonus_points
            result0 = (2 + (mp if won == 0 else -mp)) / 4
        for n, mover in path:
            n.visits += 1
            n.reward += result0 if mover & 1 == 0 else 1.0 - result0
    # The root's children are this seat's moves: their means are already its pair's.
    return {m: (ch.visits, ch.reward / ch.visits) for m, ch in root.children.items() if ch.visits}


def _ucb(node: _Node) -> float:
    return node.reward / node.visits + EXPLORATION * math.sqrt(
        math.log(max(node.avail, 1)) / node.visits
    )
