"""Matchmaking benchmark: players matched per second and time from queueing to seated.

PostgreSQL only, its own database (default cuatrola_online_bench; override with
BENCH_DATABASE_URL), flushed at the start. 400 players (--players) join over 30 s
(--seconds) at uniformly random instants, through `online.services.queue_join` from
8 threads, exactly as the site's view calls it (the join's after-commit matchmaking
pass included), while a sweeper thread runs `online.services.online_sweep` every
ONLINE_SWEEP_SECONDS, as the beat does. A second phase has every player join at once
(capacity). Bots do not move (BOT_RUNNER off): matches start and stay put.

    nice -n 19 timeout 600 .venv/bin/python bench/matchmaking_bench.py [--players N] [--seconds S]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import threading
import time
from collections import Counter
from queue import Empty, Queue

from _setup import setup_django

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_online_bench")

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from games.models import Match, Seat, SeatKind  # noqa: E402
from online.models import QueueEntry  # noqa: E402
from online.services import online_sweep, queue_join  # noqa: E402

THREADS = 8


def machine() -> str:
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        version = cursor.fetchone()[0]
    return (
        f"{platform.node()} · {platform.processor() or platform.machine()} · "
        f"{os.cpu_count()} CPUs · Python {platform.python_version()} · PostgreSQL {version}"
    )


def ensure_database() -> None:
    import psycopg

    url = os.environ["DATABASE_URL"]
    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')
    call_command("migrate", verbosity=0)


def make_players(count: int, tag: str) -> list[User]:
    # bulk_create: no sign-up signals (coins are not needed to queue).
    User.objects.bulk_create(
        [User(username=f"{tag}{i:04d}", email=f"{tag}{i:04d}@bench.test") for i in range(count)]
    )
    return list(User.objects.filter(username__startswith=tag).order_by("pk"))


def run_phase(players: list[User], spread: float, label: str) -> None:
    rng = random.Random(7)
    offsets = sorted(rng.uniform(0, spread) for _ in players) if spread else [0.0] * len(players)
    work: Queue = Queue()
    for user, offset in zip(players, offsets, strict=True):
        work.put((offset, user))
    joined: dict[int, float] = {}
    errors: list[BaseException] = []
    stop = threading.Event()
    passes = Counter()
    start = time.perf_counter()
    start_wall = timezone.now()

    def joiner() -> None:
        try:
            while True:
                try:
                    offset, user = work.get_nowait()
                except Empty:
                    return
                delay = start + offset - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)
                joined[user.pk] = (timezone.now() - start_wall).total_seconds()
                queue_join(user=user)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    def sweeper() -> None:
        try:
            while not stop.wait(settings.ONLINE_SWEEP_SECONDS):
                done = online_sweep()
                passes["sweeps"] += 1
                passes["tables by sweep"] += done["tables"]
        finally:
            connection.close()

    sweep_thread = threading.Thread(target=sweeper)
    sweep_thread.start()
    threads = [threading.Thread(target=joiner) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Wait (bounded) until nobody is queued any more: stragglers get bots after the fill time.
    deadline = time.perf_counter() + settings.ONLINE_BOT_FILL_SECONDS + 10
    while QueueEntry.objects.exists() and time.perf_counter() < deadline:
        time.sleep(0.2)
    stop.set()
    sweep_thread.join()
    if errors:
        raise errors[0]

    ids = [u.pk for u in players]
    seats = list(
        Seat.objects.filter(user_id__in=ids, kind=SeatKind.HUMAN).values_list("user_id", "table_id")
    )
    per_user = Counter(user_id for user_id, _ in seats)
    tables = {table_id for _, table_id in seats}
    started = dict(Match.objects.filter(table_id__in=tables).values_list("table_id", "started_at"))
    waits = []
    last_seated = 0.0
    for user_id, table_id in seats:
        seated = (started[table_id] - start_wall).total_seconds()
        last_seated = max(last_seated, seated)
        waits.append(seated - joined[user_id])
    with_bots = Seat.objects.filter(table_id__in=tables, kind=SeatKind.BOT).values("table_id")
    bot_tables = len({row["table_id"] for row in with_bots})
    waits.sort()
    quantile = statistics.quantiles(waits, n=100) if len(waits) > 1 else waits * 99
    print(f"\n{label}: {len(players)} players joining over {spread:g} s")
    print(
        f"  seated: {len(per_user)} of {len(players)}; seated twice: "
        f"{sum(1 for c in per_user.values() if c > 1)}; still queued: "
        f"{QueueEntry.objects.filter(user_id__in=ids).count()}"
    )
    print(
        f"  tables: {len(tables)} ({bot_tables} with bots); sweeps: {passes['sweeps']}, "
        f"tables made by the sweep: {passes['tables by sweep']}"
    )
    print(
        f"  matched per second: {len(per_user) / last_seated:.1f} "
        f"(first join to last seat {last_seated:.2f} s)"
    )
    print(
        f"  queue to seated: median {statistics.median(waits) * 1000:.0f} ms, "
        f"p95 {quantile[94] * 1000:.0f} ms, max {waits[-1] * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    settings.BOT_RUNNER = "off"
    ensure_database()
    call_command("flush", "--noinput", verbosity=0)
    print(f"machine: {machine()}")
    print(
        f"bot fill after {settings.ONLINE_BOT_FILL_SECONDS:g} s, sweep every "
        f"{settings.ONLINE_SWEEP_SECONDS:g} s, {THREADS} joining threads"
    )
    run_phase(make_players(args.players, "spread"), args.seconds, "arrivals spread")
    run_phase(make_players(args.players, "burst"), 0.0, "all at once")


if __name__ == "__main__":
    main()
