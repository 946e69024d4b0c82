"""League points recording: one recorder against eight, on PostgreSQL.

Each "match" records its players as the online settlement does (one database
transaction per match, four players of one division, two of them winners);
`--players 1` records one player per call instead, as issue 19 measured
(`league_points_record`: 127 calls/s with one thread, 37 with eight, when every
record locked the week's row). Uses its own database (default
cuatrola_league_record_bench; override with BENCH_DATABASE_URL); the league rows
are emptied before each run.

    nice -n 19 .venv/bin/python bench/league_record_bench.py [--users 4000] [--seconds 20]

Target (issue 19): eight concurrent recorders at least as fast as one.
"""

from __future__ import annotations

import argparse
import itertools
import os
import platform
import random
import threading
import time
from datetime import UTC, datetime

from _setup import setup_django

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_league_record_bench")

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from accounts.models import User  # noqa: E402
from leagues import services  # noqa: E402
from leagues.models import LeagueMembership  # noqa: E402

FINISHED_AT = datetime(2026, 11, 18, 11, 0, tzinfo=UTC)
POINTS = {1: 20, 2: 14, 3: 8, 4: 4}


def machine() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    return (
        f"{platform.node()} · {os.cpu_count()} CPUs (load average {load}) · "
        f"Python {platform.python_version()} · PostgreSQL {version}"
    )


def build(users: int) -> dict[int, list[User]]:
    call_command("migrate", "--noinput", verbosity=0)
    if User.objects.filter(username__startswith="rec").count() != users:
        User.objects.filter(username__startswith="rec").delete()
        User.objects.bulk_create(
            User(username=f"rec{i:06d}", email=f"rec{i:06d}@bench.invalid", password="!")
            for i in range(users)
        )
    made = list(User.objects.filter(username__startswith="rec").order_by("pk"))
    LeagueMembership.objects.bulk_create(
        [LeagueMembership(user=u, division=1 + i % 4) for i, u in enumerate(made)],
        ignore_conflicts=True,
    )
    by_division: dict[int, list[User]] = {}
    for user, division in zip(
        made,
        LeagueMembership.objects.filter(user__in=made)
        .order_by("user_id")
        .values_list("division", flat=True),
        strict=True,
    ):
        by_division.setdefault(division, []).append(user)
    return by_division


def empty_league() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "TRUNCATE leagues_leaguepoints, leagues_leaguescore, leagues_leaguescorecount,"
            " leagues_leaguestanding, leagues_leagueweek CASCADE"
        )


def record_match(match_id: int, seated: list[User]) -> None:
    """One finished match's league points, as online.services.match_settle records them."""
    results = [(u, POINTS[place], place <= 2) for place, u in enumerate(seated, start=1)]
    if hasattr(services, "league_points_record_match"):
        services.league_points_record_match(
            match_id=match_id,
            finished_at=FINISHED_AT,
            results=[services.LeagueResult(user=u, points=p, won=w) for u, p, w in results],
        )
    else:  # the code before issue 19: one call per player in the settlement's transaction
        with transaction.atomic():
            for user, points, _won in results:
                services.league_points_record(
                    user=user, match_id=match_id, points=points, finished_at=FINISHED_AT
                )


def run(threads: int, seconds: float, players: int, by_division, seed: int) -> tuple[int, float]:
    empty_league()
    services.league_week_ensure(moment=FINISHED_AT)
    match_ids = itertools.count(1)
    done = [0] * threads
    barrier = threading.Barrier(threads + 1)
    stop = threading.Event()
    errors: list[BaseException] = []

    def work(index: int) -> None:
        rng = random.Random(seed * 100 + index)
        try:
            barrier.wait()
            while not stop.is_set():
                division = rng.choice(sorted(by_division))
                seated = rng.sample(by_division[division], players)
                record_match(next(match_ids), seated)
                done[index] += players
        except BaseException as error:  # reported after the run
            errors.append(error)
        finally:
            connection.close()

    pool = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for thread in pool:
        thread.start()
    barrier.wait()
    started = time.perf_counter()
    stop.wait(seconds)
    stop.set()
    for thread in pool:
        thread.join()
    elapsed = time.perf_counter() - started
    if errors:
        raise RuntimeError(f"{len(errors)} recorder(s) failed: {errors[0]!r}")
    return sum(done), elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=4000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--players", type=int, default=4, choices=[1, 4])
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 8])
    args = parser.parse_args()
    by_division = build(args.users)
    print(machine())
    print(
        f"{args.users:,} users in 4 divisions · {args.players} player(s) recorded per call · "
        f"{args.seconds:g} s per run"
    )
    for threads in args.threads:
        recorded, elapsed = run(threads, args.seconds, args.players, by_division, seed=threads)
        print(
            f"{threads} recorder(s): {recorded / elapsed:7.1f} players/s "
            f"({recorded / args.players / elapsed:6.1f} calls/s, {recorded:,} players)"
        )
    print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
