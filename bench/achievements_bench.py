"""Achievements benchmark (issue 46): what achievements add to a settlement. Not a test.

The achievements are read after the settlement commits, in a Celery task
(docs/achievements.md), so two figures are measured apart:

- the settlement path: a match settled (games' `match_finished` sent in one
  transaction, history recording its players, then the commit), with the
  achievements' receiver connected and without it, interleaved, `--matches` of each.
  With it, the receiver inserts the match into the outbox (`PendingMatch`), inside
  the settlement's transaction;
- the reading, after the commit (the beat's `achievements.read_pending`): each
  waiting match read in its own transaction, for four players whose history grows
  to 2 × `--matches` matches (all of them, and the last 20: the cost at the longest
  history); then a redelivery of each (grants nothing).

Own database (cuatrola_achievements_bench; BENCH_DATABASE_URL to override).

    nice -n 19 .venv/bin/python bench/achievements_bench.py --matches 200

Target (issue 46): the settlement costs under 1 ms more with achievements (p95).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import UTC, datetime, timedelta

from _setup import machine, setup_django

DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/cuatrola_achievements_bench"


def _ensure_database() -> None:
    import psycopg

    url = os.environ.get("BENCH_DATABASE_URL", DEFAULT_URL)
    name = url.rsplit("/", 1)[1]
    with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            conn.execute(f'CREATE DATABASE "{name}"')


_ensure_database()
setup_django(DEFAULT_URL)

from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402

from accounts.models import User  # noqa: E402
from achievements.models import Award, PendingMatch, ProcessedMatch  # noqa: E402

try:  # the incremental reading's progress (absent before it existed)
    from achievements.models import Progress
except ImportError:
    Progress = None
from achievements.receivers import on_match_finished  # noqa: E402
from achievements.services import (  # noqa: E402
    achievements_for_match,
    achievements_read_pending,
)
from games.models import Match, MatchSeat, MatchStatus, Mode, Table, TableStatus  # noqa: E402
from games.signals import match_finished  # noqa: E402
from history.models import PlayerMatch  # noqa: E402

START = datetime(2026, 11, 2, 12, tzinfo=UTC)


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[max(0, int(len(ordered) * 0.95) - 1)]


def line(label: str, times: list[float]) -> str:
    return (
        f"{label}: median {statistics.median(times):.3f} ms, p95 {p95(times):.3f} ms, "
        f"max {max(times):.3f} ms ({len(times)} runs)"
    )


def build(players: list[User], index: int) -> tuple[Match, Table, list[MatchSeat]]:
    table = Table.objects.create(mode=Mode.ONLINE, owner=players[0], status=TableStatus.FINISHED)
    winner = random.Random(index).randrange(2)
    match = Match.objects.create(
        table=table,
        rules="online",
        seed=index,
        first_dealer=0,
        status=MatchStatus.FINISHED,
        score_a=21 if winner == 0 else 9,
        score_b=9 if winner == 0 else 21,
        winner=winner,
        finished_at=START + timedelta(minutes=index),
    )
    seats = MatchSeat.objects.bulk_create(
        MatchSeat(match=match, position=p, user=u, won=p % 2 == winner, place=p + 1)
        for p, u in enumerate(players)
    )
    return match, table, seats


def settle(match: Match, table: Table, seats: list[MatchSeat]) -> float:
    started = time.perf_counter()
    with transaction.atomic():
        match_finished.send(sender=Match, match=match, table=table, match_seats=seats, engine=None)
    return (time.perf_counter() - started) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    if args.matches < 1:
        parser.error("--matches must be at least 1")

    call_command("migrate", "--noinput", verbosity=0)
    Award.objects.all().delete()
    ProcessedMatch.objects.all().delete()
    PendingMatch.objects.all().delete()
    if Progress is not None:
        Progress.objects.all().delete()
    PlayerMatch.objects.filter(user__username__startswith="ach").delete()
    players = []
    for i in range(4):
        user, _ = User.objects.get_or_create(
            username=f"ach{i}", defaults={"email": f"ach{i}@bench.invalid"}
        )
        players.append(user)
    print(machine())

    uid = "achievements-match-finished"
    receiver_times: list[float] = []

    def timed_receiver(sender, **kwargs):
        started = time.perf_counter()
        on_match_finished(sender, **kwargs)
        receiver_times.append((time.perf_counter() - started) * 1000)

    with_times, without_times, settled = [], [], []
    match_finished.disconnect(dispatch_uid=uid)
    for index in range(2 * args.matches):
        built = build(players, index + 1_000_000 * random.randrange(1, 1000))
        with_achievements = index % 2 == 0
        if with_achievements:
            match_finished.connect(timed_receiver, dispatch_uid=uid)
            with_times.append(settle(*built))
            settled.append(built[0].pk)
            match_finished.disconnect(dispatch_uid=uid)
        else:
            without_times.append(settle(*built))
    match_finished.connect(on_match_finished, dispatch_uid=uid)

    print(line("settlement without achievements", without_times))
    print(line("settlement with achievements   ", with_times))
    extra_p95 = p95(with_times) - p95(without_times)
    extra_median = statistics.median(with_times) - statistics.median(without_times)
    print(line("the achievements' receiver alone (its INSERT)", receiver_times))
    print(f"added: p95 {extra_p95:+.3f} ms, median {extra_median:+.3f} ms")

    task_times = []
    for _match_id in settled:
        started = time.perf_counter()
        assert achievements_read_pending(limit=1) == 1
        task_times.append((time.perf_counter() - started) * 1000)
    print(line("reading one waiting match (after commit, 4 players)", task_times))
    tail = task_times[-20:]
    print(
        line(
            f"  the last {len(tail)} (each player's history at about {2 * len(settled)} matches)",
            tail,
        )
    )
    again = []
    for match_id in settled[:50]:
        started = time.perf_counter()
        achievements_for_match(match_id=match_id)
        again.append((time.perf_counter() - started) * 1000)
    print(line("task redelivered (grants nothing)", again))
    print(f"awards held by the four players: {Award.objects.count()}")


if __name__ == "__main__":
    main()
