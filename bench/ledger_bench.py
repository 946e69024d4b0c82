"""Benchmark of the ledger services on PostgreSQL: prints figures and the machine.

    createdb -h 127.0.0.1 -U postgres cuatrola_bench
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cuatrola_bench \\
        nice -n 19 .venv/bin/python bench/ledger_bench.py [--seconds 5] [--workers 1,8]

Use a scratch database: it is migrated and bench users are added to it. Each
worker is a separate process (as the web and Celery processes are) with its own
connection, calling the real services through the whole stack: row locks,
triggers, the deferred balance check at commit. Two workloads:

- purchase: `product_purchase` of the 1 h booster by a random bench user;
- payout: `match_reward` of an online match (four random bench users, places 1-4).

For each workload and worker count it prints operations per second (wall clock,
all workers together) and the latency percentiles of single calls.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import platform
import random
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("DEBUG", "1")

import django

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection, connections  # noqa: E402

USERS = 400


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def prepare() -> list[int]:
    from accounts.models import User
    from economy.catalogue import products_seed
    from economy.services import ledger_grant

    call_command("migrate", verbosity=0)
    products_seed()
    ids = []
    for i in range(USERS):
        user, created = User.objects.get_or_create(
            username=f"bench_{i}", defaults={"email": f"bench_{i}@bench.invalid"}
        )
        if created:
            # Enough coins that no purchase in any run is refused.
            ledger_grant(user=user, amount=10_000_000, idempotency_key=f"bench-fund:{user.pk}")
        ids.append(user.pk)
    return ids


def worker(args: tuple[str, list[int], float, int, float]) -> tuple[int, list[float]]:
    workload, user_ids, seconds, seed, start_at = args
    from accounts.models import User
    from economy.models import Product
    from economy.services import Placement, match_reward, product_purchase

    connections.close_all()  # never share the parent's connection
    rng = random.Random(seed)
    users = {u.pk: u for u in User.objects.filter(pk__in=user_ids)}
    product = Product.objects.get(code="booster-1h")
    pool = list(users.values())
    latencies: list[float] = []
    while time.time() < start_at:
        time.sleep(0.001)
    end = start_at + seconds
    while time.time() < end:
        began = time.perf_counter()
        if workload == "purchase":
            product_purchase(
                user=rng.choice(pool), product=product, idempotency_key=uuid.uuid4().hex
            )
        else:
            seated = rng.sample(pool, 4)
            match_reward(
                match_id=rng.getrandbits(62),
                label="online",
                placements=[Placement(u, place) for place, u in enumerate(seated, start=1)],
            )
        latencies.append(time.perf_counter() - began)
    connections.close_all()
    return len(latencies), latencies


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--workers", default="1,8")
    options = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("set DATABASE_URL to a scratch PostgreSQL database")

    user_ids = prepare()
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        pg_version = cursor.fetchone()[0]
        cursor.execute("SHOW synchronous_commit")
        sync_commit = cursor.fetchone()[0]
    connections.close_all()

    print("ledger benchmark (economy.services on PostgreSQL)")
    print(
        f"machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} "
        f"{platform.release()}, Python {platform.python_version()}, "
        f"PostgreSQL {pg_version} (synchronous_commit={sync_commit}), "
        f"load average at start {os.getloadavg()[0]:.2f}"
    )
    print(f"{options.seconds:g} s per run, {USERS} bench users, one process per worker")
    print(f"{'workload':<10}{'workers':>8}{'ops':>8}{'ops/s':>9}{'p50 ms':>9}{'p99 ms':>9}")
    context = multiprocessing.get_context("fork")
    for workload in ("purchase", "payout"):
        for count in (int(w) for w in options.workers.split(",")):
            start_at = time.time() + 1.0
            jobs = [(workload, user_ids, options.seconds, n, start_at) for n in range(count)]
            with context.Pool(count) as pool:
                results = pool.map(worker, jobs)
            ops = sum(n for n, _ in results)
            latencies = [x for _, lat in results for x in lat]
            print(
                f"{workload:<10}{count:>8}{ops:>8}{ops / options.seconds:>9.1f}"
                f"{percentile(latencies, 0.50) * 1000:>9.2f}"
                f"{percentile(latencies, 0.99) * 1000:>9.2f}",
                flush=True,
            )
    print(f"load average at end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
