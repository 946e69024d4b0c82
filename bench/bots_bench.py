"""Strength of the bots, duplicate format (not a test).

Each random deal (a lone hand, match scores 0-0) is played twice: bot pair X on
seats 0 and 2 against Y on seats 1 and 3, then the same cards with the pairs
swapped. X's score is the share of all match points won by X over all deals,
with a 95% confidence interval (ratio estimator, deals as the unit).

    .venv/bin/python bench/bots_bench.py --pairing easy:random --deals 1000 --workers 2
    .venv/bin/python bench/bots_bench.py --pairing easy:medium,hard:medium,cheater:medium

Players: random (a random legal action), easy, medium, hard (cuatrola.bots, from
the seat view only), cheater (sees every hand, exact search; bench only) and
hard-seeing (bids as hard, then plays as the cheater: the most any better card
play could give hard).
With easy, hard and cheater all measured against medium, the gap closed
(hard - easy) / (cheater - easy) is printed too.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import math
import multiprocessing
import os
import platform
import random
import signal
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import cuatrola.bots.search as bot_search
from cuatrola.bots import choose_action
from cuatrola.bots.solver import Position, Solver
from cuatrola.engine import Hand, seat_view
from cuatrola.engine.core import CARD_CODES, CARD_POINTS, CARD_SUIT, CODE_INDEX
from cuatrola.engine.rules import BID_LEVEL, BIDS

PLAYERS = ("random", "easy", "medium", "hard", "cheater", "hard-seeing")


def cheater_action(hand: Hand) -> str:
    """Exact search with every hand visible (the reference for the gap closed)."""
    legal = list(hand.legal_actions())
    seat = hand.to_play
    solver = Solver(hand.rules)
    trump = "oceb".index(hand.trump_suit) if isinstance(hand.trump_suit, str) else hand.trump_suit
    hands = [hand.hand_mask(s) for s in range(4)]
    if hand.phase == "bidding":
        best = "pass"
        out = seat ^ 2
        leader = hand.mano if hand.mano != out else (hand.mano + 1) % 4
        for word in legal:
            if word == "pass":
                continue
            pos = Position(
                hands,
                trump,
                out,
                seat,
                BID_LEVEL[word],
                leader,
                [],
                [0] * 4,
                [0, 0],
                [0, 0],
                [0, 0],
                hand.mano,
            )
            if solver.by_points(pos):
                moves = [CODE_INDEX[c] for c in hand.hand_of(leader)]
                vals = solver.values(pos, moves)
                ok = max(vals) > 0 if leader & 1 == seat & 1 else max(vals) < 0
            else:
                ok = solver.declarer_makes(pos)
            if ok:
                best = word
        return best
    decls = hand.declarations
    pos = Position(
        hands=hands,
        trump=trump,
        out=hand.sitting_out if hand.sitting_out is not None else -1,
        declarer=hand.declarer if hand.declarer is not None else -1,
        contract=BID_LEVEL[hand.contract] if hand.contract else 0,
        leader=hand.trick_leader,
        trick=[(s, CODE_INDEX[c]) for s, c in hand.current_trick],
        tricks_won=list(hand.tricks_won),
        points=[
            hand.card_points_won[p]
            + hand.card_points_won[p + 2]
            + sum(d.points for d in decls if d.seat & 1 == p)
            for p in (0, 1)
        ],
        decl_used=[
            sum(1 << "oceb".index(d.suit) for d in decls if d.seat & 1 == p) for p in (0, 1)
        ],
        decl_count=[sum(1 for d in decls if d.seat & 1 == p) for p in (0, 1)],
        mano=hand.mano,
    )
    moves = [CODE_INDEX[c] for c in legal]
    vals = solver.values(pos, moves)
    best = max(vals)
    tied = [m for m, v in zip(moves, vals, strict=True) if v == best]
    return CARD_CODES[min(tied, key=lambda c: (CARD_SUIT[c] == trump, CARD_POINTS[c], -c))]


def play(hand: Hand, players: list[str], seed: int, stats: dict, step: int = 0) -> Hand:
    """Play `hand` out; `step` numbers the actions already taken (it seeds each bot call)."""
    while not hand.is_over:
        seat = hand.to_play
        legal = hand.legal_actions()
        kind = players[seat]
        t0 = time.perf_counter()
        c0 = time.process_time()
        if kind == "random":
            action = random.Random(f"{seed}:{step}").choice(legal)
        elif kind == "cheater" or (kind == "hard-seeing" and hand.phase != "bidding"):
            action = cheater_action(hand)
        else:
            level = "hard" if kind == "hard-seeing" else kind
            action = choose_action(seat_view(hand, seat), level=level, seed=seed * 100 + step)
        dt = (time.perf_counter() - t0) * 1000
        dc = (time.process_time() - c0) * 1000
        if len(legal) > 1:
            stats["times"][kind].append(dt)
            stats["cpu"][kind].append(dc)
        if action not in legal:
            stats["illegal"][kind] += 1
            action = legal[0]
        if action in BID_LEVEL and action != "pass":
            stats["bids_by"][seat] = (kind, action)
        hand, _ = hand.apply(action)
        step += 1
    return hand


def deal_hand(rules: str, deal_seed: int) -> Hand:
    """Deal number `deal_seed` of the bench: the same cards in every run."""
    rng = random.Random(f"bench-deal:{deal_seed}")
    dealer = rng.randrange(4)
    return Hand.deal(rules, dealer=dealer, seed=rng.randrange(2**62))


def new_stats() -> dict:
    """What `play` records: times and CPU per level, illegal moves, contracts, bids."""
    return {
        "times": defaultdict(list),
        "cpu": defaultdict(list),
        "illegal": Counter(),
        "contracts": [],
        "bids_by": {},
    }


def run_deal(args: tuple[str, str, str, int]) -> dict:
    x, y, rules, deal_seed = args
    # Measure the bots as designed (work-limited, reproducible), not as cut short by
    # the clock on a machine shared with other jobs: the CPU times show the real cost.
    bot_search.DEADLINE_FACTOR = 50.0
    base = deal_hand(rules, deal_seed)
    stats = new_stats()
    hands: list[dict] = []
    mp = {x: 0, y: 0} if x != y else {x: 0}
    x_points = 0
    total = 0
    for swap in (False, True):
        players = [y, x, y, x] if swap else [x, y, x, y]
        stats["bids_by"] = {}
        end = play(base, players, deal_seed * 2 + swap, stats)
        r = end.result
        xs_pair = 1 if swap else 0
        total += r.match_points
        if r.scoring_pair == xs_pair:
            x_points += r.match_points
        if r.contract:
            kind = players[r.declarer]
            stats["contracts"].append((kind, r.contract, bool(r.made)))
        # Per hand, for reading where points are won: who bid what, who scored.
        hands.append(
            {
                "bids": [[players[s], w] for s, w in end.bids],
                "contract": r.contract,
                "declarer": players[r.declarer] if r.contract else None,
                "made": bool(r.made) if r.contract else None,
                "scorer": players[r.scoring_pair],
                "points": r.match_points,
            }
        )
    del mp
    return {
        "deal": deal_seed,
        "x": x,
        "y": y,
        "x_points": x_points,
        "total": total,
        "times": dict(stats["times"]),
        "cpu": dict(stats["cpu"]),
        "illegal": dict(stats["illegal"]),
        "contracts": stats["contracts"],
        "hands": hands,
    }


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(q * len(s)))]


def machine() -> str:
    cpu = platform.processor() or "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}"


def interval(results: list[dict]) -> tuple[float, float, float]:
    """X's share of match points and its 95% interval (ratio estimator over deals)."""
    xs = [r["x_points"] for r in results]
    ts = [r["total"] for r in results]
    n = len(results)
    share = sum(xs) / sum(ts)
    z = [a - share * b for a, b in zip(xs, ts, strict=True)]
    mean_t = sum(ts) / n
    se = math.sqrt(sum(v * v for v in z) / (n * (n - 1))) / mean_t if n > 1 else float("nan")
    return share, share - 1.96 * se, share + 1.96 * se


