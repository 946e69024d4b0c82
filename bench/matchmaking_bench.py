"""Matchmaking benchmark: players matched per second and time from queueing to seated.

PostgreSQL only, its own database (default cuatrola_online_bench; override with
BENCH_DATABASE_URL), flushed at the start. 400 players (--players) join over 30 s
(--seconds) at uniformly random instants, through `online.services.queue_join` from
8 threads, exactly as the site's view calls it (the join's after-commit matchmaking
pass included), while a sweeper thread runs `online.services.online_sweep` every
ONLINE_SWEEP_SECONDS, as the beat does. A second phase has every player join at once
(capacity). Bots do not move (BOT_RUNNER off): matches start and stay put.

    nice -n 19 timeout 600 .venv/bin/python bench/matchmaking_bench.py [--players N] [--seconds S]

`--partners` runs the partners mode instead (issue 44): N players (400) with random
ratings, of whom --pairs × 2 (100) queue as registered pairs, --marks random "prefer"
/ "avoid as partner" marks (2,000) and --blocks random blocks (2,000) among them, all
in the queue at once. It times one matchmaking pass's reads and choice (the queue,
ratings, blocks, linked accounts and marks read, `tables_choose` run: what every pass
costs), then lets the sweeper seat everyone, and says whether everyone was seated by
the bot fill time, every queued pair together.
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
from accounts.selectors import linked_pairs  # noqa: E402
from games.models import Match, Seat, SeatKind  # noqa: E402
from online.matchmaking import Waiting, tables_choose  # noqa: E402
from online.models import QueueEntry  # noqa: E402
from online.services import online_sweep, queue_join  # noqa: E402
from ratings.models import Rating  # noqa: E402
from ratings.selectors import ratings_of  # noqa: E402
from ratings.skill import CENTRE, NEW, SCALE  # noqa: E402
from social.models import Block, PartnerMark, Partnership  # noqa: E402
from social.selectors import blocked_pairs, partner_marks_among  # noqa: E402

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


def partners_setup(players: list[User], pairs: int, marks: int, blocks: int) -> dict[int, int]:
    """Ratings, registered pairs (the first 2 × `pairs` players), marks and blocks,
    written in bulk; returns each paired player's partner."""
    rng = random.Random(44)
    ids = [u.pk for u in players]
    Rating.objects.bulk_create(
        [
            Rating(user_id=pk, mu=NEW.mu + (value - CENTRE) / SCALE, value=value, matches=20)
            for pk in ids
            for value in [int(rng.gauss(1500, 200))]
        ]
    )
    now = timezone.now()
    partner: dict[int, int] = {}
    rows = []
    for k in range(0, 2 * pairs, 2):
        a, b = ids[k], ids[k + 1]
        partner[a], partner[b] = b, a
        rows.append(Partnership(user_low_id=a, user_high_id=b, created_at=now))
    Partnership.objects.bulk_create(rows)
    found: dict[tuple[int, int], str] = {}
    while len(found) < marks:
        a, b = rng.sample(ids, 2)
        found[(a, b)] = rng.choice(("prefer", "avoid"))
    PartnerMark.objects.bulk_create(
        [PartnerMark(user_id=a, other_id=b, kind=kind) for (a, b), kind in found.items()]
    )
    blocked: set[tuple[int, int]] = set()
    while len(blocked) < blocks:
        a, b = rng.sample(ids, 2)
        if partner.get(a) != b:  # a registered pair blocked is no pair: keep them pairs
            blocked.add((a, b))
    Block.objects.bulk_create([Block(blocker_id=a, blocked_id=b) for a, b in blocked])
    return partner


