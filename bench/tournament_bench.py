"""Tournament benchmark: a Swiss for pairs through the real services (docs/tournaments.md,
issue 43).

PostgreSQL only. Uses its own database (default cuatrola_tournament_bench; override with
BENCH_DATABASE_URL), migrated and emptied of tournaments at the start. Players register
as fixed pairs of friends with an entry fee; the tick closes registration and starts
round one; every game is finished through games' end of a match (places, online's
settlement: coins, XP, league points, ratings; the result into the tournament); the tick
at a round's end finishes it and pairs the next (its players told their tables), the
tick after the pause seats and deals it, and the last pays the prizes.
Prints:

- registering every pair (fees into the escrow);
- pairing one round of the teams (`formats.swiss.swiss_pair`, after round one's results);
- starting a round (pairings written, every table created, seated and dealt);
- settling a round's games; the standings page during a round (wall time, p95);
- the finish (standings, prizes) and whether `audit_ledger` is clean.

    nice -n 19 timeout 3600 .venv/bin/python bench/tournament_bench.py --players 1024 --rounds 5

Targets (issue 43): pairing a round of 512 teams < 1 s; starting a round of 256 tables
< 10 s; the standings page p95 < 50 ms during a round; `audit_ledger` clean.
"""

from __future__ import annotations

import argparse
import random
import time
from datetime import timedelta

from _setup import machine, setup_django, summary, timed_get

setup_django("postgres://postgres@127.0.0.1:5432/cuatrola_tournament_bench")

from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import transaction  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import NoReverseMatch, reverse  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from economy.selectors import ledger_audit  # noqa: E402
from games import services as games  # noqa: E402
from games.services.play import _finish  # noqa: E402
from social.models import Friendship  # noqa: E402
from tournaments import tasks as tournament_tasks  # noqa: E402
from tournaments.models import Entry, Game, Tournament, TournamentState  # noqa: E402
from tournaments.services import tournament_create, tournament_register, tournaments_tick  # noqa: E402
from tournaments.services.common import live_entries  # noqa: E402
from tournaments.services.rounds import _swiss_ties  # noqa: E402


class _Ended:
    """The end of a match as games' `_finish` reads it, with a chosen winner."""

    hands = ()

    def __init__(self, winner: int) -> None:
        self.winner = winner

    def personal_points(self):
        return (30, 20, 10, 5)

    def tricks_won(self):
        return (3, 2, 3, 2)


def players_make(count: int) -> list[User]:
    """`count` players (each gets the sign-up bonus) in friend pairs, made once."""
    users = []
    for i in range(count):
        user = User.objects.filter(username=f"tb{i:05d}").first()
        if user is None:
            user = User(username=f"tb{i:05d}", email=f"tb{i:05d}@example.com")
            user.set_unusable_password()
            user.save()
        users.append(user)
    for a, b in zip(users[::2], users[1::2], strict=True):
        low, high = sorted([a, b], key=lambda u: u.pk)
        Friendship.objects.get_or_create(user_low=low, user_high=high)
    return users


def game_finish(table_id: int, rng: random.Random) -> None:
    with transaction.atomic():
        table = games.table_lock(table_id=table_id)
        match = games.match_lock(table=table)
        if match is None:
            return
        seats = games.seats_lock(table=table)
        winner = rng.randrange(2)
        loser_points = rng.randrange(0, 21)
        match.score_a, match.score_b = (21, loser_points) if winner == 0 else (loser_points, 21)
        _finish(table, match, seats, _Ended(winner))
        match.save()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=1024)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--fee", type=int, default=100)
    parser.add_argument("--page-requests", type=int, default=40)
    args = parser.parse_args()
    settings.BOT_RUNNER = "off"  # the bench finishes the games itself
    # A round's last result queues `tournaments.advance` (run at once here: no Redis) at
    # the real time, not the bench's clock: the bench's own tick at the round's end does
    # that work instead, on its clock (the same service, the same lock).
    tournament_tasks.advance.delay = lambda tournament_id: None
    call_command("migrate", verbosity=0)
    print(machine())
    rng = random.Random(43)
    users = players_make(args.players)
    now = timezone.now()
    tournament = tournament_create(
        name="Bench Swiss",
        format="swiss",
        rounds=args.rounds,
        entry_fee=args.fee,
        min_entries=2,
        max_entries=args.players,
        pause_minutes=1,
        state=TournamentState.REGISTRATION_OPEN,
        registration_opens_at=now - timedelta(minutes=1),
        registration_closes_at=now + timedelta(minutes=1),
        starts_at=now + timedelta(minutes=2),
    )
    started = time.perf_counter()
    for a, b in zip(users[::2], users[1::2], strict=True):
        tournament_register(tournament_id=tournament.pk, user=a, partner=b, now=now)
    teams = args.players // 2
    print(f"registering {teams} pairs: {time.perf_counter() - started:.1f} s")

    clock = tournament.starts_at
    client = Client()
    client.force_login(users[0])
    try:
        page = reverse("tournaments:detail", args=[tournament.pk])
    except NoReverseMatch:
        page = None
    for number in range(1, args.rounds + 1):
        if number == 2:
            entries = live_entries(tournament)
            started = time.perf_counter()
            _swiss_ties(tournament, entries)
            print(f"pairing a round of {len(entries)} teams: {time.perf_counter() - started:.2f} s")
        started = time.perf_counter()
        done = tournaments_tick(now=clock)
        tables = Game.objects.filter(
            pairing__round__tournament=tournament, pairing__round__number=number
        ).count()
        print(
            f"round {number}: started (seated and dealt) {tables} tables in"
            f" {time.perf_counter() - started:.1f} s ({done.get(tournament.pk)})"
        )
        if page is not None:
            times = timed_get(client, page, args.page_requests)
            print(f"  standings page during the round: {summary(times)}")
        started = time.perf_counter()
        in_play = Game.objects.filter(
            pairing__tournament=tournament, recorded_at__isnull=True
        ).values_list("table_id", flat=True)
        for table_id in list(in_play):
            game_finish(table_id, rng)
        print(f"  settled its games in {time.perf_counter() - started:.1f} s")
        clock += timedelta(seconds=5)
        started = time.perf_counter()
        done = tournaments_tick(now=clock)
        print(
            f"  round over (the next one paired): {time.perf_counter() - started:.2f} s"
            f" ({done.get(tournament.pk)})"
        )
        clock += timedelta(minutes=tournament.pause_minutes)
    tournament = Tournament.objects.get(pk=tournament.pk)
    paid = sum(Entry.objects.filter(tournament=tournament).values_list("prize_coins", flat=True))
    print(f"state {tournament.state}; prizes paid {paid} coins of {args.fee * args.players}")
    report = ledger_audit()
    print("audit_ledger:", "clean" if not report.violations else report.violations[:5])
    if page is not None:
        print(
            f"standings page after the end: {summary(timed_get(client, page, args.page_requests))}"
        )


if __name__ == "__main__":
    main()
