"""One user floods a web process while honest tables play on it: daphne + PostgreSQL + Redis.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cuatrola_flood_bench \\
    REDIS_URL=redis://127.0.0.1:6379/3 \\
    .venv/bin/python bench/flood_bench.py --tables 200 --seconds 60

Honest tables are played as bench/tables_bench.py plays them (friends tables of four
people, a legal move 2 s (±10 %) after each turn comes, each client doing per frame
what the table page's script does, its own client address behind one trusted proxy).
Meanwhile one user (`--flood-users` accounts, all from one client address) tries to
hold `--flood-sockets` sockets open on their own practice table: every socket the
limits accept stays, and sends `--flood-rate` messages a second, `sync` and malformed
ones in turn (the most the message budget lets through without closing the socket);
a socket refused or closed is tried again a second later (`--flood-retry`). By default one daphne
process serves everyone, so every honest table shares the flooder's process (the
worst case); the flood starts before the honest players connect.

The turn timers are production's (TURN_SECONDS_BID 20 s, TURN_SECONDS_CARD 30 s):
when measuring starts every honest turn is given 20 s from then, and this process
plays a timed-out move wherever a turn runs out, as the beat's sweep does. Printed:

- honest tables: moves, their latency (sending a move to the last of the table's four
  sockets holding its frame: p50, p99, max), errors by kind (refused or dropped
  sockets, error frames, moves whose frame never reached every seat), and the turns
  that ran out at honest tables while measuring (`timeouts`, to be 0);
- the flood: sockets held open at most at once, refusals by close code (4430 the
  user's limit, 4431 the address's; `handshake`: connection attempts over the
  address's rate, refused before accepting), closes of open sockets by code (4429:
  the message budget), messages sent, and the answers by kind (states, error codes).

`--flood-sockets 0` runs the same honest load without the flood (the baseline).
Figures: docs/operations.md, "Socket limits and the database threads".
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import json
import multiprocessing
import os
import platform
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import tables_bench  # sets the Django environment it needs

FLOOD_ADDRESS = "198.51.100.66"  # every flooding socket's client address
# In turn on every flooding socket: the whole state asked for again, then junk.
FLOOD_MESSAGES = [
    json.dumps({"type": "sync"}),
    "{not json",
    json.dumps({"type": "sync", "id": 7}),
    json.dumps([1, 2, 3]),
    json.dumps({"type": "sync"}),
    json.dumps({"type": "play", "action": 12, "version": "x"}),
    json.dumps({"type": "sync"}),
    json.dumps({"type": "dance"}),
]


def make_flooders(count: int, run: str) -> list[tuple[int, str]]:
    """`count` users, each with a practice table: (table id, session key)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    flooders = []
    for n in range(count):
        user = User.objects.create_user(
            username=f"f{run}u{n}", email=f"f{run}u{n}@bench.local", password=None
        )
        table = services.table_create_practice(user=user, rules="online", bot_level="easy")
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.create()
        flooders.append((table.pk, session.session_key))
    return flooders