def run_pairing(
    x: str, y: str, deals: int, workers: int, rules: str, first: int, save: str | None
) -> float:
    jobs = [(x, y, rules, first + i) for i in range(deals)]
    started = time.time()
    results: list[dict] = []
    # fork: workers inherit the --set overrides.
    pool = multiprocessing.get_context("fork").Pool(workers) if workers > 1 else None
    it = pool.imap(run_deal, jobs, chunksize=1) if pool else map(run_deal, jobs)
    out = open(save, "a") if save else None  # noqa: SIM115
    try:
        for r in it:
            results.append(r)
            if out:
                out.write(json.dumps(r) + "\n")
                out.flush()
            if len(results) % 25 == 0 and len(results) < deals:
                share, lo, hi = interval(results)
                print(
                    f"  ... {x} vs {y} after {len(results)} deals: {100 * share:.1f}%"
                    f"  95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]",
                    flush=True,
                )
    except KeyboardInterrupt:
        # Stopped by hand (kill -INT or -TERM): report the deals that completed.
        print(f"  interrupted after {len(results)} deals", flush=True)
        if pool:
            pool.terminate()
            pool = None
    if pool:
        pool.close()
    if out:
        out.close()
    report(x, y, rules, results, time.time() - started)
    return interval(results)[0]