def run_partners(args: argparse.Namespace) -> None:
    players = make_players(args.players, "duo")
    partner = partners_setup(players, args.pairs, args.marks, args.blocks)
    start_wall = timezone.now()
    QueueEntry.objects.bulk_create(
        [QueueEntry(user=u, joined_at=start_wall, partner_id=partner.get(u.pk)) for u in players]
    )
    print(
        f"\npartners: {args.players} waiting, {2 * args.pairs} of them as {args.pairs} pairs, "
        f"{args.marks} partner marks, {args.blocks} blocks"
    )
    # One pass's reads and choice, as queue_match makes them (no table written).
    reads, choices, cpus, tables = [], [], [], 0
    for _ in range(args.runs):
        t0, c0 = time.perf_counter(), time.process_time()
        entries = list(QueueEntry.objects.order_by("joined_at", "pk"))
        by_user = {e.user_id: e for e in entries}
        ratings = ratings_of(list(by_user))
        marks = partner_marks_among(by_user)
        kept = blocked_pairs(by_user) | linked_pairs(by_user)
        t1, c1 = time.perf_counter(), time.process_time()
        chosen = tables_choose(
            [Waiting(e.user_id, ratings[e.user_id], e.joined_at, e.partner_id) for e in entries],
            now=timezone.now(),
            fill_after_seconds=settings.ONLINE_BOT_FILL_SECONDS,
            bot_rating=1279,
            blocked=kept,
            avoid=marks.avoid,
            prefer=marks.prefer,
        )
        t2, c2 = time.perf_counter(), time.process_time()
        cpus.append(((c1 - c0) * 1000, (c2 - c1) * 1000))
        reads.append((t1 - t0) * 1000)
        choices.append((t2 - t1) * 1000)
        tables = len(chosen)
    total = sorted(r + c for r, c in zip(reads, choices, strict=True))
    print(
        f"  one pass, {args.runs} runs: reads median {statistics.median(reads):.1f} ms, "
        f"choice median {statistics.median(choices):.1f} ms, together median "
        f"{statistics.median(total):.1f} ms, max {total[-1]:.1f} ms ({tables} tables chosen)"
    )
    print(
        f"  CPU of this process: reads median {statistics.median(c for c, _ in cpus):.1f} ms, "
        f"choice median {statistics.median(c for _, c in cpus):.1f} ms, "
        f"max {max(c for _, c in cpus):.1f} ms"
    )
    # Then the site's passes seat them: the sweeper every ONLINE_SWEEP_SECONDS.
    t0 = time.perf_counter()
    first = online_sweep()["tables"]
    first_ms = (time.perf_counter() - t0) * 1000
    deadline = time.perf_counter() + settings.ONLINE_BOT_FILL_SECONDS + 10
    while QueueEntry.objects.exists() and time.perf_counter() < deadline:
        time.sleep(settings.ONLINE_SWEEP_SECONDS)
        online_sweep()
    ids = [u.pk for u in players]
    seats = dict(
        Seat.objects.filter(user_id__in=ids, kind=SeatKind.HUMAN).values_list("user_id", "table_id")
    )
    positions = dict(
        Seat.objects.filter(user_id__in=ids, kind=SeatKind.HUMAN).values_list("user_id", "position")
    )
    tables_of = set(seats.values())
    started = dict(
        Match.objects.filter(table_id__in=tables_of).values_list("table_id", "started_at")
    )
    last = max((started[t] - start_wall).total_seconds() for t in tables_of)
    together = sum(
        1
        for a, b in partner.items()
        if a < b
        and seats.get(a) == seats.get(b)
        and positions.get(a, -1) % 2 == positions.get(b, -2) % 2
    )
    print(
        f"  the first pass (writing {first} tables) took {first_ms:.0f} ms; "
        f"seated {len(seats)} of {len(ids)}, last seated {last:.1f} s after joining "
        f"(fill time {settings.ONLINE_BOT_FILL_SECONDS:g} s); pairs seated together "
        f"{together} of {args.pairs}; still queued {QueueEntry.objects.count()}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=400)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--partners", action="store_true", help="the partners mode")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--marks", type=int, default=2000)
    parser.add_argument("--blocks", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    settings.BOT_RUNNER = "off"
    ensure_database()
    call_command("flush", "--noinput", verbosity=0)
    print(f"machine: {machine()}")
    print(
        f"bot fill after {settings.ONLINE_BOT_FILL_SECONDS:g} s, sweep every "
        f"{settings.ONLINE_SWEEP_SECONDS:g} s, {THREADS} joining threads"
    )
    if args.partners:
        run_partners(args)
        return
    run_phase(make_players(args.players, "spread"), args.seconds, "arrivals spread")
    run_phase(make_players(args.players, "burst"), 0.0, "all at once")


if __name__ == "__main__":
    main()
