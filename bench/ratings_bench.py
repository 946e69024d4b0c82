"""Ratings benchmark and the bots' fixed ratings (docs/ratings.md). Not a test.

Three parts:

    # Speed (PostgreSQL, own database cuatrola_ratings_bench; BENCH_DATABASE_URL to
    # override): builds 100,000 players and 1,000,000 rated matches once (--rebuild
    # starts again), times recompute_ratings over all of them, the leaderboard page,
    # the player page with its rating chart, and the rating update a settlement adds.
    nice -n 19 timeout 3600 .venv/bin/python bench/ratings_bench.py speed
    # Only the settlement's rating update, on the data `speed` built:
    .venv/bin/python bench/ratings_bench.py settle

    # The bots against each other: whole online matches, duplicate (each seed played
    # twice with the pairs swapped), and the rating gap that fits the results.
    nice -n 19 .venv/bin/python bench/ratings_bench.py bots --pairing easy:medium --matches 100

    # The bots against the rated population: the rating of each level that best
    # explains its rated matches against people at their ratings (a database with
    # real play; DATABASE_URL).
    .venv/bin/python bench/ratings_bench.py population

Targets (issue 30): the rating update adds < 2 ms to a settlement (p95); the
leaderboard and the player page p95 < 50 ms; recompute_ratings over 1,000,000
matches < 10 minutes.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import platform
import random
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
SECONDS_APART = 63  # 1,000,000 matches over two years
PLAYER_EVERY = 199  # the bench player (u000001) sits in one match of 199


# --- bots against each other ------------------------------------------------------


def _play(args: tuple[str, str, int]) -> tuple[int, int, int, float]:
    """One online match, levels[0] on seats 0 and 2: (seed, winner, moves, CPU s)."""
    from cuatrola.bots import choose_action
    from cuatrola.engine import Match, seat_view

    first, second, seed = args
    started = time.process_time()
    match = Match.new("online", seed=seed)
    moves = 0
    while not match.is_over:
        seat = match.to_play
        level = first if seat % 2 == 0 else second
        action = choose_action(seat_view(match, seat), level=level, seed=seed * 10_007 + moves)
        match, _events = match.apply(action, seat=seat)
        moves += 1
    return seed, int(match.winner), moves, time.process_time() - started


def _gap_for(share: float) -> float:
    """The mu gap between two levels (each pair two bots of one level, sigma 1) at
    which the model gives the first pair this chance to win (bisection)."""
    from ratings.skill import Skill, win_chance

    share = min(max(share, 0.001), 0.999)
    low, high = -40.0, 40.0
    for _ in range(80):
        mid = (low + high) / 2
        chance = win_chance([Skill(25 + mid, 1.0)] * 2, [Skill(25.0, 1.0)] * 2)
        low, high = (mid, high) if chance < share else (low, mid)
    return (low + high) / 2


def bots(pairings: list[tuple[str, str]], matches: int, workers: int, first_seed: int) -> None:
    from ratings.skill import SCALE

    print(f"{platform.node()} · {os.cpu_count()} CPUs · Python {platform.python_version()}")
    for first, second in pairings:
        jobs = []
        for seed in range(first_seed, first_seed + matches):
            jobs += [(first, second, seed), (second, first, seed)]  # duplicate
        started = time.perf_counter()
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(_play, jobs)
        wins = sum(
            1 for (a, _b, _s), (_seed, winner, _m, _c) in zip(jobs, results, strict=True)
            if (winner == 0) == (a == first)
        )  # fmt: skip
        played = len(jobs)
        share = wins / played
        half = 1.96 * math.sqrt(share * (1 - share) / played)
        low, high = max(0.0, share - half), min(1.0, share + half)
        gap = _gap_for(share)
        low_gap, high_gap = _gap_for(low), _gap_for(high)
        cpu = [r[3] for r in results]
        print(
            f"{first} vs {second}: {played} matches ({matches} seeds × 2 seatings), "
            f"{first} won {wins} ({share:.1%}, 95% [{low:.1%}, {high:.1%}])"
        )
        print(
            f"  gap in mu {gap:+.2f} [{low_gap:+.2f}, {high_gap:+.2f}] = "
            f"{gap * SCALE:+.0f} rating points [{low_gap * SCALE:+.0f}, {high_gap * SCALE:+.0f}]"
        )
        print(
            f"  moves a match median {statistics.median(r[2] for r in results):.0f}; "
            f"CPU a match median {statistics.median(cpu):.1f} s; "
            f"wall {time.perf_counter() - started:.0f} s"
        )


# --- bots against the rated population ------------------------------------------------


def population() -> None:
    """Per bot level, the mu that best explains the rated matches where it sat, with
    the people at their rating before the match (maximum likelihood, the model's
    win chance)."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
    import django

    django.setup()
    from games.models import MatchSeat
    from ratings.models import RatingChange
    from ratings.skill import BOT_SKILLS, SCALE, Skill, shown, win_chance

    before = {
        (match_id, user_id): Skill(mu, sigma)
        for match_id, user_id, mu, sigma in RatingChange.objects.values_list(
            "match_id", "user_id", "mu_before", "sigma_before"
        ).iterator()
    }
    rows = (
        MatchSeat.objects.filter(match__rated__isnull=False)
        .order_by("match_id", "position")
        .values_list(
            "match_id", "position", "user_id", "is_bot", "match__winner", "match__table__bot_level"
        )
    )
    games: dict[str, list] = {}
    current: list = []
    for row in rows.iterator():
        if current and current[0][0] != row[0]:
            _collect(current, before, games)
            current = []
        current.append(row)
    if current:
        _collect(current, before, games)
    if not games:
        print("no rated match with a bot yet: nothing to measure")
        return
    for level, played in sorted(games.items()):

        def log_likelihood(mu: float, played: list = played) -> float:
            total = 0.0
            for pairs, winner in played:
                teams = [
                    [Skill(mu, 1.0) if s is None else s for s in pair] for pair in pairs
                ]  # fmt: skip
                chance = win_chance(teams[0], teams[1])
                total += math.log(max(1e-9, chance if winner == 0 else 1 - chance))
            return total

        low, high = 0.0, 50.0
        for _ in range(60):  # golden-section search of the maximum
            a, b = low + (high - low) * 0.382, low + (high - low) * 0.618
            low, high = (a, high) if log_likelihood(a) < log_likelihood(b) else (low, b)
        mu = (low + high) / 2
        print(
            f"{level}: {len(played)} rated matches with people; best fit mu {mu:.2f} = "
            f"rating {shown(mu)} (fixed now: {BOT_SKILLS[level].shown}; {SCALE} points a mu)"
        )