def report(x: str, y: str, rules: str, results: list[dict], elapsed: float) -> None:
    xs = [r["x_points"] for r in results]
    ts = [r["total"] for r in results]
    n = len(results)
    share, lo, hi = interval(results)
    print(f"\n== {x} vs {y}, {rules} rules, {n} duplicate deals ({2 * n} hands), {elapsed:.0f} s")
    print(
        f"{x} share of match points: {100 * share:.1f}%  95% CI [{100 * lo:.1f}%, {100 * hi:.1f}%]"
        f"  ({sum(xs)} of {sum(ts)})"
    )
    times: dict[str, list[float]] = defaultdict(list)
    cpu: dict[str, list[float]] = defaultdict(list)
    illegal: Counter = Counter()
    contracts: dict[str, Counter] = defaultdict(Counter)
    made: dict[str, Counter] = defaultdict(Counter)
    for r in results:
        for k, v in r["times"].items():
            times[k].extend(v)
        for k, v in r["cpu"].items():
            cpu[k].extend(v)
        illegal.update(r["illegal"])
        for kind, word, ok in r["contracts"]:
            contracts[kind][word] += 1
            made[kind][word] += ok
    for kind in (x, y):
        for label, t in (("wall", times.get(kind, [])), ("cpu", cpu.get(kind, []))):
            top = max(t) if t else float("nan")
            print(
                f"  {kind:8s} {label} ms/move (moves with a choice, n={len(t)}):"
                f" p50 {pct(t, 0.5):.1f}  p95 {pct(t, 0.95):.1f}  max {top:.1f}"
            )
        print(f"  {kind:8s} illegal moves: {illegal.get(kind, 0)}")
        # Each player is one pair in each of the 2n hands.
        parts = []
        for word in BIDS[1:]:
            c = contracts[kind][word]
            parts.append(
                f"{word} {c} ({100 * c / (2 * n):.1f}% of hands) made {made[kind][word]}"
                + (f" ({100 * made[kind][word] / c:.0f}%)" if c else "")
            )
        print(f"  {kind:8s} declared: " + "; ".join(parts))
    report_by_bidding(x, results)


def report_by_bidding(x: str, results: list[dict]) -> None:
    """Where X's points came from: deals grouped by who declared what in each orientation."""
    groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for r in results:
        if "hands" not in r:
            return  # saved by an older version
        names = sorted(
            f"{h['declarer']} {h['contract']}" if h["contract"] else "passed" for h in r["hands"]
        )
        g = groups[" / ".join(names)]
        g[0] += 1
        g[1] += r["x_points"]
        g[2] += r["total"]
    n = len(results)
    print(f"  by who declared in the two orientations: deals, {x}'s share, net a deal, part of net")
    for name, (count, xp, total) in sorted(groups.items(), key=lambda kv: -kv[1][0]):
        net = 2 * xp - total
        share = f"{100 * xp / total:5.1f}%"
        print(f"    {name:34s} {count:4d}  {share}  {net / count:+.2f}  {net / n:+.3f}")


