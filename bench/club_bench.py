"""Club page benchmark (issue 44): a club of 1,000 members, among 3,000 players and
50 other clubs, with 500 club matches and 20 announcements.

PostgreSQL only. Uses its own database (default cuatrola_club_bench, created when
missing; override with BENCH_DATABASE_URL); built again on every run (a few seconds).

    nice -n 19 timeout 900 .venv/bin/python bench/club_bench.py [--repeat 200]

What a browser does is what is timed: a GET of the whole club page through Django
(session, middleware, template) as its owner (who also gets the admin's forms and
the count of requests) and as a visitor, its last page of members, and the owner's
management page. Target (issue 44): the club page under 50 ms at p95. Without
Redis (as every bench here) the members' online status is this process's own count
of sockets; with Redis it is one pipeline of 50 ZCOUNTs a page.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from datetime import UTC, datetime, timedelta

from _setup import database_time, machine, setup_django, summary, timed_get

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cuatrola_club_bench"


def _create_database() -> None:
    """Creates the bench's database when it does not exist (on the same server)."""
    import psycopg

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    base, _, name = url.rpartition("/")
    with psycopg.connect(base + "/postgres", autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        if found.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


_create_database()
setup_django(DEFAULT_URL)

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402

from accounts.models import User  # noqa: E402
from clubs.models import Announcement, Club, ClubMatch, Membership, Role  # noqa: E402
from games.models import Match, MatchSeat, MatchStatus, Mode, Table, TableStatus  # noqa: E402
from ratings.models import Rating  # noqa: E402

NOW = datetime(2026, 12, 6, 12, 0, tzinfo=UTC)
MEMBERS = 1000
PLAYERS = 3000
OTHER_CLUBS = 50
MATCHES = 500


def build() -> tuple[Club, User]:
    started = time.perf_counter()
    call_command("migrate", verbosity=0)
    call_command("flush", "--noinput", verbosity=0)
    users = User.objects.bulk_create(
        [
            User(username=f"p{i:05d}", username_key=f"p{i:05d}", email=f"p{i}@bench.invalid")
            for i in range(PLAYERS)
        ]
    )
    Rating.objects.bulk_create(
        [
            Rating(user=u, value=1200 + (i * 7919) % 800, matches=5 + i % 40, last_rated_at=NOW)
            for i, u in enumerate(users)
            if i % 10 < 7
        ]
    )
    clubs = Club.objects.bulk_create(
        [
            Club(
                name=f"Club {i}",
                name_key=f"club{i}",
                language="es",
                created_by=users[i],
                members_count=MEMBERS if i == 0 else 20,
            )
            for i in range(OTHER_CLUBS + 1)
        ]
    )
    club, owner = clubs[0], users[0]
    members = users[:MEMBERS]
    rows = [
        Membership(
            club=club, user=u, role=Role.OWNER if i == 0 else (Role.ADMIN if i < 5 else Role.MEMBER)
        )
        for i, u in enumerate(members)
    ]
    for index, other in enumerate(clubs[1:]):
        rows += [
            Membership(
                club=other,
                user=users[(index * 37 + k) % PLAYERS],
                role=Role.OWNER if k == 0 else Role.MEMBER,
            )
            for k in range(20)
        ]
    Membership.objects.bulk_create(rows, ignore_conflicts=True)
    tables = Table.objects.bulk_create(
        [Table(mode=Mode.ONLINE, owner=owner, status=TableStatus.FINISHED) for _ in range(MATCHES)]
    )
    matches = Match.objects.bulk_create(
        [
            Match(
                table=t,
                rules="online",
                seed=i,
                first_dealer=0,
                status=MatchStatus.FINISHED,
                score_a=21,
                score_b=i % 21,
                winner=0,
                finished_at=NOW - timedelta(minutes=i),
            )
            for i, t in enumerate(tables)
        ]
    )
    MatchSeat.objects.bulk_create(
        [
            MatchSeat(
                match=m,
                position=p,
                user=members[(i * 4 + p) % MEMBERS] if p < 3 else None,
                is_bot=p == 3,
            )
            for i, m in enumerate(matches)
            for p in range(4)
        ]
    )
    ClubMatch.objects.bulk_create(
        [ClubMatch(club=club, match=m, finished_at=m.finished_at) for m in matches]
    )
    Announcement.objects.bulk_create(
        [
            Announcement(club=club, author=owner, text=f"Aviso {i}: martes a las 21 h.")
            for i in range(20)
        ]
    )
    with connection.cursor() as cursor:  # fresh statistics, no dead rows of the last run
        cursor.execute("VACUUM ANALYZE")
    print(
        f"built: {PLAYERS:,} players, {MEMBERS:,} members, {OTHER_CLUBS} other clubs, "
        f"{MATCHES} club matches ({time.perf_counter() - started:.1f} s)",
        flush=True,
    )
    return club, owner


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=200)
    args = parser.parse_args()
    club, owner = build()
    print(machine())
    as_owner, as_visitor = Client(), Client()
    as_owner.force_login(owner)
    pages = [
        ("club page, owner", as_owner, f"/clubs/{club.pk}/"),
        ("club page, visitor", as_visitor, f"/clubs/{club.pk}/"),
        ("club page, last page of members", as_visitor, f"/clubs/{club.pk}/?page=20"),
        ("management page, owner", as_owner, f"/clubs/{club.pk}/manage/"),
        ("clubs list", as_visitor, "/clubs/"),
    ]
    for label, client, url in pages:
        timed_get(client, url, 5)  # warm
        cpu: list[float] = []
        times = timed_get(client, url, args.repeat, cpu)
        queries, database_ms = database_time(url, client)
        print(
            f"{label}: {summary(times)} · this process's CPU median "
            f"{statistics.median(cpu):.1f} ms · {queries} queries, PostgreSQL {database_ms:.1f} ms"
        )


if __name__ == "__main__":
    main()
