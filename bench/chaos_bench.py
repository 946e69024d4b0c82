"""Chaos: processes killed and restarted under live tables; nobody may lose a move,
a match or a coin (issue 42).

    .venv/bin/python bench/chaos_bench.py                 # 200 tables, 2 s think
    .venv/bin/python bench/chaos_bench.py --short         # CI: 20 tables, one of each fault

It runs its own stack, so that it can kill any part of it without touching the
machine's shared services: a private PostgreSQL cluster (initdb into a temporary
directory, on a free port), a private redis-server (append-only file, as in
docker-compose.yml), the database migrated and seeded, two uvicorn processes behind
the shipped front door (deploy/caddy/Caddyfile, lb_policy uri_hash, plain HTTP on a
free port), two Celery workers (queues celery and bots) and Celery beat, started as
docker-compose.yml starts them. Every process is in its own process group; all of
them and the temporary directory go when the bench ends, fails or is interrupted.

Clients behave as the table page's script does (static/js/table.js): one socket a
human seat through the front door, each from its own client address (127.x.y.z,
which Caddy writes to X-Forwarded-For); a frame with a lower `seq` is dropped, a gap
sends `sync`, 10 s of silence in a live match sends `sync` and 10 s more closes the
socket; a closed socket reconnects with the page's back-off (0.5 s doubling to 10 s),
at once after 4500 (a web process restarting), after a second or two after 4503
(the database did not answer), never after 4401/4403/4404; a `retry` frame sends
the same message again after the delay it names (a play only if no newer state
came). Each client plays a legal action from its own seat's frame `--think` seconds
(±10 %) after its turn comes. Unlike the page it gives its `play` an `id`, so that
the server's `ack` tells the bench that a move was accepted. A move sent on a socket
that closes before its answer is played again from the state of the next socket, as
a person would.

Tables (`--tables`, kept in play: a table whose match ends is replaced by a new one of
its kind until the last fault's window is over): two in five practice (one person,
three bots), two in five online (two people from the queue, two bots), one in five
stake tables (four people, 100 coins each in the pot).

Faults, one after another, `--window` seconds of play after each:

    web-kill       kill -9 of one web process, restarted `--restart-after` s later
    worker-kill    kill -9 of one of the two Celery workers (its process group) while bots
                   move, restarted
    redis-restart  redis-server stopped (SIGTERM, its append-only file kept) and started
    pg-restart     pg_ctl restart -m fast
    pg-terminate   every connection to the site's database killed (pg_terminate_backend)
    beat-close     a league week falls due (its players' points recorded in a past week;
                   beat's catch-up entry runs every 3 s), beat is killed while the close
                   is due and restarted
    rolling-deploy SIGTERM to each web process in turn, restarted once it exits (a deploy)

After each fault, over the tables whose match was in play when it struck: seconds
until the table's next move (p50/max; a move is any seat's, so it includes the think
time and the bots' pause: the `baseline` row is the same figure at a moment with no
fault); moves lost (accepted by an `ack` but not in the database, or sent on a socket
that stayed open 10 s with no answer and not in the database); matches never
finished (at the end the clients play fast until every match ends, `--finish-bound`
s at most); double settlements (a match's reward, pot payout or refund entered twice
for one account); `manage.py audit_ledger` after the fault's window; stake pots of
those tables not paid or refunded at the end; and the turns that ran out
(`MatchAction.source = timeout`), the seats the clients saw marked absent or
abandoned during the fault's window, counted apart ("unfair"). The beat row's
recovery is from the week falling due to its close. Exit status 1 if any loss
column is not zero or an audit fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import glob
import itertools
import json
import os
import platform
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VENV_BIN = ROOT / ".venv" / "bin"
CADDYFILE = ROOT / "deploy" / "caddy" / "Caddyfile"
FAULTS = [
    "web-kill",
    "worker-kill",
    "redis-restart",
    "pg-restart",
    "pg-terminate",
    "beat-close",
    "rolling-deploy",
]
REFUSED = {4401, 4403, 4404}  # the page stops (static/js/table.js)
GOING_AWAY = 4500  # the server closing on purpose (a deploy): reconnect at once
RESTART_RETRY_SECONDS = 30.0  # static/js/table.js RESTART_RETRY_MS
RETRY_SOON = 4503  # the database did not answer as the socket opened
SILENCE = 10.0  # the page's RESYNC_AFTER_MS
LOST_AFTER = 10.0  # a move unanswered this long on an open socket was dropped
STAKE = 100
DB_NAME = "cuatrola_chaos"
COMPILE_SKIPS = r"/(\.venv|\.tools|\.git|node_modules)/"  # not the site's code


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def moment(t: float) -> datetime:
    return datetime.fromtimestamp(t, UTC)


# --- The stack ---------------------------------------------------------------------


class Stack:
    """The private services and the site's processes, each in its own process group."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.dir = Path(tempfile.mkdtemp(prefix="chaos-bench-"))
        self.dir.chmod(0o755)
        self.pg_port, self.redis_port, self.caddy_port = free_port(), free_port(), free_port()
        self.web_ports = [free_port(), free_port()]
        self.procs: dict[str, subprocess.Popen] = {}
        self.pgdata = self.dir / "pg"
        self.as_postgres = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        bins = sorted(glob.glob("/usr/lib/postgresql/*/bin"))
        if not bins:
            raise SystemExit("no PostgreSQL server binaries in /usr/lib/postgresql/*/bin")
        self.pg_bin = Path(bins[-1])
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))},
            "DATABASE_URL": f"postgres://postgres@127.0.0.1:{self.pg_port}/{DB_NAME}",
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "DJANGO_SETTINGS_MODULE": "cuatrola_site.settings",
            "SECRET_KEY": "chaos-bench-only-secret-key-" + "x" * 40,
            "DEBUG": "0",
            "HTTPS": "0",
            "STATIC_MANIFEST": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "BEHIND_PROXY": "1",
            "TRUSTED_PROXY_COUNT": "1",
            "DATABASE_CONN_MAX_AGE": "600",
            "LOG_LEVEL": "WARNING",
            "LOG_FORMAT": "text",
            "BOT_MOVE_PAUSE_SECONDS": str(args.bot_pause),
            "LEAGUE_CLOSE_CATCH_UP_SECONDS": "3",
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("PROMETHEUS_MULTIPROC_DIR", None)
        # As the image (Dockerfile): the code compiled before any process starts, so
        # that a process started after a fault does not compile every module again.
        self.env.pop("PYTHONDONTWRITEBYTECODE", None)

    # Processes

    def spawn(self, name: str, command: list[str], env: dict[str, str] | None = None) -> None:
        log = open(self.dir / f"{name}.log", "a")  # noqa: SIM115 (the child keeps it)
        log.write(f"--- {time.strftime('%H:%M:%S')} start\n")
        log.flush()
        self.procs[name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env or self.env,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        log.close()

    def signal(self, name: str, sig: int) -> None:
        proc = self.procs.get(name)
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)

    def kill(self, name: str) -> None:
        """kill -9 of the whole process group (a container dying)."""
        self.signal(name, signal.SIGKILL)
        proc = self.procs[name]
        proc.wait(30)

    def stop(self, name: str, timeout: float = 20.0) -> float:
        """SIGTERM to the main process only (docker stop; compose gives web processes 20 s
        to drain); SIGKILL after `timeout`.
        Returns the seconds it took to exit."""
        proc = self.procs[name]
        began = time.monotonic()
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill(name)
        self.signal(name, signal.SIGKILL)  # whatever it left behind in its group
        return time.monotonic() - began

    def pg(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*self.as_postgres, str(self.pg_bin / args[0]), *args[1:]],
            check=check,
            capture_output=True,
            text=True,
            timeout=120,
        )

    def pg_ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """pg_ctl on the private cluster; the server's output goes to its log (not to
        the pipe this process reads, which would never close)."""
        log = str(self.pgdata / "log")
        return self.pg("pg_ctl", "-D", str(self.pgdata), "-l", log, *args, check=check)

    def start_postgres(self) -> None:
        self.pgdata.mkdir()
        if self.as_postgres:
            shutil.chown(self.pgdata, "postgres", "postgres")
        self.pg("initdb", "-D", str(self.pgdata), "-A", "trust", "-U", "postgres", "-E", "UTF8")
        options = (
            f"-p {self.pg_port} -c listen_addresses=127.0.0.1 -k {self.pgdata} "
            "-c max_connections=300 -c shared_buffers=128MB"
        )
        self.pg_ctl("-o", options, "-w", "start")
        self.pg("createdb", "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "postgres", DB_NAME)

    def start_redis(self) -> None:
        redis_dir = self.dir / "redis"
        redis_dir.mkdir(exist_ok=True)
        self.spawn(
            "redis",
            [
                "redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "yes", "--appendfsync", "everysec",
                "--dir", str(redis_dir),
            ],
        )  # fmt: skip
        self.wait_for(lambda: self.redis_ping(), "redis", 20)

    def redis_ping(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.redis_port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(VENV_BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    def start_web(self, i: int) -> None:
        """docker-compose.yml's web command (uvicorn and its flags), on this stack's port."""
        name = f"web{i + 1}"
        command = web_command()
        for option, value in (("--host", "127.0.0.1"), ("--port", str(self.web_ports[i]))):
            command[command.index(option) + 1] = value
        command[0] = str(VENV_BIN / command[0])
        command[-1:-1] = ["--no-access-log"]  # as daphne's -v 0 was: no line a request
        self.spawn(name, command)

    def web_healthy(self, i: int) -> bool:
        try:
            url = f"http://127.0.0.1:{self.web_ports[i]}/healthz"
            with urllib.request.urlopen(url, timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def start_worker(self, name: str = "worker") -> None:
        # As docker-compose.yml's two workers (each its default pool: a process per CPU).
        self.spawn(
            name,
            [
                str(VENV_BIN / "celery"), "--app", "cuatrola_site", "worker", "--loglevel",
                "WARNING", "--queues", "celery,bots", "--hostname", f"{name}@%h",
            ],
        )  # fmt: skip

    def start_beat(self) -> None:
        self.spawn(
            "beat",
            [
                str(VENV_BIN / "celery"), "--app", "cuatrola_site", "beat", "--loglevel",
                "WARNING", "--schedule", str(self.dir / "celerybeat-schedule"),
            ],
        )  # fmt: skip

    def start_caddy(self) -> None:
        caddy_home = self.dir / "caddy"
        caddy_home.mkdir(exist_ok=True)
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "HOME": str(caddy_home),
            "XDG_DATA_HOME": str(caddy_home / "data"),
            "XDG_CONFIG_HOME": str(caddy_home / "config"),
            "SITE_ADDRESS": f"http://127.0.0.1:{self.caddy_port}",
            "WEB_UPSTREAMS": " ".join(f"127.0.0.1:{port}" for port in self.web_ports),
            "CADDY_HTTP_PORT": str(self.caddy_port),
            "CADDY_ADMIN": "off",
        }
        self.spawn(
            "caddy",
            [
                shutil.which("caddy") or "/usr/bin/caddy", "run", "--config", str(CADDYFILE),
                "--adapter", "caddyfile",
            ],
            env=env,
        )  # fmt: skip

        def front_door() -> bool:
            try:
                url = f"http://127.0.0.1:{self.caddy_port}/healthz"
                with urllib.request.urlopen(url, timeout=2) as response:
                    return response.status == 200
            except OSError:
                return False

        self.wait_for(front_door, "caddy", 30)

    def wait_for(self, ready: Any, what: str, timeout: float) -> float:
        began = time.monotonic()
        while time.monotonic() - began < timeout:
            if ready():
                return time.monotonic() - began
            time.sleep(0.1)
        raise RuntimeError(f"{what} did not come up within {timeout:.0f} s (logs: {self.dir})")

    def start(self) -> None:
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", "-x", COMPILE_SKIPS, "."],
            cwd=ROOT,
            env=self.env,
            check=True,
            stdout=subprocess.DEVNULL,
        )
        self.start_postgres()
        self.start_redis()
        for step in (("migrate", "--noinput"), ("seed",)):
            done = self.manage(*step)
            if done.returncode:
                raise RuntimeError(f"manage.py {step[0]} failed:\n{done.stdout}{done.stderr}")
        for i in range(2):
            self.start_web(i)
        self.start_worker("worker")
        self.start_worker("worker2")
        self.start_beat()
        for i in range(2):
            self.wait_for(lambda i=i: self.web_healthy(i), f"web{i + 1}", 90)
        self.start_caddy()

    def close(self) -> None:
        for name in list(self.procs):
            self.signal(name, signal.SIGKILL)
        for proc in self.procs.values():
            with contextlib.suppress(Exception):
                proc.wait(10)
        if self.pgdata.exists():
            self.pg_ctl("-m", "immediate", "stop", check=False)
        if self.args.keep:
            print(f"kept {self.dir}", flush=True)
        else:
            shutil.rmtree(self.dir, ignore_errors=True)


# --- Django in the bench process (the private database) ------------------------------


def setup_django(stack: Stack) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ.update(stack.env)
    # The bench's own calls of the services (new tables) also broadcast: while Redis or
    # PostgreSQL restarts their failures are the fault at work, not news.
    os.environ["LOG_LEVEL"] = "CRITICAL"
    import django

    django.setup()


def db_retry(fn: Any, *args: Any, seconds: float = 90.0) -> Any:
    """Run `fn` (in a worker thread), again after a database or Redis error while the
    private services restart."""
    from django.db import InterfaceError, OperationalError, connection

    began = time.monotonic()
    while True:
        try:
            return fn(*args)
        except (OperationalError, InterfaceError, ConnectionError):
            connection.close()
            if time.monotonic() - began > seconds:
                raise
            time.sleep(0.5)


def session_key(user: Any) -> str:
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


_names = itertools.count(1)
_addresses = itertools.count(1)
_online_lock = threading.Lock()


def new_users(count: int) -> list[tuple[Any, str, str]]:
    """(user, session key, client address) for `count` new people."""
    from accounts.models import User

    made = []
    for _ in range(count):
        n = next(_names)
        user = User.objects.create_user(username=f"chaos{n}", email=f"c{n}@chaos.local")
        a = next(_addresses)
        made.append((user, session_key(user), f"127.{(a >> 16) & 255}.{(a >> 8) & 255}.{a & 255}"))
    return made


def create_table(kind: str) -> tuple[int, list[tuple[str, str]]]:
    """A new table of `kind` with its match started: (table id, [(session, address)])."""
    from django.db import transaction
    from django.utils import timezone

    from games import services
    from games.models import Seat
    from online.services import queue_join, stake_table_open, stake_table_sit

    if kind == "practice":
        people = new_users(1)
        table = services.table_create_practice(user=people[0][0], rules="online", bot_level="easy")
        table_id = table.pk
    elif kind == "online":
        people = new_users(2)
        # Both wait as if for a minute, in one transaction: the pass after commit seats
        # them together and fills the table with two bots (ONLINE_BOT_FILL_SECONDS).
        with _online_lock, transaction.atomic():
            for user, _, _ in people:
                queue_join(user=user, now=timezone.now() - timedelta(seconds=120))
        seat = Seat.objects.filter(user=people[0][0], live=True).select_related("table").first()
        if seat is None:
            raise RuntimeError("the queue seated nobody")
        table_id = seat.table_id
    else:
        people = new_users(4)
        table = stake_table_open(user=people[0][0], stake=STAKE)
        for user, _, _ in people[1:]:
            stake_table_sit(user=user, table_id=table.pk)
        table_id = table.pk
    return table_id, [(key, address) for _, key, address in people]


# --- The clients -----------------------------------------------------------------------


@dataclass
class Move:
    match: int
    version: int
    seat: int
    action: str
    sent: float
    answer: str | None = None  # "ack" or the error's code
    socket_closed: float | None = None
    left_at_end: float | None = None  # unanswered when the page left at the match's end


@dataclass
class Run:
    think: float
    port: int
    moves: dict[int, Move] = field(default_factory=dict)
    ids: itertools.count = field(default_factory=lambda: itertools.count(1))
    seen: dict[tuple[int, int, str], float] = field(default_factory=dict)  # absent/abandoned
    replaced: bool = True  # a table whose match ends gets a new one of its kind
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    tables: dict[int, str] = field(default_factory=dict)  # table id -> kind
    playing: set[int] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    reconnects: int = 0
    reconnect_at: list[float] = field(default_factory=list)
    # (when a socket closed, when the next one's state came): a page's time without a table
    restored: list[tuple[float, float]] = field(default_factory=list)
    # (socket lost, the next one's handshake done): where the time back goes
    handshakes: list[tuple[float, float]] = field(default_factory=list)
    slow_trails: list[str] = field(default_factory=list)  # a few pages back after > 10 s
    resent: int = 0  # moves played again after their socket closed unanswered
    retried: int = 0  # plays sent again after a `retry` frame
    drawn: set[int] = field(default_factory=set)  # tables whose state a socket holds

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


async def seat_client(run: Run, table_id: int, key: str, address: str) -> None:
    """One person at a table, as static/js/table.js drives the socket."""
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidStatus, WebSocketException

    url = f"ws://127.0.0.1:{run.port}/ws/tables/{table_id}/"
    headers = {"Cookie": f"sessionid={key}", "Origin": f"http://127.0.0.1:{run.port}"}
    delay = 0.5
    restarting_until = 0.0  # after a 4500: retries a second apart until then
    lost_at: float | None = None  # when its last socket closed, until a state comes
    trail: list[str] = []  # the attempts since then (a slow return's story)
    while not run.stop.is_set():
        code: int | None = None
        attempt = time.time()
        opened_after: float | None = None
        outcome = "closed"
        pending: asyncio.Task | None = None
        sent_here: list[Move] = []
        retries: list[asyncio.Task] = []
        over = False
        try:
            async with connect(
                url,
                additional_headers=headers,
                open_timeout=30,
                max_size=2**22,
                ping_interval=None,
                local_addr=(address, 0),
            ) as ws:
                opened_after = time.time() - attempt
                delay = 0.5
                restarting_until = 0.0
                last_seq = 0
                asked = False
                played_at: int | None = None
                version_now = [0]

                async def play(
                    action: str, version: int, match: int, seat: int, sent_here: list[Move]
                ) -> None:
                    await asyncio.sleep(run.think * random.uniform(0.9, 1.1))
                    number = next(run.ids)
                    move = Move(match, version, seat, action, time.time())
                    run.moves[number] = move
                    sent_here.append(move)
                    payload = {"type": "play", "action": action, "version": version, "id": number}
                    await ws.send(json.dumps(payload))

                async def again(ws: Any, frame: dict, version_now: list[int]) -> None:
                    """A `retry` frame: the same message after `after_ms` (and up to half a
                    second more), a play only if no newer state came meanwhile."""
                    after = frame.get("after_ms")
                    delay = (after if isinstance(after, int) else 1000) / 1000
                    move = run.moves.get(frame.get("id"))
                    await asyncio.sleep(delay + random.uniform(0, 0.5))
                    if frame.get("of") == "sync":
                        await ws.send(json.dumps({"type": "sync"}))
                    elif frame.get("of") == "play" and move is not None:
                        if move.version != version_now[0]:
                            move.answer = "retry"  # answered: the player saw it
                            return
                        run.retried += 1
                        payload = {"type": "play", "action": move.action}
                        payload |= {"version": move.version, "id": frame["id"]}
                        await ws.send(json.dumps(payload))

                while not run.stop.is_set():
                    try:
                        raw = await asyncio.wait_for(ws.recv(), SILENCE)
                    except TimeoutError:
                        if asked:
                            break  # no answer to the sync either: a dead socket
                        asked = True
                        await ws.send(json.dumps({"type": "sync"}))
                        continue
                    asked = False
                    frame = json.loads(raw)
                    kind = frame.get("type")
                    if kind == "ack":
                        move = run.moves.get(frame.get("id"))
                        if move is not None:
                            move.answer = "ack"
                        continue
                    if kind == "error":
                        move = run.moves.get(frame.get("id"))
                        if move is not None:
                            move.answer = frame.get("code", "error")
                        else:
                            run.error(frame.get("code", "error"))
                        continue
                    if kind == "retry":
                        retries.append(asyncio.ensure_future(again(ws, frame, version_now)))
                        continue
                    if kind not in ("state", "update"):
                        continue
                    if frame["seq"] < last_seq:
                        continue
                    if kind == "update" and last_seq and frame["seq"] > last_seq + 1:
                        await ws.send(json.dumps({"type": "sync"}))
                    last_seq = frame["seq"]
                    run.drawn.add(table_id)
                    if lost_at is not None:
                        run.restored.append((lost_at, time.time()))
                        run.handshakes.append((lost_at, attempt + opened_after))
                        if time.time() - lost_at > 10 and len(run.slow_trails) < 5:
                            trail.append(
                                f"+{attempt - lost_at:.1f} s opened in {opened_after:.1f} s, "
                                f"its state {time.time() - attempt:.1f} s after the attempt"
                            )
                            run.slow_trails.append(f"table {table_id}: " + "; ".join(trail))
                        lost_at = None
                        trail = []
                    table = frame.get("table") or {}
                    match = table.get("match")
                    for seat in table.get("seats") or []:
                        for flag in ("absent", "abandoned"):
                            if seat.get(flag) and match:
                                run.seen.setdefault((match, seat["position"], flag), time.time())
                    view = frame.get("view") or {}
                    if view.get("phase") == "over" or table.get("status") != "playing":
                        run.playing.discard(table_id)
                        over = True
                        return
                    legal = (view.get("hand") or {}).get("legal_actions") or []
                    version = version_now[0] = frame["version"]
                    if legal and played_at != version:
                        played_at = version
                        if pending is not None:
                            pending.cancel()
                        pending = asyncio.ensure_future(
                            play(random.choice(legal), version, match, frame["seat"], sent_here)
                        )
                code = ws.close_code
        except ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd else None
        except InvalidStatus as refused:
            outcome = f"http_{refused.response.status_code}"
            run.error(outcome)
        except (OSError, TimeoutError) as failed:
            outcome = type(failed).__name__
            run.error(outcome)
        except WebSocketException as failed:
            # Any other failed handshake (a connection the proxy closed before the
            # server's answer: InvalidMessage): the page reconnects, as after any close.
            outcome = type(failed).__name__
            run.error(outcome)
        finally:
            if pending is not None:
                pending.cancel()
            for task in retries:
                task.cancel()
            now = time.time()
            for move in sent_here:
                if move.answer is None and over:  # the match's end is no cut
                    move.left_at_end = now
                elif move.answer is None:
                    move.socket_closed = now
                    run.resent += 1
        if run.stop.is_set():
            return
        run.reconnects += 1
        run.reconnect_at.append(time.time())
        if lost_at is None:
            lost_at = time.time()
        opened = "never opened" if opened_after is None else f"opened in {opened_after:.1f} s"
        trail.append(
            f"+{attempt - lost_at:.1f} s {opened}, {outcome} {code} after "
            f"{time.time() - attempt:.1f} s"
        )
        if code in REFUSED:
            run.error(f"closed_{code}")
            return
        if code is not None and code not in (1000, 1001, 1006, GOING_AWAY, RETRY_SOON):
            run.error(f"closed_{code}")
        if code == GOING_AWAY:  # as the page: at once, spread over half a second
            restarting_until = time.time() + RESTART_RETRY_SECONDS
            await asyncio.sleep(random.uniform(0, 0.5))
            continue
        if time.time() < restarting_until:  # as the page: a second apart, no backing off
            await asyncio.sleep(random.uniform(0.7, 1.3))
            continue
        if code == RETRY_SOON:  # as the page: again in a second or two
            delay = 0.5
            await asyncio.sleep(random.uniform(1.0, 2.0))
            continue
        await asyncio.sleep(delay)
        delay = min(delay * 2, 10.0)


async def table_slot(run: Run, kind: str, stagger: float) -> None:
    """One table of `kind` kept in play: a new one when its match ends."""
    await asyncio.sleep(stagger)
    while not run.stop.is_set():
        try:
            table_id, people = await asyncio.to_thread(db_retry, create_table, kind)
        except Exception as failed:  # counted; the slot tries again
            run.error(f"create_{type(failed).__name__}")
            await asyncio.sleep(2)
            continue
        run.tables[table_id] = kind
        run.playing.add(table_id)
        await asyncio.gather(*(seat_client(run, table_id, k, a) for k, a in people))
        if not run.replaced:
            return


# --- Faults ----------------------------------------------------------------------------


@dataclass
class Fault:
    name: str
    at: float  # when it struck (epoch seconds)
    until: float = 0.0  # the end of its window
    note: str = ""
    audit_ok: bool | None = None
    due_at: float | None = None  # beat-close: when the week fell due
    week_id: int | None = None


def league_week_due() -> tuple[int, float]:
    """Points for six new players recorded in a past week (so its close is due now)."""
    from leagues.models import LeagueWeek
    from leagues.services import LeagueResult, league_points_record_match

    people = new_users(6)
    finished = datetime.now(UTC) - timedelta(days=21)
    league_points_record_match(
        match_id=10**12 + random.randrange(10**9),
        finished_at=finished,
        results=[
            LeagueResult(user=u, points=10 + i, won=i % 2 == 0)
            for i, (u, _, _) in enumerate(people)
        ],
    )
    week = LeagueWeek.objects.filter(starts_at__lte=finished, ends_at__gt=finished).get()
    return week.pk, time.time()


def terminate_backends() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
        return cursor.fetchone()[0]


def web_command() -> list[str]:
    """The web processes' command in docker-compose.yml (web1's)."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return list(compose["services"]["web1"]["command"])


def inject(stack: Stack, name: str, fault: Fault, args: argparse.Namespace) -> None:
    """Strike (blocking; run in a thread). `fault.at` is set when it strikes."""
    wait = args.restart_after
    if name == "web-kill":
        fault.at = time.time()
        stack.kill("web1")
        time.sleep(wait)
        stack.start_web(0)
        up = stack.wait_for(lambda: stack.web_healthy(0), "web1", 90)
        fault.note = f"web1 back after {wait + up:.1f} s"
    elif name == "worker-kill":
        fault.at = time.time()
        stack.kill("worker")
        time.sleep(wait)
        stack.start_worker()
        fault.note = f"worker restarted after {wait:.1f} s"
    elif name == "redis-restart":
        fault.at = time.time()
        took = stack.stop("redis")
        stack.start_redis()
        fault.note = f"redis down {time.time() - fault.at:.1f} s (stop {took:.1f} s)"
    elif name == "pg-restart":
        fault.at = time.time()
        stack.pg_ctl("-m", "fast", "-w", "restart")
        fault.note = f"PostgreSQL back after {time.time() - fault.at:.1f} s"
    elif name == "pg-terminate":
        fault.at = time.time()
        fault.note = f"{db_retry(terminate_backends)} connections killed"
    elif name == "beat-close":
        fault.week_id, fault.due_at = db_retry(league_week_due)
        # Beat's catch-up entry runs every 3 s: killed within one period of the due time.
        time.sleep(random.uniform(0.5, 2.5))
        fault.at = time.time()
        stack.kill("beat")
        time.sleep(wait)
        stack.start_beat()
        fault.note = f"beat killed {fault.at - fault.due_at:.1f} s after the week fell due"
    elif name == "rolling-deploy":
        fault.at = time.time()
        notes = []
        for i in range(2):
            took = stack.stop(f"web{i + 1}")
            stack.start_web(i)
            up = stack.wait_for(lambda i=i: stack.web_healthy(i), f"web{i + 1}", 90)
            notes.append(f"web{i + 1} exit {took:.1f} s, up {up:.1f} s")
            time.sleep(5.0)  # two of Caddy's health checks (2 s) find it back (docs/operations.md)
        fault.note = "; ".join(notes)
    else:
        raise ValueError(name)


# --- Figures ---------------------------------------------------------------------------


@dataclass
class Row:
    name: str
    tables: int
    p50: float
    worst: float
    lost: int
    unfinished: int
    doubles: int
    audit: str
    stuck: int
    timeouts: int
    absences: int
    abandonments: int


def back_in(run: Run, fault: Fault) -> str:
    """How long the pages whose socket closed in the fault's window went without a
    table (from the close to the next socket's state): p50 / p90 / max."""
    waits = sorted(back - lost for lost, back in run.restored if fault.at <= lost < fault.until)
    if not waits:
        return ""
    p90 = waits[min(len(waits) - 1, int(len(waits) * 0.9))]
    slow = sum(1 for wait in waits if wait > 10)
    opened = sorted(at - lost for lost, at in run.handshakes if fault.at <= lost < fault.until)
    return (
        f", {len(waits)} pages back in {statistics.median(waits):.1f} / {p90:.1f} / "
        f"{waits[-1]:.1f} s (p50 / p90 / max; {slow} after over 10 s; their sockets open "
        f"after {statistics.median(opened):.1f} / {opened[-1]:.1f} s, p50 / max)"
    )


def measure(run: Run, faults: list[Fault], audits: dict[str, bool]) -> list[Row]:
    """Every figure, read from the database once the run is over."""
    from django.db.models import Count, Min, Q

    from economy.models import Account, AccountKind, Entry, TransactionKind
    from games.models import ActionSource, Match, MatchAction, MatchSeat, MatchStatus
    from leagues.models import LeagueWeek

    ids = list(run.tables)
    matches = {m.pk: m for m in Match.objects.filter(table_id__in=ids)}
    actions: dict[tuple[int, int], tuple[int, str]] = {
        (a["match_id"], a["number"]): (a["seat"], a["action"])
        for a in MatchAction.objects.filter(match_id__in=list(matches)).values(
            "match_id", "number", "seat", "action"
        )
    }
    lost_moves = []
    kinds = {"accepted, not stored": 0, "unanswered on an open socket": 0}
    superseded = 0  # unanswered, and the turn was played otherwise (a timeout, a bot)
    for move in run.moves.values():
        played = actions.get((move.match, move.version + 1))
        if played == (move.seat, move.action):
            continue
        if move.answer == "ack":
            lost_moves.append(move)  # accepted, not stored
            kinds["accepted, not stored"] += 1
        elif move.answer is None and (
            move.socket_closed is None or move.socket_closed - move.sent > LOST_AFTER
        ):
            left = move.left_at_end
            if played is not None and left is not None and left - move.sent <= LOST_AFTER:
                # The match ended before its answer was due, its turn played otherwise:
                # refused as stale, the refusal unread (the page had left). A turn run
                # out in a fault's window counts below as unfair.
                superseded += 1
                continue
            lost_moves.append(move)  # silently dropped
            kinds["unanswered on an open socket"] += 1
    if lost_moves:
        print("moves lost: " + ", ".join(f"{k} {v}" for k, v in kinds.items()), flush=True)
    if superseded:
        print(
            f"{superseded} moves unanswered when their match ended, their turn played by a "
            "timeout meanwhile (refused as stale; the page had left)",
            flush=True,
        )
    bots = set(
        MatchSeat.objects.filter(match_id__in=list(matches), is_bot=True).values_list(
            "match_id", "position"
        )
    )
    # A timed-out turn at a person's seat counts against them (unfair if the fault made
    # it); at a bot's seat it is the sweep taking over a bot's lost move.
    timeouts, takeovers = [], []
    for match_id, seat, at in MatchAction.objects.filter(
        match_id__in=list(matches), source=ActionSource.TIMEOUT
    ).values_list("match_id", "seat", "created_at"):
        (takeovers if (match_id, seat) in bots else timeouts).append(at)
    settled = (
        Entry.objects.filter(
            transaction__match_id__in=list(matches),
            transaction__kind__in=[
                TransactionKind.MATCH_REWARD,
                TransactionKind.POT_PAYOUT,
                TransactionKind.REFUND,
            ],
            account__kind=AccountKind.USER,
        )
        .values("transaction__match_id", "transaction__kind", "account_id")
        .annotate(n=Count("transaction_id", distinct=True), at=Min("transaction__created_at"))
        .filter(n__gt=1)
    )
    doubles = [(d["transaction__match_id"], d["at"]) for d in settled]
    stake_tables = [t for t, kind in run.tables.items() if kind == "stake"]
    stuck_tables = set(
        Account.objects.filter(kind=AccountKind.ESCROW, table_id__in=stake_tables)
        .filter(~Q(balance=0) | Q(settled_at__isnull=True))
        .values_list("table_id", flat=True)
    )
    rows = []
    for fault in faults:
        at, until = moment(fault.at), moment(fault.until)
        live = [
            m
            for m in matches.values()
            if m.started_at < at and (m.finished_at is None or m.finished_at > at)
        ]
        firsts = dict(
            MatchAction.objects.filter(match_id__in=[m.pk for m in live], created_at__gt=at)
            .values("match_id")
            .annotate(first=Min("created_at"))
            .values_list("match_id", "first")
        )
        waits = [
            (firsts[m.pk] - at).total_seconds() if m.pk in firsts else float("inf") for m in live
        ]
        if fault.name == "beat-close" and fault.week_id is not None:
            week = LeagueWeek.objects.get(pk=fault.week_id)
            due = moment(fault.due_at or fault.at)
            closed = (week.closed_at - due).total_seconds() if week.closed_at else float("inf")
            fault.note += f"; week closed {seconds(closed)} s after it fell due"
            prizes = (
                Entry.objects.filter(
                    transaction__kind=TransactionKind.LEAGUE_PRIZE,
                    transaction__idempotency_key__contains=f":{week.pk}:",
                    account__kind=AccountKind.USER,
                )
                .values("account_id")
                .annotate(n=Count("transaction_id", distinct=True))
                .filter(n__gt=1)
                .count()
            )
        else:
            prizes = 0
        in_window = [t for t in timeouts if at <= t < until]
        taken = sum(1 for t in takeovers if at <= t < until)
        cut = [
            m for m in run.moves.values() if m.socket_closed and fault.at <= m.sent < fault.until
        ]
        fault.note += (
            f"{'; ' if fault.note else ''}{taken} bot turns taken over by the sweep, "
            f"{len(cut)} moves in flight when their socket closed (played again), "
            f"{sum(1 for t in run.reconnect_at if fault.at <= t < fault.until)} reconnects"
            f"{back_in(run, fault)}"
        )
        live_ids = {m.pk for m in live}
        seen = [(k, t) for k, t in run.seen.items() if fault.at <= t < fault.until]
        rows.append(
            Row(
                name=fault.name,
                tables=len(live),
                p50=statistics.median(waits) if waits else float("nan"),
                worst=max(waits) if waits else float("nan"),
                lost=sum(1 for m in lost_moves if fault.at <= m.sent < fault.until),
                unfinished=sum(1 for m in live if m.status == MatchStatus.PLAYING),
                doubles=sum(1 for mid, t in doubles if mid in live_ids or at <= t < until) + prizes,
                audit={True: "clean", False: "FAILED", None: "-"}[audits.get(fault.name)],
                stuck=sum(1 for m in live if m.table_id in stuck_tables),
                timeouts=len(in_window),
                absences=sum(1 for (_, _, flag), _ in seen if flag == "absent"),
                abandonments=sum(1 for (_, _, flag), _ in seen if flag == "abandoned"),
            )
        )
    return rows


def audit(stack: Stack) -> bool:
    done = stack.manage("audit_ledger")
    if done.returncode:
        print(done.stdout + done.stderr, flush=True)
    return done.returncode == 0


def seconds(value: float) -> str:
    return "never" if value == float("inf") else f"{value:.1f}"


def print_rows(rows: list[Row]) -> None:
    head = (
        f"{'fault':<15}{'tables':>7}{'recovery p50/max s':>20}{'moves lost':>11}"
        f"{'unfinished':>11}{'double settl.':>14}{'audit':>8}{'pots stuck':>11}"
        f"{'unfair: timeouts/absent/abandoned':>35}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        print(
            f"{r.name:<15}{r.tables:>7}{seconds(r.p50) + ' / ' + seconds(r.worst):>20}"
            f"{r.lost:>11}{r.unfinished:>11}{r.doubles:>14}{r.audit:>8}{r.stuck:>11}"
            f"{f'{r.timeouts} / {r.absences} / {r.abandonments}':>35}",
            flush=True,
        )


# --- The run ---------------------------------------------------------------------------


async def orchestrate(stack: Stack, args: argparse.Namespace) -> int:
    run = Run(think=args.think, port=stack.caddy_port)
    kinds = ["practice", "practice", "online", "online", "stake"]
    slots = [
        asyncio.ensure_future(table_slot(run, kinds[i % len(kinds)], i / args.create_rate))
        for i in range(args.tables)
    ]
    began = time.time()
    while (  # noqa: ASYNC110 (a poll of the slots' progress)
        len(run.tables) < args.tables or len(run.drawn) < len(run.tables)
    ) and time.time() - began < 60 + args.tables:
        await asyncio.sleep(0.5)
    print(
        f"{len(run.tables)} tables in play ({len(run.drawn)} drawn by their sockets) "
        f"after {time.time() - began:.0f} s; warming up {args.window:.0f} s",
        flush=True,
    )
    await asyncio.sleep(args.window)
    audits: dict[str, bool] = {}
    faults = [Fault("baseline", time.time())]
    await asyncio.sleep(args.window)
    faults[0].until = time.time()
    for name in args.faults:
        fault = Fault(name, time.time())
        await asyncio.to_thread(inject, stack, name, fault, args)
        await asyncio.sleep(args.window)
        fault.until = time.time()
        audits[name] = await asyncio.to_thread(audit, stack)
        faults.append(fault)
        print(
            f"{time.strftime('%H:%M:%S')} {name}: {fault.note}; {len(run.playing)} tables in "
            f"play, {len(run.moves)} moves sent so far, reconnects {run.reconnects}",
            flush=True,
        )
    # The end: no new tables, quick play until every match is over.
    run.replaced = False
    run.think = args.finish_think
    ended = time.time()
    while run.playing and time.time() - ended < args.finish_bound:  # noqa: ASYNC110
        await asyncio.sleep(1)
    finished_in = time.time() - ended
    run.stop.set()
    await asyncio.wait(slots, timeout=30)
    # A slot whose client failed on an error it does not handle (a bench bug: a page
    # that stopped reconnecting, its turns then run out): named, never silent.
    crashed = Counter(
        repr(slot.exception())[:120]
        for slot in slots
        if slot.done() and not slot.cancelled() and slot.exception() is not None
    )
    for what, count in crashed.items():
        print(f"{count} table slots stopped on {what}", flush=True)
    for slot in slots:
        slot.cancel()
    await asyncio.sleep(3)  # settlements of the last matches commit
    final_audit = await asyncio.to_thread(audit, stack)
    rows = await asyncio.to_thread(measure, run, faults, audits)
    print(
        f"\nend: {len(run.tables)} tables played, {len(run.moves)} moves sent, "
        f"{run.reconnects} reconnects, {run.resent} moves unanswered when their socket "
        f"closed (played again), {run.retried} sent again after a retry frame, the last "
        f"matches ended within {finished_in:.0f} s "
        f"({len(run.playing)} still playing); client errors: "
        + (", ".join(f"{k}={v}" for k, v in sorted(run.errors.items())) or "none"),
        flush=True,
    )
    for fault in faults:
        print(f"  {fault.name}: {fault.note}")
    for trail in run.slow_trails:
        print(f"  a page back after over 10 s, {trail}")
    print(f"\nload average now {', '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print_rows(rows)
    print(f"final audit_ledger: {'clean' if final_audit else 'FAILED'}", flush=True)
    losses = sum(r.lost + r.unfinished + r.doubles + r.stuck for r in rows)
    failed_audit = not final_audit or any(r.audit == "FAILED" for r in rows)
    return 1 if losses or failed_audit or run.playing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--short", action="store_true", help="CI: 20 tables, short windows")
    parser.add_argument("--tables", type=int)
    parser.add_argument("--think", type=float, help="seconds before a move (±10 %%)")
    parser.add_argument("--window", type=float, help="seconds of play after each fault")
    parser.add_argument("--restart-after", type=float, default=2.0)
    parser.add_argument("--bot-pause", type=float, help="BOT_MOVE_PAUSE_SECONDS")
    parser.add_argument("--finish-think", type=float, default=0.1)
    parser.add_argument("--finish-bound", type=float, help="seconds for every match to end")
    parser.add_argument("--create-rate", type=float, default=10.0, help="new tables a second")
    parser.add_argument("--faults", nargs="+", choices=FAULTS, default=FAULTS)
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args()
    short = args.short
    args.tables = args.tables or (20 if short else 200)
    args.think = args.think if args.think is not None else (0.5 if short else 2.0)
    args.window = args.window or (12.0 if short else 40.0)
    args.bot_pause = args.bot_pause if args.bot_pause is not None else (0.2 if short else 0.8)
    args.finish_bound = args.finish_bound or (150.0 if short else 600.0)

    stack = Stack(args)

    def interrupted(signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, interrupted)
    status = 1
    try:
        print(
            f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; {platform.node()}, "
            f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}; {args.tables} "
            f"tables, think {args.think:g} s, window {args.window:g} s, bot pause "
            f"{args.bot_pause:g} s; stack in {stack.dir}",
            flush=True,
        )
        began = time.time()
        stack.start()
        setup_django(stack)
        print(f"stack up in {time.time() - began:.0f} s", flush=True)
        status = asyncio.run(orchestrate(stack, args))
    finally:
        stack.close()
    sys.exit(status)


if __name__ == "__main__":
    main()