def apply_settings(items: list[str]) -> list[str]:
    """Apply `[MODULE.]NAME=LITERAL` overrides to cuatrola.bots modules (for A/B runs); the
    module `bots` is the package itself (e.g. `bots.DEFAULT_BUDGET_MS={'hard':800}`).

    Returns a line per setting applied; raises ValueError on a bad item. A dict
    setting is updated, not replaced. Forked workers inherit the overrides.
    """
    applied = []
    for item in items:
        name, _, value = item.partition("=")
        module_name, _, name = name.rpartition(".")
        try:
            module = importlib.import_module(
                "cuatrola.bots"
                if module_name == "bots"
                else f"cuatrola.bots.{module_name or 'search'}"
            )
        except ImportError:
            raise ValueError(f"--set: no module cuatrola.bots.{module_name}") from None
        if not hasattr(module, name):
            raise ValueError(f"--set: {module.__name__} has no setting {name!r}")
        try:
            parsed = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise ValueError(f"--set {name}: {value!r} is not a Python literal") from None
        current = getattr(module, name)
        if isinstance(current, dict) and isinstance(parsed, dict):
            parsed = {**current, **parsed}
        setattr(module, name, parsed)
        applied.append(f"setting {module.__name__}.{name} = {parsed!r}")
    return applied


def _interrupt(signum: int, frame: object) -> None:
    # Once: a second signal must not cut the report short.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    raise KeyboardInterrupt


def main() -> None:
    # Background jobs start with SIGINT ignored: make INT and TERM stop a run cleanly.
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument(
        "--pairing",
        default="easy:random",
        help="comma-separated X:Y pairings, e.g. easy:random,medium:easy",
    )
    ap.add_argument("--deals", type=int, default=100, help="duplicate deals per pairing (fixed)")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rules", default="online", choices=("online", "classic"))
    ap.add_argument("--first-deal", type=int, default=0, help="deal numbers start here")
    ap.add_argument("--save", help="append each deal's result to this JSON-lines file")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="override a bot setting for an A/B run: [MODULE.]NAME=LITERAL, the module in\n"
        "cuatrola.bots (default search; bots: the package), e.g. BID_MARGIN={'hard':0.0}, "
        "easy.MISTAKE_RATE=0.3 or bots.DEFAULT_BUDGET_MS={'hard':800}",
    )
    ap.add_argument(
        "--summarize", nargs="+", metavar="FILE", help="report saved deals (one pairing) instead"
    )
    args = ap.parse_args()
    try:
        for line in apply_settings(args.set):
            print(line)
    except ValueError as exc:
        ap.error(str(exc))
    if args.summarize:
        rows = []
        for name in args.summarize:
            with open(name) as f:
                rows.extend(json.loads(line) for line in f if line.strip())
        by_deal = {r["deal"]: r for r in rows}  # a deal counted once
        print(f"bots_bench: {machine()}")
        report(rows[0]["x"], rows[0]["y"], args.rules, list(by_deal.values()), 0.0)
        return
    print(f"bots_bench: {machine()}")
    print(f"deals per pairing: {args.deals}, workers: {args.workers}, rules: {args.rules}")
    shares = {}
    for pairing in args.pairing.split(","):
        x, y = pairing.split(":")
        if x not in PLAYERS or y not in PLAYERS:
            ap.error(f"players are {', '.join(PLAYERS)}")
        shares[(x, y)] = run_pairing(
            x, y, args.deals, args.workers, args.rules, args.first_deal, args.save
        )
        sys.stdout.flush()
    ref = [shares.get((p, "medium")) for p in ("easy", "hard", "cheater")]
    if all(v is not None for v in ref):
        e, h, c = ref
        print(
            f"\ngap closed (hard - easy) / (cheater - easy), against medium: "
            f"{100 * (h - e) / (c - e):.0f}%"
        )


if __name__ == "__main__":
    main()
