"""Where the bots' strength can still come from (not a test; docs/bots.md, "Headroom").

Three measurements on the deals of bench/bots_bench.py (same deal numbers, same
seeds, so every figure can be reproduced and compared deal by deal):

    # Pass hands only (all four pass, then X's pair plays Y's), duplicate format.
    .venv/bin/python bench/bots_ceiling.py passes --pairing cheater:medium,hard:medium --deals 200

    # The contract hands of a saved bots_bench run (its bids replayed), played again
    # with the declarer at one level and the two defenders at another.
    .venv/bin/python bench/bots_ceiling.py contracts --runs bench/results/hard_medium.jsonl \\
        --play medium:medium,hard:medium,medium:hard,cheater:medium,medium:cheater

    # Hard vs medium: at every bid hard weighs, each legal bid is played out to the end.
    .venv/bin/python bench/bots_ceiling.py bids --deals 200

`cheater` sees every hand (exact search, as in bots_bench). `--workers` (default 2)
runs deals in parallel; `--set` overrides a bot setting as in bots_bench.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import random
import sys
from collections import defaultdict
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bots_bench as bench

import cuatrola.bots.search as bot_search
from cuatrola.bots import DEFAULT_BUDGET_MS, choose_action
from cuatrola.bots.knowledge import Knowledge
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.rules import BID_LEVEL, BIDS

#: Bids whose estimated chance is below this are not played out: counted as lost.
HOPELESS = 0.1


def _parallel(fn: Callable, jobs: list, workers: int) -> Iterable:
    # Measure the bots as designed (work-limited), not as cut short by the clock.
    bot_search.DEADLINE_FACTOR = 50.0
    if workers <= 1:
        return map(fn, jobs)
    pool = multiprocessing.get_context("fork").Pool(workers)
    return pool.imap(fn, jobs, chunksize=1)


def _pairs(text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(","):
        x, _, y = item.partition(":")
        if x not in bench.PLAYERS or y not in bench.PLAYERS:
            raise ValueError(f"{item!r}: players are {', '.join(bench.PLAYERS)}")
        pairs.append((x, y))
    return pairs


# ---------------------------------------------------------------------- passes


def _pass_deal(job: tuple[str, str, str, int]) -> dict:
    x, y, rules, deal = job
    base = bench.deal_hand(rules, deal)
    for _ in range(4):
        base, _ = base.apply("pass")
    x_points = total = 0
    for swap in (False, True):
        players = [y, x, y, x] if swap else [x, y, x, y]
        end = bench.play(base, players, deal * 2 + swap, bench.new_stats(), step=4)
        r = end.result
        total += r.match_points
        if r.scoring_pair == (1 if swap else 0):
            x_points += r.match_points
    return {"deal": deal, "x_points": x_points, "total": total}


def passes(args: argparse.Namespace) -> None:
    # Opened first, so that a bad --save path fails before the run, not after it.
    with open(args.save, "a") if args.save else contextlib.nullcontext() as out:
        for x, y in _pairs(args.pairing):
            jobs = [(x, y, args.rules, args.first_deal + i) for i in range(args.deals)]
            results = list(_parallel(_pass_deal, jobs, args.workers))
            if out:
                out.writelines(json.dumps({"x": x, "y": y, **r}) + "\n" for r in results)
            share, lo, hi = bench.interval(results)
            net = sum(2 * r["x_points"] - r["total"] for r in results) / len(results)
            print(
                f"pass hands only, {x} vs {y}, {len(results)} deals: {100 * share:.1f}%"
                f"  95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]  net {net:+.3f} match points a deal"
            )


# ---------------------------------------------------------------------- contracts


def _contract_hand(job: tuple[str, int, int, list[str], str, str]) -> tuple[str, bool]:
    rules, deal, swap, bids, declarer_level, defence_level = job
    hand = bench.deal_hand(rules, deal)
    for word in bids:
        hand, _ = hand.apply(word)
    players = [defence_level] * 4
    players[hand.declarer] = declarer_level
    end = bench.play(hand, players, deal * 2 + swap, bench.new_stats(), step=4)
    return end.contract, bool(end.result.made)


def contracts(args: argparse.Namespace) -> None:
    hands = []
    for name in args.runs:
        with open(name) as f:
            for line in f:
                if not line.strip():
                    continue
                row = json.loads(line)
                if "hands" not in row:
                    raise ValueError(f"{name}: saved by an older bots_bench (no per-hand record)")
                for swap, h in enumerate(row["hands"]):
                    if h["contract"]:
                        hands.append((row["deal"], swap, [w for _, w in h["bids"]]))
    if not hands:
        raise ValueError("no contract hand in the runs given")
    print(f"{len(hands)} contract hands from {', '.join(args.runs)}")
    for declarer_level, defence_level in _pairs(args.play):
        jobs = [(args.rules, d, s, b, declarer_level, defence_level) for d, s, b in hands]
        made: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for contract, ok in _parallel(_contract_hand, jobs, args.workers):
            made[contract][0] += ok
            made[contract][1] += 1
        parts = [f"{w} {made[w][0]}/{made[w][1]}" for w in BIDS[1:] if made[w][1]]
        total = sum(m for m, _ in made.values())
        print(
            f"  {declarer_level} declares, {defence_level} defends: made {total} of "
            f"{len(hands)} ({100 * total / len(hands):.1f}%): " + ", ".join(parts)
        )


# ---------------------------------------------------------------------- bids


def _bid_decisions(job: tuple[str, int, int]) -> list[dict]:
    """Hard vs medium on one deal and orientation; every hard bid decision with the
    result (hard's pair's match points) of each legal bid played out."""
    rules, deal, swap = job
    players = ["medium", "hard", "medium", "hard"] if swap else ["hard", "medium", "hard", "medium"]
    hard_pair = 1 if swap else 0
    seed = deal * 2 + swap
    hand: Hand = bench.deal_hand(rules, deal)
    values = hand.rules.contract_values
    decisions = []
    step = 0
    while hand.phase == "bidding":
        seat = hand.to_play
        view = seat_view(hand, seat)
        action = choose_action(view, level=players[seat], seed=seed * 100 + step)
        if players[seat] == "hard" and len(hand.legal_actions()) > 1:
            # The same rng as choose_action's: the estimates behind the bid just made.
            rng = random.Random(f"cuatrola-bot:hard:{seed * 100 + step}")
            k = Knowledge.from_view(view)
            estimate = bot_search.bid_estimate(k, rng, "hard", DEFAULT_BUDGET_MS["hard"])
            if estimate is not None:
                results = {}
                for word in hand.legal_actions():
                    lv = BID_LEVEL[word]
                    if word not in ("pass", action) and estimate.chances[lv] < HOPELESS:
                        results[word] = -values[lv]
                        continue
                    after, _ = hand.apply(word)
                    end = bench.play(after, players, seed, bench.new_stats(), step=step + 1)
                    r = end.result
                    won = r.scoring_pair == hard_pair
                    results[word] = r.match_points if won else -r.match_points
                decisions.append(
                    {
                        "deal": deal,
                        "swap": swap,
                        "after": [(s & 1 == seat & 1, lv) for s, lv in k.bids if lv],
                        "ev_pass": estimate.ev_pass,
                        "chances": estimate.chances,
                        "chosen": action,
                        "replayed": bot_search.bid_from_estimate(values, estimate, "hard"),
                        "results": results,
                    }
                )
        hand, _ = hand.apply(action)
        step += 1
    return decisions


def _replay_total(decisions: list[dict], values: tuple[int, ...]) -> tuple[int, int]:
    """Total of hard's bid decisions under the current settings, and how many changed."""
    total = changed = 0
    for d in decisions:
        ev_pass = d["ev_pass"]
        if d["after"]:  # passing over a bid: its value follows ASSUMED_MADE
            ours, lv = d["after"][-1]
            ev_pass = (1 if ours else -1) * values[lv] * (2 * bot_search.ASSUMED_MADE - 1)
        estimate = bot_search.BidEstimate(ev_pass, d["chances"])
        word = bot_search.bid_from_estimate(values, estimate, "hard")
        total += d["results"][word]
        changed += word != d["chosen"]
    return total, changed