def _collect(seats: list, before: dict, games: dict) -> None:
    match_id, winner, level = seats[0][0], seats[0][4], seats[0][5]
    if not any(s[3] for s in seats) or len(seats) != 4:
        return
    skills = [None if s[3] else before.get((match_id, s[2])) for s in seats]
    if any(s is None and not seat[3] for s, seat in zip(skills, seats, strict=True)):
        return
    pairs = ([skills[0], skills[2]], [skills[1], skills[3]])
    games.setdefault(level, []).append((pairs, winner))


# --- speed ----------------------------------------------------------------------------


def build(users: int, matches: int) -> None:
    from django.core.management import call_command
    from django.db import connection

    from accounts.models import User

    print(f"building: {users:,} players, {matches:,} rated matches …", flush=True)
    started = time.perf_counter()
    call_command("flush", "--noinput", verbosity=0)
    now = NOW.isoformat()

    def step(label: str) -> None:
        print(f"  {label} ({time.perf_counter() - started:.0f} s)", flush=True)

    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM accounts_user")
        cursor.execute("SET session_replication_role = replica")  # no FK triggers
        columns = {
            "id": "i",
            "username": "'u' || lpad(i::text, 6, '0')",
            "email": "'u' || i || '@bench.invalid'",
            "password": "'!'",
            "is_superuser": "false",
            "is_staff": "false",
            "is_active": "true",
            "first_name": "''",
            "last_name": "''",
            "date_joined": "'2024-01-01'",
            "language": "''",
            "username_key": "'u' || lpad(i::text, 6, '0')",
        }
        known = {f.column for f in User._meta.concrete_fields}
        columns = {name: sql for name, sql in columns.items() if name in known}
        cursor.execute(
            f"INSERT INTO accounts_user ({', '.join(columns)}) "
            f"SELECT {', '.join(columns.values())} FROM generate_series(1, %s) AS i",
            [users],
        )
        # Seat p of match i: the bench player in one match of 199; one match in 20 has
        # bots on the second pair's seats; otherwise pseudo-random players.
        cursor.execute(
            f"""
            CREATE FUNCTION pg_temp.seat_user(i bigint, p int, users bigint) RETURNS bigint AS $$
              SELECT CASE
                WHEN i % 20 = 7 AND p % 2 = 1 THEN NULL
                WHEN i % {PLAYER_EVERY} = 0 AND p = (i / {PLAYER_EVERY}) % 4 THEN 1
                ELSE 2 + ((i * 4 + p) * 7919) % (users - 1)
              END
            $$ LANGUAGE sql IMMUTABLE;
            """
        )
        step("players")
        cursor.execute(
            """
            INSERT INTO games_table (id, mode, rules, bot_level, owner_id, status, seq, created_at,
                listeners)
            SELECT i, CASE WHEN i %% 10 = 9 THEN 'stake' ELSE 'online' END, 'online', 'easy',
                   coalesce(pg_temp.seat_user(i, 0, %s), 1), 'finished', 100,
                   %s::timestamptz - make_interval(secs => i * %s), ''
            FROM generate_series(1, %s) AS i
            """,
            [users, now, SECONDS_APART, matches],
        )
        cursor.execute(
            """
            INSERT INTO games_match (id, table_id, rules, seed, first_dealer, status, version,
                hand_no, score_a, score_b, winner, record, started_at, finished_at)
            SELECT t.id, t.id, t.rules, t.id, t.id % 4, 'finished', 120, 9,
                   CASE WHEN (t.id * 37) % 7 < 4 THEN 21 ELSE t.id % 21 END,
                   CASE WHEN (t.id * 37) % 7 < 4 THEN t.id % 21 ELSE 21 END,
                   CASE WHEN (t.id * 37) % 7 < 4 THEN 0 ELSE 1 END,
                   '{}', t.created_at - interval '15 minutes', t.created_at
            FROM games_table t
            """
        )
        step("tables and matches")
        cursor.execute(
            """
            INSERT INTO games_matchseat (match_id, position, user_id, is_bot, abandoned,
                personal_points, tricks_won, place, won)
            SELECT i, p, pg_temp.seat_user(i, p, %s), pg_temp.seat_user(i, p, %s) IS NULL,
                   pg_temp.seat_user(i, p, %s) IS NOT NULL AND (i * 7 + p) %% 50 = 0,
                   (i * p) %% 90, (i + p) %% 12, 1 + p, p %% 2 = i %% 2
            FROM generate_series(1, %s) AS i CROSS JOIN generate_series(0, 3) AS p
            """,
            [users, users, users, matches],
        )
        step("match seats")
        cursor.execute(
            """
            INSERT INTO history_playermatch (match_id, user_id, position, mode, rules,
                finished_at, outcome, partner_id, opponent_1_id, opponent_2_id, own_score,
                other_score, place, hands, solo_bids, solo_played, solo_made, cuatrola_bids,
                cuatrola_played, cuatrola_made, quintola_bids, quintola_played, quintola_made,
                defended, broken, pass_hands, pass_card_points, pass_last_tricks, declared_40,
                declared_20)
            SELECT i, u, p, CASE WHEN i %% 10 = 9 THEN 'stake' ELSE 'online' END, 'online',
                   %s::timestamptz - make_interval(secs => i * %s),
                   CASE WHEN (i * 7 + p) %% 50 = 0 THEN 'abandoned'
                        WHEN p %% 2 = i %% 2 THEN 'won' ELSE 'lost' END,
                   pg_temp.seat_user(i, (p + 2) %% 4, %s),
                   pg_temp.seat_user(i, (p + 1) %% 4, %s),
                   pg_temp.seat_user(i, (p + 3) %% 4, %s),
                   21, i %% 21, 1 + p, 6 + i %% 8, (i + p) %% 3, (i + p) %% 2,
                   ((i + p) %% 4 = 0)::int, (i %% 5 = 0)::int, (i %% 10 = 0)::int,
                   (i %% 20 = 0)::int, (i %% 40 = 0)::int, (i %% 80 = 0)::int,
                   (i %% 160 = 0)::int, 2 + i %% 3, i %% 2, 3 + i %% 4, (i * 13) %% 240,
                   i %% 2, (i %% 7 = 0)::int, (i %% 3 = 0)::int
            FROM (
                SELECT i, p, pg_temp.seat_user(i, p, %s) AS u
                FROM generate_series(1, %s) AS i CROSS JOIN generate_series(0, 3) AS p
            ) AS seats
            WHERE u IS NOT NULL
            """,
            [now, SECONDS_APART, users, users, users, users, matches],
        )
        step("history rows")
        for table in ("accounts_user", "games_table", "games_match"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute("SET session_replication_role = origin")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"built in {time.perf_counter() - started:.1f} s", flush=True)


