"""Player page and history benchmark: one player with 5,000 matches among 100,000
players and 1,000,000 finished matches.

PostgreSQL only. Uses its own database (default cuatrola_profile_bench; override
with BENCH_DATABASE_URL). The data are built once in the database itself
(generate_series, INSERT … SELECT: no row crosses the wire) and reused; pass
--rebuild to start again.

    nice -n 19 timeout 1800 .venv/bin/python bench/profile_bench.py [--matches N]

What a browser does is what is timed: a GET of the whole page through Django
(session, middleware, template), as the owner (who also gets the wallet charts)
and as a visitor, and GETs of the history with filters. Target (issue 21): the
player page and a filtered history page each under 50 ms server time at p95.
"""

from __future__ import annotations

import argparse
import time
from datetime import UTC, datetime

from _setup import database_time, machine, setup_django, summary, timed_get

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_profile_bench")

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402

NOW = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
# The bench player sits in match i when i % 199 == 0: 5,025 of 1,000,000, every mode.
PLAYER_EVERY = 199
SECONDS_APART = 63  # 1,000,000 matches over two years


# Who sits at seat p of match i: the bench player (user 1) in one match of 199, at a
# seat that turns; otherwise a pseudo-random one of the users. Practice matches (one
# in five) have bots at seats other than the host's.
_SEAT_USER = """
CREATE FUNCTION pg_temp.seat_user(i bigint, p int, users bigint) RETURNS bigint AS $$
  SELECT CASE
    WHEN i % 10 IN (5, 6) AND p <> (i / {every}) % 4 THEN NULL
    WHEN i % {every} = 0 AND p = (i / {every}) % 4 THEN 1
    ELSE 2 + ((i * 4 + p) * 7919) % (users - 1)
  END
$$ LANGUAGE sql IMMUTABLE;
CREATE FUNCTION pg_temp.mode(i bigint) RETURNS text AS $$
  SELECT CASE WHEN i % 10 < 5 THEN 'online' WHEN i % 10 < 7 THEN 'practice'
              WHEN i % 10 < 9 THEN 'friends' ELSE 'stake' END
$$ LANGUAGE sql IMMUTABLE;
"""


