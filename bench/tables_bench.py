"""Real-time tables under load: daphne + PostgreSQL + Redis, four websocket clients a table.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cuatrola_bench \
    REDIS_URL=redis://127.0.0.1:6379/3 \
    nice -n 19 .venv/bin/python bench/tables_bench.py --tables 50 200 500 --seconds 30

For each table count it starts one daphne process, opens N friends tables with
four people each (no bots, so only the server's own cost is measured), lets
every client play a legal move 2 s (--think) after its turn comes, and reports
p50/p99 latency from sending a move to receiving its broadcast, errors and the
server's resident memory. Then, with no think time, the highest move rate it
sustains (--rate-tables tables). The database named in DATABASE_URL is
migrated and filled by the script: give it a scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("DEBUG", "1")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)


def setup_django():
    import django

    django.setup()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def make_tables(count: int, run: str) -> list[tuple[int, list[str]]]:
    """Creates `count` started friends tables of four users; returns (table id, session keys)."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from games import services

    tables = []
    for t in range(count):
        users = [
            User.objects.create_user(
                username=f"b{run}t{t}s{s}", email=f"b{run}t{t}s{s}@bench.local", password=None
            )
            for s in range(4)
        ]
        table = services.table_create_friends(user=users[0])
        for user in users[1:]:
            invitation = services.invitation_create(
                user=users[0], table_id=table.pk, username=user.username
            )
            services.invitation_accept(user=user, invitation_id=invitation.pk)
        services.match_start(user=users[0], table_id=table.pk, seed=t)
        keys = []
        for user in users:
            session = SessionStore()
            session[SESSION_KEY] = str(user.pk)
            session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
            session[HASH_SESSION_KEY] = user.get_session_auth_hash()
            session.create()
            keys.append(session.session_key)
        tables.append((table.pk, keys))
    return tables


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.moves = 0
        self.measuring = False

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


async def client(
    url: str, port: int, session_key: str, think: float, stats: Stats, stop: asyncio.Event
) -> None:
    import websockets

    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    try:
        async with websockets.connect(
            url, additional_headers=headers, max_size=2**22, open_timeout=60
        ) as ws:
            sent_at: dict[int, float] = {}
            played: set[int] = set()
            pending: asyncio.Task | None = None

            async def play(action: str, version: int) -> None:
                if think:
                    await asyncio.sleep(think * random.uniform(0.9, 1.1))
                sent_at[version] = time.perf_counter()
                await ws.send(json.dumps({"type": "play", "action": action, "version": version}))

            while not stop.is_set():
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                frame = json.loads(raw)
                kind = frame.get("type")
                if kind == "error":
                    if frame.get("code") != "stale_version":
                        stats.error(frame.get("code", "error"))
                    continue
                if kind not in ("state", "update"):
                    continue
                version = frame["version"]
                if version - 1 in sent_at and kind == "update":
                    started = sent_at.pop(version - 1)
                    if stats.measuring:
                        stats.latencies.append(time.perf_counter() - started)
                        stats.moves += 1
                view = frame.get("view") or {}
                if view.get("phase") == "over" or frame["table"]["status"] != "playing":
                    return
                legal = (view.get("hand") or {}).get("legal_actions") or []
                if legal and version not in played:
                    played.add(version)
                    pending = asyncio.ensure_future(play(random.choice(legal), version))
            if pending:
                pending.cancel()
    except Exception as error:  # a refused or dropped connection counts as an error
        if not stop.is_set():
            stats.error(type(error).__name__)


def start_server(port: int, env: dict[str, str]) -> subprocess.Popen:
    server = subprocess.Popen(
        [
            str(ROOT / ".venv/bin/daphne"),
            "-b",
            "127.0.0.1",
            "-p",
            str(port),
            "cuatrola_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: os.nice(10),
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise RuntimeError("daphne did not start")


async def drive(
    port: int, tables, think: float, warmup: float, seconds: float, server_pid: int
) -> tuple[Stats, float]:
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    for table_id, keys in tables:
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"
        for key in keys:
            tasks.append(asyncio.ensure_future(client(url, port, key, think, stats, stop)))
        await asyncio.sleep(0.005)  # do not open thousands of sockets in one burst
    await asyncio.sleep(warmup)
    stats.measuring = True
    began = time.perf_counter()
    peak = 0.0
    while time.perf_counter() - began < seconds:
        await asyncio.sleep(1)
        peak = max(peak, rss_mb(server_pid))
    elapsed = time.perf_counter() - began
    stats.measuring = False
    stop.set()
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    stats.elapsed = elapsed
    return stats, peak


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def run_round(label: str, count: int, think: float, args, env) -> None:
    tables = make_tables(count, run=f"{label}{int(time.time())}"[-9:])
    port = free_port()
    server = start_server(port, env)
    try:
        stats, peak = asyncio.run(drive(port, tables, think, args.warmup, args.seconds, server.pid))
    finally:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
    lat = [x * 1000 for x in stats.latencies]
    rate = stats.moves / stats.elapsed
    kinds = ", ".join(f"{k}={v}" for k, v in sorted(stats.error_kinds.items())) or "-"
    print(
        f"{label:>10} tables={count:4d} think={think:.1f}s moves={stats.moves:6d} "
        f"rate={rate:7.1f}/s p50={statistics.median(lat) if lat else float('nan'):7.1f}ms "
        f"p99={percentile(lat, 0.99):7.1f}ms max={max(lat) if lat else float('nan'):7.1f}ms "
        f"errors={stats.errors} ({kinds}) server_rss_peak={peak:.0f}MB",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=[50, 200, 500])
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=8.0)
    parser.add_argument("--rate-tables", type=int, default=100)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL, a scratch database) and REDIS_URL")
    setup_django()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    env = {
        **os.environ,
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "TURN_SECONDS_CARD": "3600",
        "TURN_SECONDS_BID": "3600",
        "LOG_LEVEL": "WARNING",
        "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE", "60"),
    }
    print(
        f"machine: {platform.platform()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}; one daphne process (DATABASE_CONN_MAX_AGE="
        f"{env['DATABASE_CONN_MAX_AGE']}), PostgreSQL, channels-redis; the clients run in "
        "this process on the same machine",
        flush=True,
    )
    for count in args.tables:
        run_round("think", count, args.think, args, env)
    run_round("no-think", args.rate_tables, 0.0, args, env)


if __name__ == "__main__":
    main()
