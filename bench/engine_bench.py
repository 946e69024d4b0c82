"""Benchmark of the rules engine (cuatrola/engine): prints figures and the machine.

    .venv/bin/python bench/engine_bench.py [--seconds 2]

Everything goes through the public API (`Hand.legal_actions` + `Hand.apply`,
`Match.apply`) on one core (a single thread). Rates use the process's CPU
time, so other load on a shared machine does not deflate them; wall-clock
rates and the load average are printed too.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from cuatrola.engine import Hand, Match


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def random_bid(hand: Hand, rng: random.Random) -> str:
    """Pass 70% of the time, else a random legal bid: a mix of pass and contract hands."""
    legal = hand.legal_actions()
    if len(legal) == 1 or rng.random() < 0.7:
        return "pass"
    return legal[rng.randrange(1, len(legal))]


def timed(run: Callable[[], int], seconds: float) -> tuple[int, float, float]:
    """Repeat `run` (returns a count) for about `seconds` of CPU time."""
    gc.collect()
    count = 0
    cpu0 = time.process_time()
    wall0 = time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        count += run()
    return count, time.process_time() - cpu0, time.perf_counter() - wall0


def bench_plays(seconds: float) -> tuple[int, float, float]:
    rng = random.Random(1)
    rand = rng.random
    starts = []
    for i in range(2000):
        hand = Hand.deal("online" if i % 2 else "classic", i & 3, rng)
        while hand.phase == "bidding":
            hand, _ = hand.apply(random_bid(hand, rng))
        starts.append(hand)

    def run() -> int:
        plays = 0
        for hand in starts:
            while hand.to_play is not None:
                legal = hand.legal_actions()
                hand, _events = hand.apply(legal[int(rand() * len(legal))])
                plays += 1
        return plays

    return timed(run, seconds)


def bench_hands(rules: str, all_pass: bool, seconds: float) -> tuple[int, float, float]:
    """Deal, bid and play whole hands with random legal actions.

    `all_pass`: every seat passes, so all 20 cards are played (the longest
    hands); otherwise bids are random too (`random_bid`), so contract hands
    that stop early are mixed in.
    """
    rng = random.Random(2)
    rand = rng.random

    def run() -> int:
        for i in range(200):
            hand = Hand.deal(rules, i & 3, rng)
            while hand.phase == "bidding":
                hand, _events = hand.apply("pass" if all_pass else random_bid(hand, rng))
            while hand.to_play is not None:
                legal = hand.legal_actions()
                hand, _events = hand.apply(legal[int(rand() * len(legal))])
        return 200

    return timed(run, seconds)


def bench_matches(rules: str, seconds: float) -> tuple[int, float, float, int]:
    rng = random.Random(3)
    rand = rng.random
    counter = [0, 0]  # matches started, actions

    def run() -> int:
        for _ in range(10):
            counter[0] += 1
            match = Match.new(rules, seed=counter[0])
            while not match.is_over:
                legal = match.legal_actions()
                match, _events = match.apply(legal[int(rand() * len(legal))])
                counter[1] += 1
        return 10

    n, cpu, wall = timed(run, seconds)
    return n, cpu, wall, counter[1]


def memory_per_state(n_hands: int = 2000) -> tuple[float, int]:
    """Bytes allocated per kept state (all states of random hands), and states kept."""
    rng = random.Random(4)
    rand = rng.random
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    kept: list[Hand] = []
    for i in range(n_hands):
        hand = Hand.deal("online", i & 3, rng)
        kept.append(hand)
        while hand.to_play is not None:
            legal = hand.legal_actions()
            hand, _events = hand.apply(legal[int(rand() * len(legal))])
            kept.append(hand)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    grown -= sys.getsizeof(kept)  # the list holding them is not part of a state
    return grown / len(kept), len(kept)


def deep_size(obj: object, seen: set[int] | None = None) -> int:
    """sys.getsizeof over everything reachable from `obj` (each object once)."""
    seen = set() if seen is None else seen
    if id(obj) in seen or isinstance(obj, type):
        return 0
    seen.add(id(obj))
    size = sys.getsizeof(obj)
    if isinstance(obj, dict):
        size += sum(deep_size(k, seen) + deep_size(v, seen) for k, v in obj.items())
    elif isinstance(obj, tuple | list | set | frozenset):
        size += sum(deep_size(x, seen) for x in obj)
    slots = [s for cls in type(obj).__mro__ for s in getattr(cls, "__slots__", ())]
    for name in slots:
        if hasattr(obj, name):
            size += deep_size(getattr(obj, name), seen)
    return size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per figure")
    args = parser.parse_args()
    s = args.seconds

    print("Cuatrola engine benchmark")
    print(f"machine: {cpu_model()}, {os.cpu_count()} logical CPUs, {platform.machine()}")
    print(f"python:  {platform.python_implementation()} {platform.python_version()}")
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print("rates use CPU time of this single-threaded process (wall-clock rate in brackets)")
    print()

    n, cpu, wall = bench_plays(s)
    print(
        f"card plays (legal_actions + apply): {n / cpu:12,.0f} /s  "
        f"[{n / wall:,.0f} /s wall]  ({n:,} plays)"
    )
    for rules in ("online", "classic"):
        for all_pass, kind in ((False, "random bids"), (True, "all pass, 20 cards")):
            n, cpu, wall = bench_hands(rules, all_pass, s)
            print(
                f"random full hands, {rules:7}:       {n / cpu:12,.0f} /s  "
                f"[{n / wall:,.0f} /s wall]  (deal + bidding + play, {kind}, {n:,} hands)"
            )
    for rules in ("online", "classic"):
        n, cpu, wall, actions = bench_matches(rules, s)
        print(
            f"random full matches, {rules:7}:     {n / cpu:12,.0f} /s  "
            f"[{n / wall:,.0f} /s wall]  ({n:,} matches, {actions / cpu:,.0f} Match.apply/s)"
        )
    per_state, states = memory_per_state()
    print(f"memory per kept state (tracemalloc):  {per_state:12,.0f} bytes  ({states:,} states)")
    rng = random.Random(5)
    hand = Hand.deal("online", 0, rng)
    for action in ("pass", "pass", "pass", "pass"):
        hand, _ = hand.apply(action)
    for _ in range(6):
        hand, _ = hand.apply(hand.legal_actions()[0])
    print(f"deep size of one mid-hand state:      {deep_size(hand):12,} bytes  (nothing shared)")
    print(f"load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
