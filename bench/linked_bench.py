"""Linked accounts on PostgreSQL: what the queue's pass, a table and the admin pay.

Builds `--users` accounts with `--sign-ins` sign-in records each over the 90 days kept
(each account mostly on its own device and home network, one in `--share` sharing a
device or a network with another), then times:

- `linked_pairs` over a waiting list of `--waiting` accounts (what each queue pass
  adds, once a second, with up to ONLINE_MATCH_BATCH = 400 waiting);
- `linked_pairs` over four accounts (a table's marker, once per set of players and
  process every LINKED_TABLE_MEMO_SECONDS);
- `linked_accounts` of one account (the admin's user page).

Uses its own database (default cuatrola_linked_bench; override with
BENCH_DATABASE_URL); its sign-ins are rebuilt when the sizes change.

    nice -n 19 .venv/bin/python bench/linked_bench.py [--users 20000] [--sign-ins 20]
        [--waiting 400] [--runs 30]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from datetime import timedelta

from _setup import machine, setup_django

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_linked_bench")

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.links import device_key, network_key  # noqa: E402
from accounts.models import SignIn, User  # noqa: E402
from accounts.selectors import linked_accounts, linked_pairs  # noqa: E402


def build(users: int, sign_ins: int, share: int, rng: random.Random) -> list[int]:
    call_command("migrate", "--noinput", verbosity=0)
    made = list(
        User.objects.filter(username__startswith="lk").order_by("pk").values_list("pk", flat=True)
    )
    if len(made) == users and SignIn.objects.count() == users * sign_ins:
        return made
    SignIn.objects.all().delete()
    User.objects.filter(username__startswith="lk").delete()
    User.objects.bulk_create(
        User(username=f"lk{i:06d}", email=f"lk{i:06d}@bench.invalid", password="!")
        for i in range(users)
    )
    made = list(
        User.objects.filter(username__startswith="lk").order_by("pk").values_list("pk", flat=True)
    )
    now = timezone.now()
    rows = []
    for index, user_id in enumerate(made):
        other = made[rng.randrange(users)]
        shares = index % share == 0
        for n in range(sign_ins):
            device = f"{user_id:016d}{n % 2:016d}"  # a phone and a laptop
            home = f"10.{user_id % 250}.{user_id // 250 % 250}.{n % 3}"
            if shares and n == 0:  # one sign-in on another account's device or network
                device, home = f"{other:016d}{0:016d}", f"10.{other % 250}.{other // 250 % 250}.0"
            rows.append(
                SignIn(
                    user_id=user_id,
                    at=now - timedelta(days=rng.uniform(0, 90)),
                    network=network_key(home),
                    device=device_key(device),
                )
            )
        if len(rows) >= 50_000:
            SignIn.objects.bulk_create(rows)
            rows = []
    SignIn.objects.bulk_create(rows)
    with connection.cursor() as cursor:
        cursor.execute(f"ANALYZE {SignIn._meta.db_table}")
    return made


def timed(call, runs: int) -> tuple[float, float]:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=20_000)
    parser.add_argument("--sign-ins", type=int, default=20)
    parser.add_argument("--share", type=int, default=10)
    parser.add_argument("--waiting", type=int, default=400)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    rng = random.Random(7)
    made = build(args.users, args.sign_ins, args.share, rng)
    # An account that shares (each `share`-th does) and those it is linked to wait too.
    someone = made[0]
    links = [link.user_id for link in linked_accounts(someone)]
    waiting = [someone, *links, *rng.sample(made, args.waiting - 1 - len(links))]
    four = [someone, *rng.sample(made, 3)]
    pairs = linked_pairs(waiting)
    print(machine())
    print(
        f"{args.users} accounts × {args.sign_ins} sign-ins ({SignIn.objects.count()} rows), "
        f"one in {args.share} sharing a device or a network"
    )
    median, most = timed(lambda: linked_pairs(waiting), args.runs)
    print(
        f"linked_pairs, {args.waiting} waiting ({len(pairs)} linked pairs among them): "
        f"median {median:.1f} ms, max {most:.1f} ms"
    )
    median, most = timed(lambda: linked_pairs(four), args.runs)
    print(f"linked_pairs, a table of 4: median {median:.2f} ms, max {most:.2f} ms")
    median, most = timed(lambda: linked_accounts(someone), args.runs)
    print(
        f"linked_accounts of one account ({len(linked_accounts(someone))} links): "
        f"median {median:.2f} ms, max {most:.2f} ms"
    )


if __name__ == "__main__":
    main()
