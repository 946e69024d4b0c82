import random

from cuatrola.bots.knowledge import Knowledge
from cuatrola.bots.search import _position
from cuatrola.bots.solver import Solver
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CARD_CODES, CODE_INDEX


def _brute(hand, pair, margin):
    """Minimax through the engine itself: the reference the solver must match."""
    if hand.is_over:
        r = hand.result
        if margin:
            return r.hand_points[pair] - r.hand_points[1 - pair]
        return 1 if r.scoring_pair == pair else -1
    vals = [_brute(hand.apply(a)[0], pair, margin) for a in hand.legal_actions()]
    return max(vals) if hand.to_play & 1 == pair else min(vals)


def _late_positions(n, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        hand = Hand.deal(
            rng.choice(("online", "classic")), dealer=rng.randrange(4), seed=rng.random()
        )
        while hand.phase == "bidding":
            legal = hand.legal_actions()
            hand, _ = hand.apply(rng.choice(legal) if rng.random() < 0.3 else "pass")
        stop = rng.randrange(7, 12)
        while not hand.is_over and len(hand.actions) - 4 < stop:
            hand, _ = hand.apply(rng.choice(hand.legal_actions()))
        if not hand.is_over:
            out.append(hand)
    return out


def test_the_solver_agrees_with_exhaustive_play_through_the_engine():
    for i, hand in enumerate(_late_positions(40, seed=3)):
        k = Knowledge.from_view(seat_view(hand, hand.to_play))
        pos = _position(k, [hand.hand_mask(s) for s in range(4)])
        solver = Solver(hand.rules)
        moves = [CODE_INDEX[a] for a in hand.legal_actions()]
        margin = i % 2 == 0
        values = solver.values(pos, moves, margin=margin)
        pair = hand.to_play & 1
        by_points = solver.by_points(pos)
        for move, value in zip(moves, values, strict=True):
            after = hand.apply(CARD_CODES[move])[0]
            assert value == _brute(after, pair, margin and by_points)
