"""Thinking time on fixed positions, in CPU time with a generous bound (so a loaded
machine does not fail it); the real figures are in bench/bots_bench.py."""

import time

import pytest

from cuatrola.bots import choose_action
from cuatrola.engine import Hand, seat_view

BOUND_S = {"easy": 0.1, "medium": 0.5, "hard": 2.0}


def _positions():
    out = []
    for n in range(3):
        hand = Hand.deal("online", dealer=n, seed=500 + n)
        out.append(hand)  # bidding
        for _ in range(4):
            hand, _ = hand.apply("pass")
        out.append(hand)  # first lead of a passed-out hand: the costliest search
    return out


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_each_level_stays_within_a_generous_cpu_bound(level):
    for i, hand in enumerate(_positions()):
        view = seat_view(hand, hand.to_play)
        start = time.process_time()
        choose_action(view, level=level, seed=i)
        assert time.process_time() - start < BOUND_S[level]