def _sweep(decisions: list[dict], values: tuple[int, ...], name: str, options: list) -> None:
    saved = getattr(bot_search, name)
    try:
        for option in options:
            setattr(bot_search, name, option)
            total, changed = _replay_total(decisions, values)
            print(f"    {name} = {option!r}: total {total:+d} ({changed} decisions changed)")
    finally:
        setattr(bot_search, name, saved)


def bids(args: argparse.Namespace) -> None:
    jobs = [(args.rules, args.first_deal + i, s) for i in range(args.deals) for s in (0, 1)]
    decisions = [d for ds in _parallel(_bid_decisions, jobs, args.workers) for d in ds]
    if not decisions:
        print("no bid decision to weigh")
        return
    values = Hand.deal(args.rules, dealer=0, seed=0).rules.contract_values
    mismatched = sum(d["chosen"] != d["replayed"] for d in decisions)
    actual = sum(d["results"][d["chosen"]] for d in decisions)
    best = sum(max(d["results"].values()) for d in decisions)
    print(
        f"hard vs medium, {args.deals} deals: {len(decisions)} hard bid decisions weighed"
        f" ({mismatched} not reproduced)"
    )
    print(f"  hard's match points from them: {actual:+d}; the best bid in hindsight: {best:+d}")
    situations: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for d in decisions:
        if not d["after"]:
            key = "nobody has bid"
        else:
            ours, lv = d["after"][-1]
            key = f"after {'partner' if ours else 'opponent'}'s {BIDS[lv]}"
        row = situations[key]
        row[0] += 1
        row[1] += d["results"][d["chosen"]]
        row[2] += max(d["results"].values())
    for key, (n, got, top) in sorted(situations.items()):
        print(f"  {key}: {n} decisions, {got:+d} (hindsight {top:+d})")
    print("  estimated chance of making a contract -> share made when bid (played out):")
    for word in BIDS[1:]:
        lv = BID_LEVEL[word]
        buckets: dict[int, list[int]] = defaultdict(lambda: [0, 0])
        for d in decisions:
            played = d["chosen"] == word or d["chances"].get(lv, 0.0) >= HOPELESS
            if word in d["results"] and played:
                b = buckets[min(int(d["chances"][lv] * 5), 4)]
                b[0] += d["results"][word] > 0
                b[1] += 1
        cells = [f"{i / 5:.1f}-{(i + 1) / 5:.1f}: {m}/{n}" for i, (m, n) in sorted(buckets.items())]
        print(f"    {word}: " + "; ".join(cells))
    print("  estimated value of passing (nobody has bid) -> mean result when passing:")
    passing: dict[float, list[float]] = defaultdict(lambda: [0, 0.0])
    for d in decisions:
        if not d["after"]:
            b = passing[round(d["ev_pass"] * 2) / 2]
            b[0] += 1
            b[1] += d["results"]["pass"]
    print(
        "    "
        + "; ".join(f"{k:+.1f}: {s / n:+.2f} (n={n})" for k, (n, s) in sorted(passing.items()))
    )
    print("  the same decisions under other settings (results of the bids played out):")
    margin = bot_search.BID_MARGIN
    _sweep(
        decisions,
        values,
        "BID_MARGIN",
        [{**margin, "hard": m} for m in (-0.3, -0.15, 0.0, 0.15, 0.3)],
    )
    _sweep(
        decisions,
        values,
        "BIG_CONTRACT_BONUS",
        [{1: s, 2: b, 3: b} for s in (0.0, 0.1) for b in (0.0, 0.15, 0.3)]
        # Larger quintola bonuses reach bids estimated under HOPELESS, which are not
        # played out (counted as lost), so the sweep stops here.
        + [{2: 0.15, 3: 0.3}],
    )
    _sweep(decisions, values, "ASSUMED_MADE", [0.5, 0.65, 0.8, 0.9])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="measure", required=True)
    p = sub.add_parser("passes", help="pass hands only, duplicate")
    p.add_argument("--pairing", default="cheater:medium,hard:medium")
    p.add_argument("--save", metavar="FILE", help="append each deal's result (JSON lines)")
    c = sub.add_parser("contracts", help="replay the contract hands of saved runs")
    c.add_argument("--runs", nargs="+", required=True, metavar="FILE", help="bots_bench --save")
    c.add_argument("--play", default="medium:medium,hard:medium,medium:hard,medium:cheater")
    b = sub.add_parser("bids", help="hard's bid decisions, each legal bid played out")
    for s in (p, b):
        s.add_argument("--deals", type=int, default=100, help="deals (fixed before running)")
        s.add_argument("--first-deal", type=int, default=0, help="deal numbers start here")
    for s in (p, c, b):
        s.add_argument("--workers", type=int, default=2)
        s.add_argument("--rules", default="online", choices=("online", "classic"))
        s.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = ap.parse_args()
    if getattr(args, "deals", 1) < 1 or args.workers < 1:
        ap.error("--deals and --workers must be at least 1")
    try:
        for line in bench.apply_settings(args.set):
            print(line)
        print(f"bots_ceiling: {bench.machine()}")
        {"passes": passes, "contracts": contracts, "bids": bids}[args.measure](args)
    except (ValueError, OSError) as exc:
        ap.error(str(exc))


if __name__ == "__main__":
    main()
