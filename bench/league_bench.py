"""League benchmark: standings page and week close with 100,000 users and 1,000,000 point rows.

PostgreSQL only. Uses its own database (default cuatrola_league_bench; override
with BENCH_DATABASE_URL). The data are built once with COPY and reused; pass
--rebuild to start again. The close runs inside a transaction that is rolled
back, so the figures can be repeated on the same data.

    nice -n 19 timeout 1200 .venv/bin/python bench/league_bench.py [--users N] [--rows N]

Targets (issue 8): the standings page under 50 ms server time, the close under 60 s.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from datetime import UTC, datetime, timedelta
from unittest import mock

from _setup import database_time, machine, setup_django, summary, timed_get

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_league_bench")

from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402

from accounts.models import User  # noqa: E402
from leagues.models import Division, LeagueWeek  # noqa: E402
from leagues.selectors import league_board  # noqa: E402
from leagues.services import league_points_record, league_week_close  # noqa: E402
from leagues.weeks import week_bounds  # noqa: E402

MIDWEEK = datetime(2026, 11, 18, 11, 0, tzinfo=UTC)
WEEK_START, WEEK_END = week_bounds(MIDWEEK)
# Share of users per division (Bronze, Silver, Gold, Diamond).
SHARES = (0.5, 0.25, 0.15, 0.10)
POINTS = (20, 14, 8, 4, 10, 7, 4, 2)


class Rollback(Exception):
    pass


def build(users: int, rows: int) -> None:
    print(f"building: {users:,} users, {rows:,} league point rows …", flush=True)
    started = time.perf_counter()
    call_command("flush", "--noinput", verbosity=0)
    rng = random.Random(48)
    joined = "2026-01-01 00:00:00+00"
    with connection.cursor() as cursor:
        columns = (
            "username, email, password, is_superuser, is_staff, is_active, first_name, "
            "last_name, date_joined, language"
        )
        with cursor.copy(f"COPY accounts_user ({columns}) FROM STDIN") as copy:
            for i in range(users):
                copy.write_row(
                    (
                        f"u{i:06d}",
                        f"u{i:06d}@bench.invalid",
                        "!",
                        False,
                        False,
                        True,
                        "",
                        "",
                        joined,
                        "",
                    )
                )
        cursor.execute("SELECT min(id) FROM accounts_user")
        first_id = cursor.fetchone()[0]
        # Divisions by share: the first half Bronze, then Silver, Gold, Diamond.
        bounds, edge = [], 0
        for share in SHARES:
            edge += int(users * share)
            bounds.append(first_id + edge)
        cursor.execute(
            """
            INSERT INTO leagues_leaguemembership (user_id, division, updated_at)
            SELECT id, CASE WHEN id < %s THEN 1 WHEN id < %s THEN 2 WHEN id < %s THEN 3 ELSE 4 END,
                   now()
            FROM accounts_user ON CONFLICT (user_id) DO NOTHING
            """,
            bounds[:3],
        )
        cursor.execute(
            "INSERT INTO leagues_leagueweek (starts_at, ends_at, status, players, promoted, "
            "relegated, prizes_paid, division_players) VALUES (%s, %s, 'open', 0, 0, 0, 0, '{}') "
            "RETURNING id",
            [WEEK_START, WEEK_END],
        )
        week_id = cursor.fetchone()[0]
        span = int((WEEK_END - WEEK_START).total_seconds()) - 1
        with cursor.copy(
            "COPY leagues_leaguepoints (user_id, match_id, week_id, points, finished_at, "
            "created_at) FROM STDIN"
        ) as copy:
            for match_id in range(1, rows + 1):
                finished = WEEK_START + timedelta(seconds=rng.randrange(span))
                copy.write_row(
                    (
                        first_id + rng.randrange(users),
                        match_id,
                        week_id,
                        rng.choice(POINTS),
                        finished,
                        finished,
                    )
                )
        # The weekly totals league_points_record keeps, built in one statement.
        cursor.execute(
            """
            INSERT INTO leagues_leaguescore (week_id, user_id, division, points)
            SELECT p.week_id, p.user_id, m.division, sum(p.points)
            FROM leagues_leaguepoints p JOIN leagues_leaguemembership m USING (user_id)
            GROUP BY p.week_id, p.user_id, m.division
            """
        )
        cursor.execute(
            """
            INSERT INTO leagues_leaguescorecount (week_id, division, points, players)
            SELECT week_id, division, points, count(*) FROM leagues_leaguescore
            GROUP BY week_id, division, points
            """
        )
    # What autovacuum does on a live site: statistics and the visibility map.
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"built in {time.perf_counter() - started:.1f} s", flush=True)


def counts() -> tuple[int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM accounts_user")
        users = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM leagues_leaguepoints")
        return users, cursor.fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    print("machine:", machine())
    if args.rebuild or counts() != (args.users, args.rows):
        build(args.users, args.rows)
    users, rows = counts()
    week = LeagueWeek.objects.get(starts_at=WEEK_START)
    if week.is_closed:
        sys.exit("the bench week is closed; run with --rebuild")
    print(f"data: {users:,} users, {rows:,} league point rows in week {week.label}")

    client = Client()
    with mock.patch("django.utils.timezone.now", lambda: MIDWEEK):
        # A mid-table Bronze player, the division leader, a Diamond player.
        for label, username in (
            ("bronze, mid-table", f"u{int(users * 0.25):06d}"),
            ("bronze, last-but-few", f"u{int(users * 0.49):06d}"),
            ("diamond", f"u{users - 10:06d}"),
        ):
            user = User.objects.get(username=username)
            client.force_login(user)
            timed_get(client, "/league/", 3)  # warm up
            cpu: list[float] = []
            times = timed_get(client, "/league/", args.repeat, cpu)
            print(f"standings page /league/ ({label}, {args.repeat} requests): {summary(times)}")
            print(f"  Django process CPU time per request: {summary(cpu)}")
            hx = []
            for _ in range(args.repeat):
                started = time.perf_counter()
                client.get(
                    "/league/", headers={"HX-Request": "true", "HX-Target": "league-standings"}
                )
                hx.append((time.perf_counter() - started) * 1000)
            print(f"standings htmx refresh ({label}): {summary(hx)}")
            count, total = database_time("/league/", client)
            print(
                f"  PostgreSQL planning + execution for the page's {count} queries: "
                f"{total:.2f} ms (median of 5)"
            )

        # The same stack without league work, for comparison (session, user, layout).
        cpu = []
        times = timed_get(client, "/", args.repeat, cpu)
        print(f"baseline: home page / for a logged-in user: {summary(times)}")
        print(f"  Django process CPU time per request: {summary(cpu)}")
        user = User.objects.get(username=f"u{int(users * 0.25):06d}")
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            league_board(user=user, now=MIDWEEK)
            board_ms = (time.perf_counter() - started) * 1000
        print(f"league_board selector alone: {board_ms:.1f} ms, {len(queries)} queries")

        try:
            with transaction.atomic():
                user = User.objects.get(username=f"u{int(users * 0.3):06d}")
                started = time.perf_counter()
                for i in range(100):
                    league_points_record(
                        user=user, match_id=10_000_000 + i, points=14, finished_at=MIDWEEK
                    )
                per_record = (time.perf_counter() - started) * 1000 / 100
                print(f"league_points_record: {per_record:.2f} ms per call (100 calls)")
                raise Rollback
        except Rollback:
            pass

    try:
        with transaction.atomic():
            started = time.perf_counter()
            closing = league_week_close(week=week, now=WEEK_END + timedelta(minutes=1))
            elapsed = time.perf_counter() - started
            print(
                f"week close: {elapsed:.2f} s — {closing.players:,} players ranked, "
                f"{closing.promoted:,} up, {closing.relegated:,} down, "
                f"{len(closing.prizes)} prizes ({closing.week.prizes_paid:,} coins)"
            )
            started = time.perf_counter()
            again = league_week_close(week=week, now=WEEK_END + timedelta(minutes=2))
            assert again.replayed
            print(f"second close (replay): {(time.perf_counter() - started) * 1000:.1f} ms")
            client.force_login(User.objects.get(username=f"u{int(users * 0.25):06d}"))
            for number in (1, 400, 999):
                times = timed_get(
                    client,
                    f"/league/weeks/{week.pk}/?division={Division.BRONZE}&page={number}",
                    10,
                )
                print(f"archived standings page (Bronze, page {number}): {summary(times)}")
            raise Rollback
    except Rollback:
        print("(close rolled back: the data stay reusable)")


if __name__ == "__main__":
    main()
