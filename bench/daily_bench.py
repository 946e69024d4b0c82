"""Daily deal benchmark: one day with 100,000 players (docs/daily.md, issue 33).

PostgreSQL only. Uses its own database (default cuatrola_daily_bench; override with
BENCH_DATABASE_URL). The day is built once with COPY (every player's six deals, a
share of them left unfinished) and reused; pass --rebuild to start again. Prints:

- the provisional standings (what beat computes every minute during the day);
- the day's close: the final percentages and the prizes paid through the ledger
  (inside a transaction that is rolled back, so it can be repeated on the same data);
- the ranking page's wall time (provisional, and final inside the close's
  transaction), the Django process's CPU time and PostgreSQL's own time;
- the hard bots' move on the day's deals, reproducible (as the daily table plays
  them: no clock) and as at any other table, for comparison.

    nice -n 19 timeout 1800 .venv/bin/python bench/daily_bench.py --players 100000

Targets (issue 33): final percentages and prizes < 60 s at 100,000 players; the
ranking page p95 < 50 ms; the hard bots' move p95 as at the other tables.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import date, datetime, timedelta
from unittest import mock
from zoneinfo import ZoneInfo

from _setup import database_time, machine, setup_django, summary, timed_get

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_daily_bench")

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from cuatrola.bots import choose_action  # noqa: E402
from cuatrola.engine import seat_view  # noqa: E402
from daily import services  # noqa: E402
from daily.deals import DEALS, deal_dealer, deal_match, deal_seed  # noqa: E402
from daily.models import DailyDay, DailyDeal, DailyEntry, DailyPlay, DayStatus  # noqa: E402
from economy.models import Account, Transaction, TransactionKind  # noqa: E402

MADRID = ZoneInfo("Europe/Madrid")
DAY = date(2026, 11, 18)
EVENING = datetime(2026, 11, 18, 21, 0, tzinfo=MADRID)
AFTER = datetime(2026, 11, 19, 0, 5, tzinfo=MADRID)
# A deal's results (match points for the player's pair, or minus the other pair's)
# and how often each comes up: most hands are small, a few are big.
RESULTS = (-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6)
WEIGHTS = (1, 2, 4, 8, 12, 14, 14, 12, 8, 4, 2, 1)
# Players who leave deals unfinished at midnight (the rest play all six).
UNFINISHED_SHARE = 0.08


class Rollback(Exception):
    pass


def build(players: int) -> None:
    print(f"building: {players:,} players of one day, {players * DEALS:,} deals …", flush=True)
    started = time.perf_counter()
    call_command("flush", "--noinput", verbosity=0)
    rng = random.Random(33)
    joined = "2026-01-01 00:00:00+00"
    noon = datetime(2026, 11, 18, 12, 0, tzinfo=MADRID)
    day = services.day_ensure(day=DAY)
    deals = list(DailyDeal.objects.filter(day=day).order_by("number").values_list("pk", flat=True))
    with connection.cursor() as cursor:
        columns = (
            "username, username_key, email, password, is_superuser, is_staff, is_active,"
            " first_name, last_name, date_joined, language"
        )
        with cursor.copy(f"COPY accounts_user ({columns}) FROM STDIN") as copy:
            for i in range(players):
                name = f"u{i:06d}"
                copy.write_row(
                    (
                        name,
                        name,
                        f"{name}@bench.invalid",
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
        # Every user has their coin and XP accounts (opened at signup on the site).
        account = connection.ops.quote_name(Account._meta.db_table)
        cursor.execute(
            f"INSERT INTO {account} (kind, currency, user_id, balance, created_at)"
            " SELECT 'user', c.currency, u.id, 0, now() FROM accounts_user u"
            " CROSS JOIN (VALUES ('coins'), ('xp')) AS c(currency)"
        )
        cursor.execute("SELECT id FROM accounts_user ORDER BY id")
        user_ids = [row[0] for row in cursor.fetchall()]
        entry_table = connection.ops.quote_name(DailyEntry._meta.db_table)
        finished_counts = []
        with cursor.copy(
            f"COPY {entry_table} (day_id, user_id, started_at, finished_at, deals_finished,"
            " prize_coins, prize_xp, void_reason) FROM STDIN"
        ) as copy:
            for user_id in user_ids:
                played = DEALS if rng.random() > UNFINISHED_SHARE else rng.randrange(DEALS)
                finished_counts.append(played)
                finished_at = noon + timedelta(seconds=rng.randrange(30_000))
                done = finished_at if played == DEALS else None
                copy.write_row((day.pk, user_id, noon, done, played, 0, 0, ""))
        cursor.execute(f"SELECT id FROM {entry_table} WHERE day_id = %s ORDER BY user_id", [day.pk])
        entry_ids = [row[0] for row in cursor.fetchall()]
        play_table = connection.ops.quote_name(DailyPlay._meta.db_table)
        with cursor.copy(
            f"COPY {play_table} (entry_id, deal_id, status, result, started_at, finished_at)"
            " FROM STDIN"
        ) as copy:
            for entry_id, played in zip(entry_ids, finished_counts, strict=True):
                for number, deal_id in enumerate(deals, start=1):
                    if number <= played:
                        result = rng.choices(RESULTS, WEIGHTS)[0]
                        copy.write_row((entry_id, deal_id, "finished", result, noon, noon))
                    elif number == played + 1:  # left midway, never finished
                        copy.write_row((entry_id, deal_id, "playing", None, noon, None))
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"built in {time.perf_counter() - started:.1f} s", flush=True)


def players_of_day() -> int:
    day = DailyDay.objects.filter(date=DAY).first()
    if day is None or day.status != DayStatus.OPEN:
        return -1
    return DailyEntry.objects.filter(day=day).count()


def ranking_page(client: Client, label: str, repeat: int) -> None:
    url = f"/daily/{DAY.isoformat()}/ranking/"
    timed_get(client, url, 3)  # warm up
    cpu: list[float] = []
    times = timed_get(client, url, repeat, cpu)
    print(f"ranking page {url} ({label}, {repeat} requests): {summary(times)}")
    print(f"  Django process CPU time per request: {summary(cpu)}")
    count, total = database_time(url, client)
    print(
        f"  PostgreSQL planning + execution for its {count} queries: {total:.2f} ms (median of 5)"
    )


def bot_moves(deals: int, reproducible: bool) -> list[float]:
    """Milliseconds per hard bot move over `deals` daily deals (all four seats hard)."""
    times = []
    for index in range(deals):
        number = index % DEALS + 1
        day = DAY - timedelta(days=index // DEALS)
        seed = deal_seed(secret=settings.DAILY_SECRET, day=day, number=number)
        match = deal_match(seed=seed, dealer=deal_dealer(number))
        version = 0
        while not match.is_over:
            seat = match.to_play
            assert seat is not None
            view = seat_view(match, seat)
            started = time.perf_counter()
            # The seed as the games app gives it: the match's seed and version.
            action = choose_action(
                view,
                level="hard",
                seed=hash((seed, version)) & 0x7FFFFFFF,
                reproducible=reproducible,
            )
            times.append((time.perf_counter() - started) * 1000)
            match, _events = match.apply(action, seat)
            version += 1
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=30)
    parser.add_argument("--bot-deals", type=int, default=24, help="deals the hard bots play")
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()
    if args.players < 2:
        sys.exit("--players must be 2 or more")

    call_command("migrate", verbosity=0)
    print("machine:", machine())
    if args.rebuild or players_of_day() != args.players:
        build(args.players)
    day = DailyDay.objects.get(date=DAY)
    print(f"data: {args.players:,} players on {DAY}, {DailyPlay.objects.count():,} plays")

    started = time.perf_counter()
    services.standings_refresh(day_id=day.pk, now=EVENING)
    print(f"provisional standings (beat, every minute): {time.perf_counter() - started:.2f} s")

    middle = DailyEntry.objects.filter(day=day, rank__isnull=False).order_by("rank")
    viewer = User.objects.get(pk=middle[args.players // 2].user_id)
    client = Client()
    client.force_login(viewer)
    with mock.patch("django.utils.timezone.now", lambda: EVENING):
        ranking_page(client, "provisional, a mid-table player", args.repeat)

    try:
        with transaction.atomic():
            started = time.perf_counter()
            closing = services.day_close(day_id=day.pk, now=AFTER)
            took = time.perf_counter() - started
            prizes = Transaction.objects.filter(kind=TransactionKind.DAILY_PRIZE)
            won = DailyEntry.objects.filter(day=day, prize_coins__gt=0).count()
            print(
                f"close (final percentages + prizes paid): {took:.2f} s for {closing.players:,}"
                f" players; {prizes.count():,} ledger transactions, {won:,} coin prizes"
            )
            with mock.patch("django.utils.timezone.now", lambda: AFTER):
                ranking_page(client, "final, a mid-table player", args.repeat)
            raise Rollback()
    except Rollback:
        pass

    for reproducible in (True, False):
        times = bot_moves(args.bot_deals, reproducible)
        label = "reproducible (daily table)" if reproducible else "as at other tables"
        print(
            f"hard bot move, {label}, {len(times)} moves over {args.bot_deals} deals:"
            f" {summary(times)}; mean {statistics.fmean(times):.1f} ms"
        )


if __name__ == "__main__":
    main()