async def flood(ports, flooders, sockets: int, rate: float, retry: float, stop, results) -> None:
    """The flooding user's sockets (one client process)."""
    import websockets

    counts: collections.Counter[str] = collections.Counter()
    open_now = [0, 0]  # now, most at once
    done = asyncio.Event()

    async def watch_stop() -> None:
        await asyncio.to_thread(stop.wait)  # the coordinator's multiprocessing event
        done.set()

    async def one(n: int) -> None:
        table_id, key = flooders[n % len(flooders)]
        port = ports[table_id % len(ports)]
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"
        headers = {
            "Cookie": f"sessionid={key}",
            "Origin": f"http://127.0.0.1:{port}",
            "X-Forwarded-For": FLOOD_ADDRESS,
        }
        while not done.is_set():
            counts["attempts"] += 1
            admitted = False
            try:
                async with websockets.connect(
                    url, additional_headers=headers, max_size=2**22, open_timeout=60
                ) as ws:
                    first = json.loads(await ws.recv())
                    admitted = True
                    counts[f"answer:{first.get('type')}"] += 1
                    open_now[0] += 1
                    open_now[1] = max(open_now[1], open_now[0])
                    try:
                        await _flood_one(ws, rate, counts, done)
                    finally:
                        open_now[0] -= 1
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else 1006
                counts[f"{'closed' if admitted else 'refused'}:{code}"] += 1
            except websockets.InvalidStatus:
                counts["refused:handshake"] += 1  # HTTP 403 before accepting
            except (OSError, TimeoutError, websockets.InvalidHandshake) as error:
                counts[f"failed:{type(error).__name__}"] += 1
            if not done.is_set():
                with contextlib.suppress(TimeoutError):  # tried again `retry` s later
                    await asyncio.wait_for(done.wait(), retry)

    watcher = asyncio.ensure_future(watch_stop())
    began = time.process_time()
    await asyncio.gather(*(one(n) for n in range(sockets)))
    watcher.cancel()
    counts["most_open_at_once"] = open_now[1]
    counts["cpu_ms"] = int((time.process_time() - began) * 1000)
    results.put(dict(counts))


async def _flood_one(ws, rate: float, counts, done: asyncio.Event) -> None:
    async def read() -> None:
        async for raw in ws:
            frame = json.loads(raw)
            kind = frame.get("type")
            counts[f"answer:{kind}:{frame['code']}" if kind == "error" else f"answer:{kind}"] += 1

    reader = asyncio.ensure_future(read())
    try:
        n = 0
        while not done.is_set() and not reader.done():
            await ws.send(FLOOD_MESSAGES[n % len(FLOOD_MESSAGES)])
            counts["sent"] += 1
            n += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 1 / rate)
        if reader.done():
            reader.result()  # the server closed it: raises ConnectionClosed
    finally:
        reader.cancel()


def flood_process(ports, flooders, sockets, rate, retry, stop, results) -> None:
    asyncio.run(flood(ports, flooders, sockets, rate, retry, stop, results))