def build(users: int, matches: int) -> None:
    print(f"building: {users:,} users, {matches:,} matches …", flush=True)
    started = time.perf_counter()
    call_command("flush", "--noinput", verbosity=0)
    now = NOW.isoformat()
    with connection.cursor() as cursor:
        step = lambda label: print(f"  {label} ({time.perf_counter() - started:.0f} s)", flush=True)  # noqa: E731
        cursor.execute("DELETE FROM accounts_user")
        # Consistent by construction: no per-row foreign-key triggers while loading
        # (they are most of the time of a multi-million-row INSERT … SELECT).
        cursor.execute("SET session_replication_role = replica")
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
        }
        known = {f.column for f in User._meta.concrete_fields}
        if "username_key" in known:  # the look-alike key of accounts (what the name looks like)
            columns["username_key"] = "'u' || lpad(i::text, 6, '0')"
        columns = {name: sql for name, sql in columns.items() if name in known}
        cursor.execute(
            f"INSERT INTO accounts_user ({', '.join(columns)}) "
            f"SELECT {', '.join(columns.values())} FROM generate_series(1, %s) AS i",
            [users],
        )
        cursor.execute(_SEAT_USER.format(every=PLAYER_EVERY))
        step("users")
        cursor.execute(
            """
            INSERT INTO games_table (id, mode, rules, bot_level, owner_id, status, seq, created_at)
            SELECT i, pg_temp.mode(i), CASE WHEN i %% 10 IN (6, 8) THEN 'classic' ELSE 'online' END,
                   'easy', coalesce(pg_temp.seat_user(i, 0, %s), 1), 'finished', 100,
                   %s::timestamptz - make_interval(secs => i * %s)
            FROM generate_series(1, %s) AS i
            """,
            [users, now, SECONDS_APART, matches],
        )
        step("tables")
        cursor.execute(
            """
            INSERT INTO games_match (id, table_id, rules, seed, first_dealer, status, version,
                hand_no, score_a, score_b, winner, record, started_at, finished_at)
            SELECT t.id, t.id, t.rules, t.id, t.id % 4, 'finished', 120, 9,
                   CASE WHEN t.id % 2 = 0 THEN 21 ELSE t.id % 21 END,
                   CASE WHEN t.id % 2 = 1 THEN 21 ELSE t.id % 21 END,
                   t.id % 2, '{}', t.created_at - interval '15 minutes', t.created_at
            FROM games_table t
            """
        )
        step("matches")
        cursor.execute(
            """
            INSERT INTO games_matchseat (match_id, position, user_id, is_bot, abandoned,
                personal_points, tricks_won, place, won)
            SELECT i, p, pg_temp.seat_user(i, p, %s), pg_temp.seat_user(i, p, %s) IS NULL,
                   (i * 7 + p) %% 50 = 0, (i * p) %% 90, (i + p) %% 12, 1 + p,
                   p %% 2 = i %% 2 AND (i * 7 + p) %% 50 <> 0
            FROM generate_series(1, %s) AS i CROSS JOIN generate_series(0, 3) AS p
            """,
            [users, users, matches],
        )
        step("match seats")
        # Straight from the series, like the seats (no join back to them): the same
        # formulas give the same players, scores and outcomes.
        cursor.execute(
            """
            INSERT INTO history_playermatch (match_id, user_id, position, mode, rules,
                finished_at, outcome, partner_id, opponent_1_id, opponent_2_id, own_score,
                other_score, place, hands, solo_bids, solo_played, solo_made, cuatrola_bids,
                cuatrola_played, cuatrola_made, quintola_bids, quintola_played, quintola_made,
                defended, broken, pass_hands, pass_card_points, pass_last_tricks, declared_40,
                declared_20)
            SELECT i, u, p, pg_temp.mode(i),
                   CASE WHEN i %% 10 IN (6, 8) THEN 'classic' ELSE 'online' END,
                   %s::timestamptz - make_interval(secs => i * %s),
                   CASE WHEN (i * 7 + p) %% 50 = 0 THEN 'abandoned'
                        WHEN p %% 2 = i %% 2 THEN 'won' ELSE 'lost' END,
                   pg_temp.seat_user(i, (p + 2) %% 4, %s),
                   pg_temp.seat_user(i, (p + 1) %% 4, %s),
                   pg_temp.seat_user(i, (p + 3) %% 4, %s),
                   CASE WHEN p %% 2 = i %% 2 THEN 21 ELSE i %% 21 END,
                   CASE WHEN p %% 2 = i %% 2 THEN i %% 21 ELSE 21 END,
                   1 + p, 6 + i %% 8, (i + p) %% 3, (i + p) %% 2, ((i + p) %% 4 = 0)::int,
                   (i %% 5 = 0)::int, (i %% 10 = 0)::int, (i %% 20 = 0)::int,
                   (i %% 40 = 0)::int, (i %% 80 = 0)::int, (i %% 160 = 0)::int, 2 + i %% 3,
                   i %% 2, 3 + i %% 4, (i * 13) %% 240, i %% 2, (i %% 7 = 0)::int,
                   (i %% 3 = 0)::int
            FROM (
                SELECT i, p, pg_temp.seat_user(i, p, %s) AS u
                FROM generate_series(1, %s) AS i CROSS JOIN generate_series(0, 3) AS p
            ) AS seats
            WHERE u IS NOT NULL
            """,
            [now, SECONDS_APART, users, users, users, users, matches],
        )
        step("history rows")
        # The bench player's ledger: the signup bonus and the rewards of their matches
        # (other users' rewards would only deepen the same indexes: a background of
        # one transaction in four matches for them).
        cursor.execute(
            """
            INSERT INTO economy_account (kind, currency, user_id, balance, created_at)
            VALUES ('issuance', 'coins', NULL, NULL, %s), ('issuance', 'xp', NULL, NULL, %s)
            ON CONFLICT DO NOTHING
            """,
            [now, now],
        )
        cursor.execute(
            """
            INSERT INTO economy_account (kind, currency, user_id, balance, created_at)
            SELECT 'user', c, u, 0, '2024-01-01' FROM generate_series(1, %s) AS u
                 CROSS JOIN (VALUES ('coins'), ('xp')) AS cur(c)
            """,
            [users],
        )
        cursor.execute(
            """
            INSERT INTO economy_transaction (idempotency_key, kind, memo, match_id, table_id,
                created_at)
            SELECT 'match:' || i || ':reward', 'match_reward', '', i, i,
                   %s::timestamptz - make_interval(secs => i * %s)
            FROM generate_series(1, %s) AS i WHERE i %% 4 = 0 OR i %% %s = 0
            """,
            [now, SECONDS_APART, matches, PLAYER_EVERY],
        )
        for side, account in (
            (
                "1",
                "a.kind = 'user' AND a.user_id = CASE WHEN t.match_id % {every} = 0 THEN 1 "
                "ELSE 2 + (t.match_id * 7919) % ({users} - 1) END",
            ),
            ("-1", "a.kind = 'issuance'"),
        ):
            cursor.execute(
                "INSERT INTO economy_entry (transaction_id, account_id, amount) "
                f"SELECT t.id, a.id, {side} * CASE WHEN c.cur = 'coins' THEN 60 ELSE 40 END "
                "FROM economy_transaction t CROSS JOIN (VALUES ('coins'), ('xp')) AS c(cur) "
                "JOIN economy_account a ON a.currency = c.cur AND "
                + account.format(every=PLAYER_EVERY, users=users)
            )
        cursor.execute(
            """
            UPDATE economy_account a SET balance = coalesce(
                (SELECT sum(amount) FROM economy_entry e WHERE e.account_id = a.id), 0)
            WHERE a.user_id = 1
            """
        )
        step("ledger")
        # 52 closed league weeks; the player and 2,000 others in each.
        cursor.execute(
            """
            INSERT INTO leagues_leagueweek (starts_at, ends_at, status, closed_at, players,
                promoted, relegated, prizes_paid, division_players)
            SELECT w, w + interval '7 days', 'closed', w + interval '7 days', 2001, 0, 0, 0, '{}'
            FROM generate_series(%s::timestamptz - interval '52 weeks',
                                 %s::timestamptz - interval '1 week', interval '1 week') AS w
            """,
            [now, now],
        )
        cursor.execute(
            """
            INSERT INTO leagues_leaguestanding (week_id, user_id, division, rank, points, prize,
                movement)
            SELECT w.id, u, 1 + (w.id + u) % 4, 1 + (w.id * u) % 500, (w.id * u) % 300, 0, 0
            FROM leagues_leagueweek w CROSS JOIN generate_series(1, 2001) AS u
            """
        )
        step("league")
        for table in ("accounts_user", "games_table", "games_match"):
            cursor.execute(
                f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                f"(SELECT max(id) FROM {table}))"
            )
        cursor.execute("SET session_replication_role = origin")
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    print(f"built in {time.perf_counter() - started:.1f} s", flush=True)


