"""CPU of the server's move path, in one process: profile it and time its parts.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/<scratch db> \\
    REDIS_URL=redis://127.0.0.1:6379/<n> \\
    .venv/bin/python bench/move_profile.py --moves 2000 [--profile 30]

Plays `--moves` moves through `games.services.match_play` (friends tables of four
people, no bots, random legal moves; a finished match is replaced) with the
channel layer of the settings (channels-redis when REDIS_URL is set), and prints
the process CPU per move, then the same for the frames alone
(`games.frames.live.table_frames`: every seat's view and the spectators', JSON
encoded), and with `--profile N` the N functions with the most CPU (cProfile,
timer = process CPU time, so waits on PostgreSQL and Redis do not count).
What the websocket side costs (daphne, the consumers) is not in it:
bench/tables_bench.py measures the whole server.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import platform
import pstats
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions")
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        sys.exit("set DATABASE_URL (PostgreSQL, a scratch database)")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from accounts.models import User
    from games import selectors, services
    from games.frames import live
    from games.models import Match, MatchStatus
    from games.state import engine_match

    run = str(int(time.time()))[-6:]
    made = 0

    def new_table():
        nonlocal made
        made += 1
        users = [
            User.objects.create_user(
                username=f"p{run}t{made}s{s}", email=f"p{run}t{made}s{s}@bench.local"
            )
            for s in range(4)
        ]
        table = services.table_create_friends(user=users[0])
        for user in users[1:]:
            invitation = services.invitation_create(
                user=users[0], table_id=table.pk, username=user.username
            )
            services.invitation_accept(user=user, invitation_id=invitation.pk)
        services.match_start(user=users[0], table_id=table.pk, seed=made)
        return table, users

    rng = random.Random(1)
    table, users = new_table()
    match = Match.objects.get(table=table)
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    spent = 0.0

    def one_move(measure: bool) -> None:
        """One move through the service; only the service call is timed and profiled."""
        nonlocal table, users, match, spent
        if match.status != MatchStatus.PLAYING:
            table, users = new_table()
            match = Match.objects.get(table=table)
        engine = engine_match(match)  # the per-process cache: no query
        user, action = users[engine.to_play], rng.choice(engine.legal_actions())
        began = time.process_time()
        if measure and profiler:
            profiler.enable()
        match = services.match_play(
            user=user, table_id=table.pk, action=action, version=match.version
        )
        if measure and profiler:
            profiler.disable()
        if measure:
            spent += time.process_time() - began

    for _ in range(50):  # warm-up
        one_move(False)
    for _ in range(args.moves):
        one_move(True)
    per_move = spent / args.moves * 1000
    # The frames alone, for the table as it stands.
    seats = selectors.table_seats(table)
    match = Match.objects.get(table=table)
    engine = engine_match(match)
    began = time.process_time()
    for _ in range(args.moves):
        live.table_frames(table=table, seats=seats, match=match, engine=engine, events=[])
    frames = (time.process_time() - began) / args.moves * 1000
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.platform()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
        f"{os.getloadavg()[0]:.2f}\\n"
        f"services.match_play, frames and channel-layer send included: "
        f"{per_move:.2f} ms CPU a move over {args.moves} moves; "
        f"frames alone (5 views + JSON): {frames:.3f} ms",
        flush=True,
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
