"""The coach's cost and precision (issue 34; docs/coach.md). Not a test.

Two parts, in one process (one worker: the analysis is single-threaded):

1. **Whole matches.** `--matches` online matches are played by bots (`--players`,
   seeded), then every decision with a choice is judged exactly as the Celery task
   judges it (`coach.judge.judge` on the acting seat's view, `--samples` deals a
   decision; default the coach's own counts). Prints each match's hands, decisions
   and seconds, then the median and p95 (target: a whole online match in < 60 s
   p95 on one worker of the production machine).
2. **Samples against spread** (`--spread-decisions N`, 0 to skip). For N decisions
   taken from those matches, each sample count of `--spread-samples` is run with
   `--spread-seeds` different seeds: the mean seconds per decision (the cost grows
   linearly with the deals weighed) and the spread of the estimated loss across
   seeds (its standard deviation, averaged over the decisions), which shrinks
   roughly as 1/sqrt(samples).

A small run that proves it works (about a minute):

    .venv/bin/python bench/coach_bench.py --matches 1 --max-hands 2 --spread-decisions 3 \
        --spread-samples 10 40 --spread-seeds 3

The full run (docs/coach.md gives its figures):

    nice -n 19 .venv/bin/python bench/coach_bench.py --matches 20 --spread-decisions 40
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from coach.judge import DecisionPoint, decision_points, judge
from cuatrola.bots import choose_action
from cuatrola.bots.assess import SAMPLES, assess
from cuatrola.engine import Match, seat_view


def play_match(seed: int, level: str, max_hands: int | None) -> dict:
    """A whole online match (or its first `max_hands` hands) played by `level` bots."""
    match = Match.new("online", seed=seed)
    while not match.is_over:
        if max_hands is not None and match.hand_no > max_hands:
            break
        seat = match.to_play
        assert seat is not None
        action = choose_action(
            seat_view(match, seat), level, seed=seed * 1000 + len(match.hand.actions)
        )
        match, _ = match.apply(action)
    # Cut short: the next hand is dealt but has no action, so nothing of it is judged.
    return match.to_dict()


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, round(share * len(ordered)) - 1))]


def kind_of(point: DecisionPoint) -> str:
    if point.kind == "bid":
        return "bid"
    return "tricks" if point.view["hand"].get("contract") else "points"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--players", default="medium", help="bot level that plays the matches")
    parser.add_argument(
        "--max-hands", type=int, default=None, help="analyse only the first N hands of each match"
    )
    parser.add_argument("--samples", type=int, default=None, help="deals per decision")
    parser.add_argument("--spread-decisions", type=int, default=40)
    parser.add_argument("--spread-samples", type=int, nargs="+", default=[25, 50, 100, 200, 400])
    parser.add_argument("--spread-seeds", type=int, default=8)
    args = parser.parse_args()
    if args.matches < 1 or args.spread_decisions < 0 or args.spread_seeds < 2:
        parser.error("--matches ≥ 1, --spread-decisions ≥ 0 and --spread-seeds ≥ 2")
    if any(s < 1 for s in args.spread_samples) or (args.samples is not None and args.samples < 1):
        parser.error("sample counts must be ≥ 1")

    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"{platform.node()} · {os.cpu_count()} CPUs (load average {load}) · "
        f"Python {platform.python_version()} · one process"
    )
    print(f"samples per decision: {args.samples or SAMPLES}")
    seconds: list[float] = []
    every: list[DecisionPoint] = []
    errors: list[float] = []
    for seed in range(args.first_seed, args.first_seed + args.matches):
        record = play_match(seed, args.players, args.max_hands)
        points = decision_points(record)
        every.extend(points)
        started = time.perf_counter()
        marks = 0
        for point in points:
            judgement = judge(view=point.view, action=point.action, samples=args.samples)
            marks += bool(judgement.mark)
            errors.append(judgement.error)
        took = time.perf_counter() - started
        seconds.append(took)
        print(
            f"match {seed}: {len(record['hands'])} hands, {len(points)} decisions judged, "
            f"{marks} marked, {took:.1f} s"
        )
    print(
        f"whole match: median {statistics.median(seconds):.1f} s, "
        f"p95 {percentile(seconds, 0.95):.1f} s, max {max(seconds):.1f} s "
        f"over {len(seconds)} matches (target < 60 s p95)"
    )
    print(
        f"standard error of a judged loss: mean {statistics.mean(errors):.3f}, "
        f"p95 {percentile(errors, 0.95):.3f}, max {max(errors):.3f} expected match points"
    )
    if not args.spread_decisions:
        return
    step = max(1, len(every) // args.spread_decisions)
    chosen = every[::step][: args.spread_decisions]
    print(
        f"\nsamples against spread: {len(chosen)} decisions, {args.spread_seeds} seeds each "
        f"(kinds: {', '.join(sorted({kind_of(p) for p in chosen}))})"
    )
    print(f"{'samples':>8} {'s/decision':>11} {'sd of loss':>11} {'mean error':>11}")
    for samples in args.spread_samples:
        spent = 0.0
        sds: list[float] = []
        errors: list[float] = []
        for point in chosen:
            losses = []
            for seed in range(args.spread_seeds):
                started = time.perf_counter()
                a = assess(point.view, seed=seed, samples=samples)
                spent += time.perf_counter() - started
                losses.append(a.loss(point.action))
                errors.append(a.error(point.action))
            sds.append(statistics.pstdev(losses))
        runs = len(chosen) * args.spread_seeds
        print(
            f"{samples:>8} {spent / runs:>11.3f} {statistics.mean(sds):>11.3f} "
            f"{statistics.mean(errors):>11.3f}"
        )


if __name__ == "__main__":
    main()