def counts() -> tuple[int, int, int]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM accounts_user")
        users = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM games_match")
        matches = cursor.fetchone()[0]
        cursor.execute("SELECT count(*) FROM history_playermatch WHERE user_id = 1")
        return users, matches, cursor.fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=100_000)
    parser.add_argument("--matches", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=40)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args()

    call_command("migrate", verbosity=0)
    print("machine:", machine())
    if args.rebuild or counts()[:2] != (args.users, args.matches):
        build(args.users, args.matches)
    users, matches, own = counts()
    print(f"data: {users:,} users, {matches:,} matches; the bench player (u000001) has {own:,}")

    player = User.objects.get(pk=1)
    # An opponent of match 597 (friends; the player at seat 3, this one at seat 0).
    opponent = User.objects.get(pk=2 + (597 * 4 * 7919) % (users - 1))
    owner, visitor = Client(), Client()
    owner.force_login(player)
    pages = [
        ("player page, owner (with the wallet)", owner, "/u/u000001/record/"),
        ("player page, visitor", visitor, "/u/u000001/record/"),
        ("history, no filter, page 1", owner, "/history/"),
        ("history, online + won, page 3", owner, "/history/?mode=online&result=won&page=3"),
        (
            "history, classic rules + lost + dates, page 2",
            owner,
            "/history/?rules=classic&result=lost&since=2025-06-01&until=2026-06-30&page=2",
        ),
        # The bench player never loses (their seat's pair always wins): the case above
        # lists nothing; this one pages through the same filters with rows.
        (
            "history, classic rules + won + dates, page 2",
            owner,
            "/history/?rules=classic&result=won&since=2025-06-01&until=2026-06-30&page=2",
        ),
        (
            f"history, with one player ({opponent.username}) as opponent",
            owner,
            f"/history/?player={opponent.username}&role=opponent",
        ),
        ("baseline: home page, logged in", owner, "/"),
    ]
    for label, client, url in pages:
        timed_get(client, url, 3)  # warm up
        cpu: list[float] = []
        times = timed_get(client, url, args.repeat, cpu)
        count, db_ms = database_time(url, client)
        print(f"{label} — {url}")
        print(f"  server time ({args.repeat} requests): {summary(times)}")
        print(f"  Django process CPU: {summary(cpu)}")
        print(f"  PostgreSQL planning + execution for its {count} queries: {db_ms:.2f} ms")
    print("machine after:", machine())


if __name__ == "__main__":
    main()
