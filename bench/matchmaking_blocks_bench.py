"""The queue's choice of tables with blocked pairs (online.matchmaking.tables_choose,
a pure function): milliseconds a pass takes over a waiting list of N players with B
random blocks among them, against the same list without blocks. No database.

    nice -n 19 .venv/bin/python bench/matchmaking_blocks_bench.py \
        [--players 400] [--blocks 2000] [--runs 20] [--pairs 50] [--marks 2000]

The third line adds partners (issue 44): `--pairs` queued pairs (two players each)
and `--marks` random "prefer"/"avoid as partner" marks, with the blocks.

A pass runs after every join and every ONLINE_SWEEP_SECONDS (1 s) over at most
ONLINE_MATCH_BATCH (400) players: it must stay well under a second.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from online.matchmaking import Waiting, tables_choose

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def waiting_list(players: int, rng: random.Random) -> list[Waiting]:
    return [
        Waiting(k, int(rng.gauss(1500, 200)), NOW - timedelta(seconds=rng.uniform(0, 25)))
        for k in range(players)
    ]


def blocks(players: int, count: int, rng: random.Random) -> frozenset[frozenset[int]]:
    pairs: set[frozenset[int]] = set()
    while len(pairs) < min(count, players * (players - 1) // 2):
        a, b = rng.randrange(players), rng.randrange(players)
        if a != b:
            pairs.add(frozenset((a, b)))
    return frozenset(pairs)


def timed(people, blocked, avoid=frozenset(), prefer=frozenset()) -> tuple[float, float, int]:
    """(wall ms, CPU ms of this process, tables): on a shared machine the CPU time is
    what the pass costs, the wall time what it waited for the CPU too."""
    start, cpu = time.perf_counter(), time.process_time()
    tables = tables_choose(
        people,
        now=NOW,
        fill_after_seconds=20,
        bot_rating=1200,
        blocked=blocked,
        avoid=avoid,
        prefer=prefer,
    )
    return (
        (time.perf_counter() - start) * 1000,
        (time.process_time() - cpu) * 1000,
        len(tables),
    )


def with_partners(people: list[Waiting], pairs: int) -> list[Waiting]:
    """The first 2 × `pairs` players queued as pairs (0 with 1, 2 with 3, …)."""
    out = list(people)
    for k in range(0, 2 * pairs, 2):
        a, b = out[k], out[k + 1]
        out[k] = Waiting(a.key, a.rating, a.joined_at, b.key)
        out[k + 1] = Waiting(b.key, b.rating, b.joined_at, a.key)
    return out


def marks(
    players: int, count: int, rng: random.Random
) -> tuple[frozenset[tuple[int, int]], frozenset[tuple[int, int]]]:
    found: dict[tuple[int, int], str] = {}
    while len(found) < min(count, players * (players - 1)):
        a, b = rng.randrange(players), rng.randrange(players)
        if a != b:
            found[(a, b)] = rng.choice(("prefer", "avoid"))
    prefer = frozenset(k for k, v in found.items() if v == "prefer")
    return prefer, frozenset(k for k, v in found.items() if v == "avoid")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--blocks", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--marks", type=int, default=2000)
    args = parser.parse_args()
    print(
        f"{platform.node()} · {platform.processor() or platform.machine()} · "
        f"{os.cpu_count()} CPUs · Python {platform.python_version()}"
    )
    print(
        f"{args.players} waiting, {args.blocks} blocked pairs, {args.runs} runs; "
        f"partners: {args.pairs} queued pairs, {args.marks} marks"
    )
    cases = (("no blocks", 0, False), ("with blocks", args.blocks, False))
    cases += (("+ partners", args.blocks, True),)
    for label, count, partners in cases:
        times, cpus, tables = [], [], []
        for run in range(args.runs):
            rng = random.Random(run)
            people = waiting_list(args.players, rng)
            blocked = blocks(args.players, count, rng)
            if not partners:
                ms, cpu, n = timed(people, blocked)
            else:
                prefer, avoid = marks(args.players, args.marks, rng)
                ms, cpu, n = timed(with_partners(people, args.pairs), blocked, avoid, prefer)
            times.append(ms)
            cpus.append(cpu)
            tables.append(n)
        times.sort()
        print(
            f"{label:12} median {statistics.median(times):8.1f} ms · "
            f"max {times[-1]:8.1f} ms · CPU median {statistics.median(cpus):7.1f} ms, "
            f"max {max(cpus):7.1f} ms · tables {statistics.mean(tables):.1f}"
        )


if __name__ == "__main__":
    main()