class Sweeper:
    """Plays a timed-out move wherever an honest table's turn has run out (the beat's
    sweep, for the honest tables only), from when measuring starts."""

    def __init__(self, table_ids: list[int]) -> None:
        self.table_ids = table_ids
        self.stop = threading.Event()
        self.timeouts = 0
        self.thread = threading.Thread(target=self.run, daemon=True)

    def start(self):
        from datetime import timedelta

        from django.conf import settings
        from django.utils import timezone

        from games.models import Match, MatchStatus

        Match.objects.filter(table_id__in=self.table_ids, status=MatchStatus.PLAYING).update(
            turn_deadline=timezone.now() + timedelta(seconds=settings.TURN_SECONDS_BID)
        )
        self.thread.start()
        return self.finish

    def run(self) -> None:
        from django.db import connection
        from django.utils import timezone

        from games import services
        from games.models import Match, MatchStatus

        try:
            while not self.stop.wait(2.0):
                due = Match.objects.filter(
                    table_id__in=self.table_ids,
                    status=MatchStatus.PLAYING,
                    turn_deadline__lte=timezone.now(),
                ).values_list("pk", "version")
                for match_id, version in list(due):
                    if services.match_timeout(match_id=match_id, version=version):
                        self.timeouts += 1
        finally:
            connection.close()

    def finish(self) -> None:
        self.stop.set()
        self.thread.join(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200, help="honest tables")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--processes", type=int, default=1, help="daphne processes")
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--connect-rate", type=float, default=100.0, help="sockets a second")
    parser.add_argument(
        "--flood-sockets", type=int, default=200, help="sockets the flood tries to hold"
    )
    parser.add_argument("--flood-users", type=int, default=1, help="accounts the flood uses")
    parser.add_argument(
        "--flood-rate", type=float, default=5.0, help="messages a second on each flood socket"
    )
    parser.add_argument(
        "--flood-retry",
        type=float,
        default=1.0,
        help="seconds before a refused or closed flood socket is tried again",
    )
    args = parser.parse_args()
    args.routing = "table"
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL, a scratch database) and REDIS_URL")
    tables_bench.setup_django()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "TRUSTED_PROXY_COUNT": "1",  # each honest player's own address (tables_bench)
        "BOT_RUNNER": "off",  # the flooder's practice bots stay still
        "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE", "600"),
        "WEB_DB_THREADS": os.environ.get("WEB_DB_THREADS", str(settings.WEB_DB_THREADS)),
    }
    for name in ("TURN_SECONDS_CARD", "TURN_SECONDS_BID"):
        env.pop(name, None)  # production's turn timers
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: {platform.platform()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
        f"{os.getloadavg()[0]:.2f}; {args.processes} daphne process(es), "
        f"WEB_DB_THREADS={env['WEB_DB_THREADS']}, PostgreSQL, channels-redis pub/sub; "
        f"{args.tables} honest tables at {args.think:g} s think, {args.seconds:g} s measured; "
        f"flood: {args.flood_users} user(s) from one address trying {args.flood_sockets} "
        f"sockets at {args.flood_rate:g} messages/s each",
        flush=True,
    )
    run = f"{int(time.time())}"[-7:]
    tables = tables_bench.make_tables(args.tables, run=f"fl{run}")
    flooders = make_flooders(max(1, args.flood_users), run) if args.flood_sockets else []
    tables_bench.vacuum()
    socks = [tables_bench.listening_socket() for _ in range(args.processes)]
    ports = [sock.getsockname()[1] for sock in socks]
    servers = tables_bench.start_servers(socks, args.processes, env)
    context = multiprocessing.get_context("fork")
    stop, results = context.Event(), context.Queue()
    flooding = None
    if flooders:
        flooding = context.Process(
            target=flood_process,
            args=(
                ports,
                flooders,
                args.flood_sockets,
                args.flood_rate,
                args.flood_retry,
                stop,
                results,
            ),
        )
        flooding.start()
    sweeper = Sweeper([table_id for table_id, _ in tables])
    try:
        stats, peak, cpu, _services, _machine = tables_bench.drive(
            ports, tables, [], args.think, args, servers, on_measure=sweeper.start
        )
    finally:
        stop.set()
        flood_counts = results.get(timeout=60) if flooding is not None else {}
        if flooding is not None:
            flooding.join(10)
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        for sock in socks:
            sock.close()
    lat = [x * 1000 for x in stats.latencies]
    kinds = ", ".join(f"{k}={v}" for k, v in sorted(stats.error_kinds.items())) or "-"
    per_move = sum(cpu) / stats.moves * 1000 if stats.moves else float("nan")
    print(
        f"honest: tables={args.tables} sockets={args.tables * 4} "
        f"connected_in={stats.connect_seconds:.1f}s moves={stats.moves} "
        f"rate={stats.moves / stats.elapsed if stats.elapsed else 0:.1f}/s "
        f"p50={statistics.median(lat) if lat else float('nan'):.1f}ms "
        f"p99={tables_bench.percentile(lat, 0.99):.1f}ms "
        f"max={max(lat) if lat else float('nan'):.1f}ms errors={stats.errors} ({kinds}) "
        f"timeouts={sweeper.timeouts} server_cpu={per_move:.1f}ms/move "
        f"server_rss_peak={peak:.0f}MB",
        flush=True,
    )
    if flood_counts:

        def part(prefix: str) -> dict[str, int]:
            return {
                k.removeprefix(prefix): v
                for k, v in sorted(flood_counts.items())
                if k.startswith(prefix)
            }

        print(
            f"flood: attempts={flood_counts.get('attempts', 0)} "
            f"most_open_at_once={flood_counts.get('most_open_at_once', 0)} "
            f"refused={part('refused:') or '-'} closed_after_open={part('closed:') or '-'} "
            f"failed={part('failed:') or '-'} sent={flood_counts.get('sent', 0)} "
            f"answers={part('answer:')} "
            f"flood_client_cpu={flood_counts.get('cpu_ms', 0) / 1000:.1f}s (on this machine's "
            f"CPUs too, as the honest clients)",
            flush=True,
        )


if __name__ == "__main__":
    main()
