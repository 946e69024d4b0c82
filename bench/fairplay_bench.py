"""The fair-play screen (issue 40; docs/fairplay.md): its nightly cost at the site's
size, and whether it tells peeking pairs from honest ones. Not a test.

One PostgreSQL database of its own (`cuatrola_fairplay_bench`, created if missing;
BENCH_DATABASE_URL to override):

1. **The site**: 100,000 players and 1,000,000 rated matches, built once by
   bench/ratings_bench.py's generator (`build`; `--rebuild` starts again). Its matches
   carry no deals: they weigh on the candidates' aggregation, never on the analysis.
2. **A simulated population**, stored into it as the site stores matches (deals,
   action logs, seats, history rows) over the 60 days before the generator's last
   match: `--cheating-pairs` pairs in which one seat sees its partner's hand (the hard
   bot whose sampled worlds deal the partner's real hand) and `--honest-pairs` honest
   pairs (the hard bot), each pair playing `--matches` whole online matches as
   partners against other pairs drawn at random; and `--baseline` matches of honest
   players from a pool of 40 who never sit together often. The bots think by work, not
   time, with no clock and seeded (`--budget-ms` of work a move): the same population
   on any machine. Played once with `--workers` processes and kept; a later run with
   the same parameters reuses it (`--resimulate` plays it again).
3. **The nights**: the screen (`fairplay.services.screen_run`, the site's limits and
   thresholds) run night after night on one process, as one worker runs it, until a
   night analyses nothing new: each night's wall and CPU seconds and what it did, then
   the detection rate (cheating pairs flagged for lucky guesses / cheating pairs) and
   the false-positive rate (honest pairs flagged / honest pairs), with the matches and
   decisions behind them. Every run starts the screen from nothing (its rows are
   emptied first).

Target (issue 40): a night over 100,000 players and 1,000,000 matches in under 30
minutes on one worker.

    nice -n 19 timeout 14400 .venv/bin/python bench/fairplay_bench.py --workers 2

A quick check (a few minutes): `--users 2000 --site-matches 20000 --cheating-pairs 2
--honest-pairs 2 --matches 12 --baseline 12`. `--rollouts` plays the population with
the hard bot's rule-based rollouts in the hands decided on points (its default)
instead of solving the sampled deals there.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

DEFAULT_DATABASE = "postgres://postgres@127.0.0.1:5432/cuatrola_fairplay_bench"
META = "bench_fairplay_population"  # the bench's own table: what was simulated


def _simulate(job: tuple[list[bool], int, int, bool]) -> tuple[int, dict, float]:
    """One match of the population (in a worker process): (seed, record, CPU s)."""
    from tests.fairplay.simulation import play_match

    peeks, seed, budget_ms, solve = job
    started = time.process_time()
    record = play_match(peeks, seed=seed, budget_ms=budget_ms, solve=solve)
    return seed, record, time.process_time() - started


def _schedule(args: argparse.Namespace, people: list[int]) -> tuple[list, list, list]:
    """Who plays whom: (cheating pairs, honest pairs, matches as (peeks, seed, seats, day))."""
    rng = random.Random(40)
    wanted = 2 * (args.cheating_pairs + args.honest_pairs)
    pairs = [people[i : i + 2] for i in range(0, wanted, 2)]
    cheating, honest = pairs[: args.cheating_pairs], pairs[args.cheating_pairs :]
    pool = people[wanted : wanted + 40]
    matches = []
    seed = 100_000
    for _round in range(args.matches):
        order = list(range(len(pairs)))
        rng.shuffle(order)
        for first, second in zip(order[::2], order[1::2], strict=False):
            a, b = pairs[first], pairs[second]
            seats = [a[0], b[0], a[1], b[1]]
            # In a cheating pair, its first player sees the partner's hand.
            peeks = [first < args.cheating_pairs, second < args.cheating_pairs, False, False]
            seed += 1
            matches.append((peeks, seed, seats, rng.uniform(1, 60)))
    for _ in range(args.baseline):
        seed += 1
        matches.append(([False] * 4, seed, rng.sample(pool, 4), rng.uniform(1, 60)))
    return cheating, honest, matches


def populate(args: argparse.Namespace, now) -> dict:
    """The simulated population, played and stored (or the one stored before)."""
    from django.db import connection, transaction

    from accounts.models import User
    from games.models import Match, Table
    from tests.history.conftest import store_record

    params = {
        key: getattr(args, key)
        for key in (
            "cheating_pairs",
            "honest_pairs",
            "matches",
            "baseline",
            "budget_ms",
            "rollouts",
            "users",
            "site_matches",
        )
    }
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE IF NOT EXISTS {META} (id int PRIMARY KEY, body jsonb)")
        cursor.execute(f"SELECT body FROM {META} WHERE id = 1")
        row = cursor.fetchone()
    stored = json.loads(row[0]) if row and isinstance(row[0], str) else (row[0] if row else None)
    if stored and stored["params"] == params and not args.resimulate:
        print(f"population: reused ({len(stored['match_ids'])} matches stored before)")
        return stored
    if stored:
        with transaction.atomic():
            Match.objects.filter(pk__in=stored["match_ids"]).delete()
            Table.objects.filter(pk__in=stored["table_ids"]).delete()
    people = list(
        range(args.users - 2 * (args.cheating_pairs + args.honest_pairs) - 40, args.users)
    )
    cheating, honest, schedule = _schedule(args, people)
    users = User.objects.in_bulk(people)
    jobs = [(peeks, seed, args.budget_ms, not args.rollouts) for peeks, seed, _s, _d in schedule]
    print(
        f"population: playing {len(jobs)} matches with {args.workers} processes "
        f"(hard bots, {args.budget_ms} ms of work a move) …",
        flush=True,
    )
    started = time.perf_counter()
    connection.close()  # the workers are forked: none of them inherits the connection
    with multiprocessing.Pool(args.workers) as pool:
        played = {}
        for n, (seed, record, cpu) in enumerate(pool.imap_unordered(_simulate, jobs), 1):
            played[seed] = (record, cpu)
            if n % 20 == 0:
                print(f"  {n} played ({time.perf_counter() - started:.0f} s)", flush=True)
    cpu = [played[seed][1] for _p, seed, _s, _d in schedule]
    print(
        f"  played in {time.perf_counter() - started:.0f} s; CPU a match median "
        f"{statistics.median(cpu):.1f} s",
        flush=True,
    )
    match_ids, table_ids = [], []
    for _peeks, seed, seats, days in schedule:
        match = store_record(
            [users[u] for u in seats],
            played[seed][0],
            mode="online",
            finished_at=now - timedelta(days=days),
        )
        match_ids.append(match.pk)
        table_ids.append(match.table_id)
    body = {
        "params": params,
        "cheating": cheating,
        "honest": honest,
        "match_ids": match_ids,
        "table_ids": table_ids,
        "pair_matches": len(schedule) - args.baseline,
    }
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {META} (id, body) VALUES (1, %s) "
            "ON CONFLICT (id) DO UPDATE SET body = EXCLUDED.body",
            [json.dumps(body)],
        )
    return body


def _reset_screen() -> None:
    from fairplay.models import (
        BaselineBand,
        CloseDecision,
        PairFlag,
        ScreenedMatch,
        ScreenRun,
    )

    for model in (PairFlag, CloseDecision, ScreenedMatch, BaselineBand, ScreenRun):
        model.objects.all().delete()


def _rates(population: dict) -> str:
    from fairplay.models import FlagReason, PairFlag

    flags = {(f.user_a_id, f.user_b_id): f for f in PairFlag.objects.all()}
    lines = []
    for label, pairs in (("cheating", population["cheating"]), ("honest", population["honest"])):
        found = [flags.get((min(p), max(p))) for p in pairs]
        lucky = sum(1 for f in found if f is not None and FlagReason.LUCKY in f.reasons)
        anything = sum(1 for f in found if f is not None and f.reasons)
        z = [
            max((v for v in (f.lucky_z, f.lucky_z_a, f.lucky_z_b) if v is not None), default=0)
            for f in found
            if f is not None
        ]
        lines.append(
            f"{label} pairs flagged for lucky guesses {lucky}/{len(pairs)} "
            f"({lucky / max(1, len(pairs)):.0%}); for any reason {anything}/{len(pairs)}"
            + (f"; their z median {statistics.median(z):+.1f}" if z else "")
        )
    return "\n  ".join(lines)


def _pair_figures(population: dict) -> str:
    """Decisions behind the rates: each pair's close decisions and z, computed as the
    screen computes them (flagged or not)."""
    from fairplay.models import CloseDecision
    from fairplay.services import baseline_rates
    from fairplay.stats import binomial_z

    rates, pooled = baseline_rates()
    if pooled is None:
        return "no baseline yet"
    out = []
    for label, pairs in (("cheating", population["cheating"]), ("honest", population["honest"])):
        rows = []
        for pair in pairs:
            decisions = list(
                CloseDecision.objects.filter(user_id__in=pair, baseline=False)
                .filter(match_id__in=population["match_ids"])
                .values_list("user_id", "band", "hit")
            )
            by_player = {
                u: [(rates.get(b, pooled), h) for uu, b, h in decisions if uu == u] for u in pair
            }
            zs = [
                binomial_z(sum(h for _p, h in d), [p for p, _h in d])
                for d in by_player.values()
                if d
            ]
            rows.append((len(decisions), max((z for z in zs if z is not None), default=0.0)))
        n = [r[0] for r in rows]
        z = [r[1] for r in rows]
        out.append(
            f"{label}: close decisions a pair median {statistics.median(n):.0f} "
            f"(total {sum(n)}); largest player z a pair median {statistics.median(z):+.2f}, "
            f"min {min(z):+.2f}, max {max(z):+.2f}"
        )
    return "\n  ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--site-matches", type=int, default=1_000_000)
    parser.add_argument("--rebuild", action="store_true")
    parser.add_argument("--cheating-pairs", type=int, default=12)
    parser.add_argument("--honest-pairs", type=int, default=12)
    parser.add_argument("--matches", type=int, default=32, help="matches of each pair")
    parser.add_argument("--baseline", type=int, default=60, help="baseline matches")
    parser.add_argument("--budget-ms", type=int, default=50)
    parser.add_argument("--rollouts", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--resimulate", action="store_true")
    parser.add_argument("--nights", type=int, default=10, help="at most this many nights")
    args = parser.parse_args()
    if (args.cheating_pairs + args.honest_pairs) % 2:
        parser.error("the pairs play each other: --cheating-pairs + --honest-pairs must be even")

    from _setup import machine, setup_django
    from ratings_bench import NOW, _create_database, build

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_DATABASE)
    _create_database(url)
    setup_django(DEFAULT_DATABASE)
    from django.core.management import call_command
    from django.db import connection

    from fairplay.services import Limits, screen_run

    call_command("migrate", "--noinput", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM accounts_user")
        users = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM games_match WHERE id <= %s", [args.site_matches])
        built = cursor.fetchone()[0]
    if args.rebuild or users != args.users or built != args.site_matches:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {META}")
        build(args.users, args.site_matches)
    print(machine())
    population = populate(args, NOW)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_match")
        total = cursor.fetchone()[0]
    print(
        f"data: {args.users:,} players, {total:,} matches ({args.site_matches:,} built, "
        f"{len(population['match_ids'])} simulated: {population['pair_matches']} of "
        f"{args.cheating_pairs} cheating and {args.honest_pairs} honest pairs, "
        f"{args.matches} a pair, and {args.baseline} for the baseline)"
    )
    _reset_screen()
    limits = Limits.from_settings()
    print(
        f"limits: window {limits.window_days} days, {limits.min_together} matches together, "
        f"{limits.pair_matches} matches a pair and {limits.night_matches} a night, "
        f"{limits.baseline_matches} for the baseline, {limits.samples} deals a decision"
    )
    for night in range(1, args.nights + 1):
        started, started_cpu = time.perf_counter(), time.process_time()
        run = screen_run(now=NOW, limits=limits, log=lambda line: print("   ", line, flush=True))
        wall, cpu = time.perf_counter() - started, time.process_time() - started_cpu
        analysed = run.pair_matches + run.baseline_matches
        per_match = wall / analysed if analysed else 0.0
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
        print(
            f"night {night}: {wall:.1f} s wall, {cpu:.1f} s CPU (load average {load}); "
            f"{run.candidates} candidate pairs, {run.pair_matches} pairs' matches and "
            f"{run.baseline_matches} baseline matches analysed "
            f"({per_match:.2f} s a match: a full night of {limits.night_matches} + "
            f"{limits.baseline_matches} ≈ "
            f"{per_match * (limits.night_matches + limits.baseline_matches) / 60:.1f} min); "
            f"{run.flags_new} flagged, {run.flags_updated} updated",
            flush=True,
        )
        print(f"  {_rates(population)}", flush=True)
        if analysed == 0:
            break
    from fairplay.models import CloseDecision, ScreenedMatch

    screened = ScreenedMatch.objects.filter(match_id__in=population["match_ids"])
    decisions = sum(screened.values_list("decisions", flat=True))
    print(
        f"analysed: {screened.count()} matches, {decisions:,} card decisions of people, "
        f"{sum(screened.values_list('judged', flat=True)):,} judged from the seat's knowledge, "
        f"{CloseDecision.objects.count():,} close"
    )
    print(f"  {_pair_figures(population)}")
    print("result:\n  " + _rates(population))


if __name__ == "__main__":
    main()
