"""Notifications benchmark (issue 46).

1. The bell's count adds no query to a page: the queries of one ordinary page
   (/how-to-play/) for a signed-in player whose count is cached, listed; none reads
   the notifications table (the count comes from the cache, or over the lobby socket).
2. A league close for N players (default 100,000) creates their notifications and
   queues the pushes: notifications_send_many with one result per player, inside a
   transaction that is rolled back (repeatable); the Celery `delay` of each chunk's
   fan-out is counted, not run (queuing is one broker write a chunk of 2,000; the
   fan-out itself runs in the workers, also timed here for one chunk).

PostgreSQL only, its own database (default cuatrola_notifications_bench; override
with BENCH_DATABASE_URL). Users are made once with COPY; --rebuild starts again.

    nice -n 19 timeout 1200 .venv/bin/python bench/notifications_bench.py [--users N]

Target: the close's notifications and queued pushes for 100,000 players under 60 s.
"""

from __future__ import annotations

import argparse
import sys
import time
from unittest import mock

from _setup import machine, setup_django

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_notifications_bench")

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from accounts.models import User  # noqa: E402
from notifications import kinds, services, tasks  # noqa: E402
from notifications.cached import count_key  # noqa: E402
from notifications.models import Notification  # noqa: E402


class Rollback(Exception):
    pass


def build(users: int) -> None:
    print(f"building: {users:,} users …", flush=True)
    call_command("flush", "--noinput", verbosity=0)
    columns = (
        "username, email, password, is_superuser, is_staff, is_active, first_name, "
        "last_name, date_joined, language, username_key"
    )
    with (
        connection.cursor() as cursor,
        cursor.copy(f"COPY accounts_user ({columns}) FROM STDIN") as copy,
    ):
        for i in range(users):
            copy.write_row(
                (
                    f"n{i:06d}",
                    f"n{i:06d}@bench.invalid",
                    "!",
                    False,
                    False,
                    True,
                    "",
                    "",
                    "2026-01-01 00:00:00+00",
                    "",
                    f"n{i:06d}",
                )
            )


def page_queries() -> None:
    user = User.objects.order_by("pk").first()
    cache.set(count_key(user.pk), 3)
    client = Client()
    client.force_login(user)
    client.get("/how-to-play/")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/how-to-play/")
    text = response.content.decode()
    assert 'id="nav-bell"' in text
    touching = [q["sql"] for q in queries.captured_queries if "notifications_" in q["sql"]]
    print(
        f"page /how-to-play/ (count cached): {len(queries)} queries, "
        f"{len(touching)} on the notifications tables; the bell drawn: "
        f"{'Notificaciones, 3 sin leer' in text}"
    )
    for q in queries.captured_queries:
        print("   ", q["sql"][:110])


def league_close(users: int) -> None:
    ids = list(User.objects.order_by("pk").values_list("pk", flat=True)[:users])
    queued: list[int] = []
    items = (
        services.Outgoing(
            user_id=uid,
            kind=kinds.LEAGUE_RESULT,
            params={
                "week": "2026-W48",
                "division": 2,
                "movement": (i % 3) - 1,
                "prize": 100 if i % 50 == 0 else 0,
                "rank": i % 200 + 1,
            },
            link="/league/weeks/1/",
            dedup_key="league-week:bench",
        )
        for i, uid in enumerate(ids)
    )
    started = time.perf_counter()
    created = 0
    try:
        with (
            mock.patch.object(tasks.fanout, "delay", lambda pairs: queued.append(len(pairs))),
            transaction.atomic(),
        ):
            created = services.notifications_send_many(items)
            made = time.perf_counter() - started
            # The on_commit callbacks (the queued fan-outs) run at the commit; run them
            # here, then roll back, so the run repeats on the same data.
            for entry in list(connection.run_on_commit):
                entry[1]()
            connection.run_on_commit.clear()
            total = time.perf_counter() - started
            rows = Notification.objects.count()
            chunk_started = time.perf_counter()
            pairs = list(
                Notification.objects.order_by("pk").values_list("user_id", "dedup_key")[:2000]
            )
            with mock.patch.object(tasks, "push_send", lambda ids: None):
                tasks.fanout([list(p) for p in pairs])
            chunk = time.perf_counter() - chunk_started
            raise Rollback
    except Rollback:
        pass
    print(
        f"league close for {len(ids):,} players: {created:,} notifications ({rows:,} rows), "
        f"created in {made:.1f} s, {len(queued)} fan-out tasks queued, total {total:.1f} s"
    )
    print(
        f"one fan-out task (2,000 players: counts, cache, group sends; pushes stubbed): "
        f"{chunk:.2f} s in a worker"
    )
    if len(ids) < 100_000:
        print(f"extrapolated to 100,000 (linear): {total * 100_000 / len(ids):.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    call_command("migrate", verbosity=0)  # a fresh machine's scratch database is empty
    if args.rebuild or User.objects.count() < args.users:
        build(args.users)
    print(machine())
    page_queries()
    league_close(args.users)


if __name__ == "__main__":
    sys.exit(main())