def _create_database(url: str) -> None:
    """Creates the bench's database when it does not exist yet."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    with psycopg.connect(urlunsplit(parts._replace(path="/postgres")), autocommit=True) as db:
        if db.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is None:
            db.execute(f'CREATE DATABASE "{name}"')


def speed(users: int, matches: int, repeat: int, rebuild: bool) -> None:
    from _setup import database_time, machine, setup_django, summary, timed_get

    default = "postgres://postgres@127.0.0.1:5432/cuatrola_ratings_bench"
    _create_database(os.environ.get("BENCH_DATABASE_URL", default))
    setup_django(default)
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from ratings import selectors
    from ratings.services import ratings_recompute

    call_command("migrate", "--noinput", verbosity=0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM games_match")
        built = cursor.fetchone()[0]
    if rebuild or built != matches:
        build(users, matches)
    print(machine())
    print(f"data: {users:,} players, {matches:,} rated matches")

    started = time.perf_counter()
    done = ratings_recompute()
    took = time.perf_counter() - started
    print(
        f"recompute_ratings: {done.matches:,} matches, {done.changes:,} rating changes, "
        f"{done.players:,} players in {took:.1f} s ({done.matches / took:,.0f} matches/s)"
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE ratings_rating, ratings_ratingchange, ratings_ratedmatch")

    # The built matches end at NOW, which may be long ago: the players' last rated
    # match is moved to the last 40 days before today (three in four within the board's
    # 30 days).
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE ratings_rating "
            "SET last_rated_at = %s - make_interval(days => (user_id %% 40)::int)",
            [timezone.now()],
        )
        cursor.execute("VACUUM ANALYZE ratings_rating")
    ranked = selectors.leaderboard(user_id=1)
    print(
        f"leaderboard: {ranked.players:,} ranked; u000001 rank "
        f"{ranked.you.rank if ranked.you else '-'}"
    )

    visitor = Client()
    owner = Client()
    owner.force_login(User.objects.get(pk=1))
    pages = [
        ("leaderboard, signed in (own rank below the top)", owner, "/ratings/"),
        ("leaderboard, visitor", visitor, "/ratings/"),
        ("player page with the rating chart, owner", owner, "/u/u000001/record/"),
        ("player page with the rating chart, visitor", visitor, "/u/u000001/record/"),
        ("home page (baseline)", owner, "/"),
    ]
    for label, client, url in pages:
        client.get(url)  # warm
        cpu: list[float] = []
        times = timed_get(client, url, repeat, cpu)
        queries, db_ms = database_time(url, client)
        print(
            f"{label}: {summary(times)}; CPU median {statistics.median(cpu):.1f} ms; "
            f"{queries} queries, PostgreSQL {db_ms:.1f} ms"
        )

    settlement_costs(matches, repeat)


def settlement_costs(matches: int, repeat: int) -> None:
    """What a settlement adds: match_rate on a match just finished (a copy of a random
    built match and its seats, finished now: its rows the newest of every index), in
    its own transaction, committed as a settlement commits, the foreign keys checked
    inside the timing (a settlement pays them at its commit). Each copy is undone
    afterwards (the players' ratings restored, the copy deleted), so runs repeat.

    Not rolled back: psycopg forgets a connection's prepared statements at every
    ROLLBACK, which a settlement that commits never meets. Timed twice: on a
    connection that settled before (a web process keeps its connection for
    DATABASE_CONN_MAX_AGE seconds), and as the first settlement on a new connection
    (its two statements prepared then)."""
    from _setup import summary
    from django.db import connection, transaction
    from django.utils import timezone

    from games.models import Match, MatchSeat
    from ratings.models import Rating
    from ratings.services import match_rate

    rng = random.Random(7)
    timed: dict[bool, list[float]] = {}
    for label, count, new_connection in (
        ("on a connection that settled before", repeat * 5, False),
        ("the first on a new connection", repeat, True),
    ):
        costs, cpu_costs = [], []
        for _ in range(count):
            if new_connection:
                connection.close()
            with transaction.atomic():
                match = Match.objects.get(pk=rng.randrange(1, matches + 1))
                seats = list(MatchSeat.objects.filter(match=match).order_by("position"))
                match.pk = None
                match.finished_at = timezone.now()
                match.save()
                for seat in seats:
                    seat.pk = None
                    seat.match = match
                MatchSeat.objects.bulk_create(seats)
            people = [s.user_id for s in seats if not s.is_bot]
            saved = list(Rating.objects.filter(user_id__in=people))
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                started, started_cpu = time.perf_counter(), time.process_time()
                match_rate(match=match, match_seats=seats, bot_level="easy")
                costs.append((time.perf_counter() - started) * 1000)
                cpu_costs.append((time.process_time() - started_cpu) * 1000)
            with transaction.atomic():
                Rating.objects.bulk_update(
                    saved, ["mu", "sigma", "value", "matches", "last_rated_at"]
                )
                match.delete()  # its seats, rated match and rating changes with it
        print(
            f"rating update in a settlement (match_rate, a match just finished, {label}, "
            f"{len(costs)} matches): {summary(costs)}; CPU {summary(cpu_costs)}"
        )
        timed[new_connection] = costs
    # A connection settles about 30 matches in its 600 s at 500 tables with four web
    # processes (docs/ratings.md): one first settlement in 30.
    warm, first = timed[False], timed[True]
    mixed = warm + first[: max(1, len(warm) // 29)]
    print(f"  mixed, one first settlement on a connection in 30: {summary(mixed)}")


def settle(repeat: int) -> None:
    """Only the settlement's update, on data built by `speed` before."""
    from _setup import machine, setup_django

    setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_ratings_bench")
    from games.models import Match

    print(machine())
    settlement_costs(Match.objects.count(), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="part", required=True)
    speed_args = sub.add_parser("speed")
    speed_args.add_argument("--users", type=int, default=100_000)
    speed_args.add_argument("--matches", type=int, default=1_000_000)
    speed_args.add_argument("--repeat", type=int, default=40)
    speed_args.add_argument("--rebuild", action="store_true")
    bots_args = sub.add_parser("bots")
    bots_args.add_argument("--pairing", default="easy:medium")
    bots_args.add_argument("--matches", type=int, default=50, help="seeds, each played twice")
    bots_args.add_argument("--first-seed", type=int, default=0)
    bots_args.add_argument("--workers", type=int, default=1)
    sub.add_parser("population")
    settle_args = sub.add_parser("settle")
    settle_args.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    if args.part == "bots":
        pairings = [tuple(p.split(":")) for p in args.pairing.split(",")]
        bots(pairings, args.matches, args.workers, args.first_seed)  # type: ignore[arg-type]
    elif args.part == "population":
        population()
    elif args.part == "settle":
        settle(args.repeat)
    else:
        speed(args.users, args.matches, args.repeat, args.rebuild)


if __name__ == "__main__":
    main()
