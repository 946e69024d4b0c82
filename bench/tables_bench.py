"""Real-time tables under load: daphne + PostgreSQL + Redis, four websocket clients a table.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cuatrola_bench \
    REDIS_URL=redis://127.0.0.1:6379/3 \
    .venv/bin/python bench/tables_bench.py --tables 50 200 500 --seconds 30

For each table count it starts `--processes` daphne processes (default 2, the
machine's cores). With `--routing table` (the default) each listens on its own
port and a table's four sockets all go to the process its id picks, as the
proxy in front of several web processes routes them (docs/operations.md,
"Several web processes"); with `--routing kernel` they share one listening
socket, the kernel spreads connections over them and a table's four sockets
often land in different processes. It opens N friends
tables with four people each (no bots, so only the server's own cost is
measured) at `--connect-rate` sockets a second, waits until every socket has
its state and `--warmup` seconds more, then for `--seconds` lets every client
play a legal move 2 s (--think, ±10 %) after its turn comes. Each client does
per frame what the table page's script does (parse it, drop a stale one, send
`sync` when `seq` skips one, draw from the frame: no HTTP request). It reports
p50/p99 latency from sending a move to the last of the table's four sockets
holding a frame of that move (what each seat draws), errors (refused or
dropped sockets, error frames, stale versions, moves whose frame never reached
every seat), the server processes' peak resident memory
(summed) and their CPU time per move. Then, with no think time, the highest
move rate it sustains (one round per --rate-tables count, the best printed last;
a match soon ends with no think time, and a spare table, its players connecting
anew, then replaces it, so the load lasts the whole round).
Each player connects with its own client address (X-Forwarded-For, the servers
trusting one proxy), as behind the site's proxy: the per-address socket limit
counts each player apart, not the whole bench as one address.
The clients run on the same machine, in `--client-processes` processes (default 2:
2,000 browsers are not one event loop, and one loop's stalls would count as the
server's latency), each with a share of the tables. Settings are production-like: DEBUG=0,
DATABASE_CONN_MAX_AGE=600, WEB_DB_THREADS as the site's default unless set. The database named in
DATABASE_URL is migrated and filled by the script, and vacuumed before each round
(as autovacuum would): give it a scratch database.

Watchers (docs/watching.md; issue 32, "Speed"). `--watchers W` gives every table W
watcher sockets too (default 0): each a signed-in user of its own, not seated, with
its own client address, doing per frame what the table page's script does for a
watcher (the same as a player's socket, but for moving: the spectators' frames).
The tables are friends rooms marked open to watch (`Table.open_to_watch`): where the
server lets anyone signed in watch such a room, that is the watchers' way in; where
it does not yet, each watcher is invited to the room (an invitee who did not sit
watches); each round's line says which ("open to watch" or "invitation"). The
latency then runs to the last of the table's sockets, players and watchers, and is
also given to the last player's and to the last watcher's apart; a move that never
reaches a watcher is an error (`lost_at_watcher`). Several values (`--watchers 0 2`)
run every round at each, on the same table counts, and compare the servers' CPU per
move (the watchers' frame is built once a move for all of them: a watcher should
cost a socket write, not a frame). `--crowd W` adds, to the rounds with think time,
one table with W watchers, spread over the client processes (W is at most
WATCHERS_PER_TABLE, 200, unless the bench raises it for a bigger crowd; each watcher
its own user, so WATCH_SOCKETS_PER_USER never refuses one): its own line gives the
latency from a move at that table to the last of its watchers holding it (the
clients' processes share one monotonic clock). Its moves count in the CPU per move,
not in the other tables' latencies. Targets (issue 32):

    # 500 tables x 4 players + 2 watchers each at 2 s think: p99 < 100 ms to every
    # player's and watcher's socket, no error; the CPU per move with and without them
    .venv/bin/python bench/tables_bench.py --tables 500 --watchers 0 2 --seconds 60 \
        --connect-rate 40 --rate-tables
    # one table with 200 watchers beside the usual load: p99 to its last watcher < 150 ms
    .venv/bin/python bench/tables_bench.py --tables 500 --watchers 2 --crowd 200 \
        --seconds 60 --connect-rate 40 --rate-tables

(with DATABASE_URL and REDIS_URL as above; a quiet machine, as for every latency
figure here). A quick look that it works: `--tables 10 --seconds 8 --watchers 2
--crowd 20 --rate-tables`.

Servers (issue 45). `--server daphne uvicorn granian` runs every round under each
ASGI server in turn, in the same run, each line naming its server (`server=`):
daphne as in production; uvicorn with uvloop, httptools and websockets; granian 2
(its ASGI interface, one worker process a web process, which it spawns: the CPU of
each web process counts its children). Each is started as production would run it
(no proxy headers read by the server, no websocket compression: `server_command`).
Routing by table as the proxy does (daphne and uvicorn adopt a listening socket,
granian binds its port itself, so `--routing kernel` is not for granian). With
several `--watchers` values the summary gives each watcher's share of the servers'
CPU a move (`ms a watcher`: issue 45's target is 0.05 ms). Every line says what share
of the machine the servers and the clients took while measuring (their CPU seconds
over the wall time and the cores). The thousand tables (issue 45, 4): 1,000 tables at
2 s think with two watchers each, two web processes, p99 under 150 ms and no error:

    .venv/bin/python bench/tables_bench.py --tables 1000 --watchers 2 --seconds 60 \
        --connect-rate 100 --rate-tables --target-p99 150 --server daphne uvicorn granian

Figures: docs/benchmarks.md, "Tables" and "Issue 45".
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import itertools
import json
import multiprocessing
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
from typing import NamedTuple, Protocol

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)


def setup_django():
    import django

    django.setup()


def listening_socket() -> socket.socket:
    """One TCP socket on a free port that every daphne process adopts (`--fd`)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock


def proc_status(pid: int) -> tuple[float, float, float]:
    """(resident MB, user CPU seconds, system CPU seconds) of a process."""
    rss, user, system = float("nan"), float("nan"), float("nan")
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        tick = os.sysconf("SC_CLK_TCK")
        user, system = int(fields[11]) / tick, int(fields[12]) / tick
    except (OSError, IndexError, ValueError):
        pass
    return rss, user, system


def tree_pids(pid: int) -> list[int]:
    """`pid` and its descendants (granian serves from a worker process it spawns)."""
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                todo += [int(child) for child in (task / "children").read_text().split()]
        except OSError:
            pass
    return pids


def servers_status(servers) -> tuple[float, float, float]:
    """`proc_status` summed over the server processes and their children."""
    totals = [0.0, 0.0, 0.0]
    for server in servers:
        for pid in tree_pids(server.pid):
            for i, value in enumerate(proc_status(pid)):
                if value == value:  # not nan: a child that just ended counts nothing
                    totals[i] += value
    return totals[0], totals[1], totals[2]


def services_cpu() -> dict[str, float]:
    """CPU seconds so far of this machine's PostgreSQL (every server process, and
    the backends that have exited, counted in the postmaster's children) and Redis
    servers, by name; nothing for a service not running here."""
    tick = os.sysconf("SC_CLK_TCK")
    totals: dict[str, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        fields = stat.rsplit(")", 1)[1].split()
        if name == "postgres":
            service = "postgres"
        elif name.startswith("redis-server"):
            service = "redis"
        else:
            continue
        seconds = int(fields[11]) + int(fields[12])
        if fields[1] == "1" or service == "redis":  # the postmaster: its reaped children too
            seconds += int(fields[13]) + int(fields[14])
        totals[service] = totals.get(service, 0.0) + seconds / tick
    return totals


def machine_busy() -> tuple[float, float]:
    """(busy, steal) CPU seconds of the whole machine so far, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    tick = os.sysconf("SC_CLK_TCK")
    idle = fields[3] + fields[4]
    steal = fields[7] if len(fields) > 7 else 0
    return (sum(fields[:8]) - idle - steal) / tick, steal / tick


_watcher_numbers = itertools.count(1)  # each watcher's own client address


def watcher_address(number: int) -> str:
    """A watcher's own client address (in 11.0.0.0/8, one per watcher of the run; the
    players' are in 10.0.0.0/8)."""
    return f"11.{(number >> 16) & 255}.{(number >> 8) & 255}.{number & 255}"


def session_key(user) -> str:
    """A signed-in session of `user`, as the browser's cookie carries it."""
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    assert session.session_key is not None
    return session.session_key


class BenchTable(NamedTuple):
    table_id: int
    keys: list[str]  # the four players' sessions, by seat
    watchers: list[tuple[str, str]]  # each watcher's session and client address


def make_tables(count: int, run: str, watchers: int = 0) -> tuple[list[BenchTable], str]:
    """Creates `count` started friends tables of four users, each with `watchers`
    more signed-in users who are not seated (docs/watching.md); returns the tables
    and how the watchers may watch. Each table is open to watch
    (`Table.open_to_watch`): where the server lets anyone signed in watch such a room
    ("open to watch"), that is the watchers' way in; where it does not (before
    watching open rooms was built), each watcher is invited to the room instead
    ("invitation": an invitee who did not sit watches)."""
    from accounts.models import User
    from games import services
    from games.models import Table
    from games.selectors import table_access

    def user(name: str):
        return User.objects.create_user(
            username=f"b{run}{name}", email=f"b{run}{name}@bench.local", password=None
        )

    tables = []
    way = "none"
    for t in range(count):
        users = [user(f"t{t}s{s}") for s in range(4)]
        lookers = [user(f"t{t}w{w}") for w in range(watchers)]
        table = services.table_create_friends(user=users[0])
        Table.objects.filter(pk=table.pk).update(open_to_watch=True)
        if lookers and way == "none":
            way = (
                "open to watch"
                if table_access(user=lookers[0], table_id=table.pk)
                else "invitation"
            )
        if way == "invitation":  # while a seat is still empty, as the service requires
            for looker in lookers:
                services.invitation_create(
                    user=users[0], table_id=table.pk, username=looker.username
                )
        for player in users[1:]:
            invitation = services.invitation_create(
                user=users[0], table_id=table.pk, username=player.username
            )
            services.invitation_accept(user=player, invitation_id=invitation.pk)
        services.match_start(user=users[0], table_id=table.pk, seed=t)
        tables.append(
            BenchTable(
                table.pk,
                [session_key(player) for player in users],
                [
                    (session_key(looker), watcher_address(next(_watcher_numbers)))
                    for looker in lookers
                ],
            )
        )
    return tables, way


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # to the last of a table's sockets
        self.player_latencies: list[float] = []  # to the last of its four players'
        self.watcher_latencies: list[float] = []  # to the last of its watchers'
        self.sent: list[float] = []
        self.errors = 0
        self.error_kinds: dict[str, int] = {}
        self.moves = 0
        self.measuring = False
        self.ready = 0
        self.elapsed = 0.0
        self.lag = 0.0  # the clients' own event loop: its longest stall while measuring
        self.matches_over = 0  # tables whose match ended (replaced by a spare table)
        self.out_of_spares = 0  # ... and not replaced, there being none left
        self.syncs = 0  # `sync` requests after a gap in `seq` (as the browser sends)
        self.client_cpu = 0.0  # the client processes' CPU seconds while measuring
        self.connect_seconds = 0.0
        # The crowd table (--crowd), timed across the client processes by the clock
        # they share (CLOCK_MONOTONIC): its measured moves, by version and when sent
        # (in the process of its players), and per watcher of this process the
        # versions of the frames it held and when.
        self.crowd_sent: list[tuple[int, float]] = []
        self.arrivals: list[list[tuple[int, float]]] = []

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


MIN_SPARES = 300  # no-think rounds: short matches end by the dozen a second
LOST_AFTER = 5.0  # seconds: a move whose frame has not come by then counts as lost
HANDSHAKE_TIMEOUT = 60  # seconds, for the client and for daphne (its default is 5)
PLAYERS = 4  # a table's seats: its sockets 0-3; its watchers' are 4 on


class Move:
    """A move in flight: when it was sent, and which sockets hold a frame of it."""

    __slots__ = ("measured", "players", "players_at", "started", "watchers", "watchers_at")

    def __init__(self, measured: bool) -> None:
        self.started = time.perf_counter()
        self.measured = measured
        self.players: set[int] = set()
        self.watchers: set[int] = set()
        self.players_at: float | None = None  # when the last player's socket held it
        self.watchers_at: float | None = None  # ... and the last watcher's


class TableTrack:
    """The moves in flight at one table: when each was sent, and which of its sockets
    (the four players', numbered 0-3 by seat, and its watchers', 4 on) already hold a
    frame at or past it (the latency counts until the last). `crowd`: the moves are
    also logged for the crowd table's watchers in every client process."""

    def __init__(self, watchers: int = 0, crowd: Stats | None = None) -> None:
        self.pending: dict[int, Move] = {}  # version -> the move sent at it
        self.watchers = watchers
        self.crowd = crowd

    def sent(self, version: int, measured: bool) -> None:
        move = self.pending[version] = Move(measured)
        if self.crowd is not None and measured:
            self.crowd.crowd_sent.append((version, move.started))

    def holds(self, seat: int, version: int, stats: Stats) -> None:
        """Socket `seat` received a frame of `version`: every move before it reached it."""
        now = time.perf_counter()
        for moved in [v for v in self.pending if v < version]:
            move = self.pending[moved]
            if seat < PLAYERS:
                move.players.add(seat)
                if move.players_at is None and len(move.players) == PLAYERS:
                    move.players_at = now
            else:
                move.watchers.add(seat)
                if move.watchers_at is None and len(move.watchers) == self.watchers:
                    move.watchers_at = now
            if move.players_at is None or (self.watchers and move.watchers_at is None):
                continue
            del self.pending[moved]
            if move.measured and stats.measuring:
                stats.latencies.append(now - move.started)
                stats.player_latencies.append(move.players_at - move.started)
                if move.watchers_at is not None:
                    stats.watcher_latencies.append(move.watchers_at - move.started)
                stats.sent.append(move.started)
                stats.moves += 1

    def lost(self, stats: Stats) -> None:
        now = time.perf_counter()
        for version, move in list(self.pending.items()):
            if now - move.started > LOST_AFTER:
                del self.pending[version]
                if move.measured:
                    # A player's socket missed it, or only watchers' did.
                    stats.error("lost" if move.players_at is None else "lost_at_watcher")


class Track(Protocol):
    """What a socket tells as it sends a move and holds a frame."""

    def sent(self, version: int, measured: bool) -> None: ...

    def holds(self, seat: int, version: int, stats: Stats) -> None: ...


class Arrivals:
    """What the crowd table's watchers of one client process held: per watcher, each
    newer version of a frame and when (the move's sender is in another process)."""

    def __init__(self, stats: Stats, count: int) -> None:
        stats.arrivals = [[] for _ in range(count)]
        self.log = stats.arrivals

    def sent(self, version: int, measured: bool) -> None:  # watchers send no move
        raise AssertionError("a watcher moved")

    def holds(self, seat: int, version: int, stats: Stats) -> None:
        held = self.log[seat]
        if not held or version > held[-1][0]:
            held.append((version, time.perf_counter()))


def crowd_latencies(
    sent: list[tuple[int, float]], arrivals: list[list[tuple[int, float]]]
) -> tuple[list[float], int]:
    """From each measured move at the crowd table to the last of its watchers holding
    a frame of it (a version past the move's), and how many moves some watcher never
    got (lost). Watchers that never held a frame (refused: an error already) are left
    out."""
    held = [([v for v, _ in log], [t for _, t in log]) for log in arrivals if log]
    latencies: list[float] = []
    lost = 0
    for version, started in sent:
        last = started
        for versions, times in held:
            first = bisect.bisect_right(versions, version)
            if first == len(versions):
                lost += 1
                break
            last = max(last, times[first])
        else:
            latencies.append(last - started)
    return latencies, lost


async def client(
    url: str,
    port: int,
    session_key: str,
    seat: int,
    track: Track,
    think: float,
    stats: Stats,
    stop: asyncio.Event,
    initial: bool = True,
    address: str = "",
    watcher: bool = False,
) -> bool:
    """One player's socket, doing per frame what the table page's script does
    (static/js/table.js): parse the frame, drop a stale one (`seq` lower than one
    drawn), ask for the whole state (`sync`) when `seq` skips, and draw from the
    frame: no HTTP request. True when it ends because the match is over. `address`:
    the player's own, as the proxy in front would write it (X-Forwarded-For; the
    servers trust one proxy), so each counts against its own per-address limit.
    `watcher`: a watcher's socket (the spectators' frames), the same but for moving;
    `seat` is then its number in `track` (4 on)."""
    import websockets

    headers = {"Cookie": f"sessionid={session_key}", "Origin": f"http://127.0.0.1:{port}"}
    if address:
        headers["X-Forwarded-For"] = address
    ready = False
    last_seq = 0
    try:
        async with websockets.connect(
            url, additional_headers=headers, max_size=2**22, open_timeout=HANDSHAKE_TIMEOUT
        ) as ws:
            played: set[int] = set()
            pending: asyncio.Task | None = None

            async def play(action: str, version: int) -> None:
                if think:
                    await asyncio.sleep(think * random.uniform(0.9, 1.1))
                if stop.is_set():
                    return
                track.sent(version, stats.measuring)
                await ws.send(json.dumps({"type": "play", "action": action, "version": version}))

            async def close_at_stop() -> None:
                await stop.wait()
                await ws.close()

            # No timer per frame (asyncio.wait_for cost the clients CPU for work no
            # browser does): the socket closes at the stop, and the table's watchdog
            # counts lost moves (play_tables).
            closer = asyncio.ensure_future(close_at_stop())
            try:
                async for raw in ws:
                    frame = json.loads(raw)
                    kind = frame.get("type")
                    if kind == "error":
                        stats.error(frame.get("code", "error"))
                        continue
                    if kind not in ("state", "update"):
                        continue  # ack, balance
                    if frame["seq"] < last_seq:
                        continue  # stale: a later frame is already drawn
                    if kind == "update" and last_seq and frame["seq"] > last_seq + 1:
                        stats.syncs += 1
                        await ws.send(json.dumps({"type": "sync"}))
                    last_seq = frame["seq"]
                    if not ready:
                        ready = True
                        stats.ready += initial
                    version = frame["version"]
                    track.holds(seat, version, stats)
                    view = frame.get("view") or {}
                    if view.get("phase") == "over" or frame["table"]["status"] != "playing":
                        return True
                    if watcher:
                        continue
                    legal = (view.get("hand") or {}).get("legal_actions") or []
                    if legal and version not in played:
                        played.add(version)
                        pending = asyncio.ensure_future(play(random.choice(legal), version))
                if not stop.is_set():  # the server closed it (a clean close)
                    stats.error(f"closed_{ws.close_code}")
            finally:
                closer.cancel()
                if pending:
                    pending.cancel()
    except Exception as error:  # a refused or dropped connection counts as an error
        if not stop.is_set():
            stats.error(type(error).__name__)
    finally:
        if not ready:
            stats.ready += initial  # settled (failed): do not wait for it
    return False


def player_address(table_id: int, seat: int) -> str:
    """A player's own client address (in 10.0.0.0/8, one per table and seat)."""
    return f"10.{(table_id >> 8) & 255}.{table_id & 255}.{seat + 1}"


SERVERS = ("daphne", "uvicorn", "granian")


def server_command(server: str, fd: int | None, port: int) -> list[str]:
    """The command line of one web process of `server`, serving the site's ASGI
    application as production would (docs/operations.md, "Web server"): no proxy
    headers read by the server (the site reads X-Forwarded-For itself,
    TRUSTED_PROXY_COUNT), no websocket compression (daphne has none: each socket's
    frame would be compressed apart), quiet logs. daphne and uvicorn adopt the
    listening socket `fd`; granian binds `port` itself (it cannot adopt one)."""
    app = "cuatrola_site.asgi:application"
    if server == "daphne":
        return [
            str(ROOT / ".venv/bin/daphne"),
            *("--fd", str(fd), "-v", "0"),
            *("--websocket_connect_timeout", str(HANDSHAKE_TIMEOUT)),
            app,
        ]
    if server == "uvicorn":
        return uvicorn_command(fd)
    if server == "granian":
        return [
            str(ROOT / ".venv/bin/granian"),
            *("--interface", "asgi", "--host", "127.0.0.1", "--port", str(port)),
            *("--workers", "1", "--runtime-threads", "1", "--loop", "uvloop"),
            # Every open websocket holds one of the worker's concurrent requests.
            *("--backlog", "4096", "--backpressure", "20000"),
            *("--no-access-log", "--log-level", "warning"),
            app,
        ]
    raise ValueError(server)


def uvicorn_command(fd: int | None) -> list[str]:
    """The shipped web processes' command (docker-compose.yml's web1, every flag: the
    message limit and keep-alive included, as tests/web_server.py starts it), on the
    adopted socket `fd`, with quiet logs."""
    from tests.web_server import web_command

    command = web_command(fd=fd, extra=["--no-access-log", "--log-level", "warning"])
    if "BENCH_UVICORN_WS" in os.environ:
        command[command.index("--ws") + 1] = os.environ["BENCH_UVICORN_WS"]
    return command


def wait_listening(ports: list[int], limit: float = 60.0) -> None:
    """Until every port accepts a connection (granian's worker has bound it)."""
    began = time.perf_counter()
    for port in ports:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.perf_counter() - began > limit:
                    raise RuntimeError(f"nothing listens on port {port}") from None
                time.sleep(0.2)


def start_servers(
    socks: list[socket.socket], count: int, env: dict[str, str], server: str = "daphne"
) -> list[subprocess.Popen]:
    """`count` web processes of `server`: with one socket all adopt it, else process i
    adopts socket i (granian, which adopts none, binds socket i's port once it is
    closed here: `--routing table` only)."""
    servers = []
    ports = [sock.getsockname()[1] for sock in socks]
    for i in range(count):
        sock = socks[i % len(socks)]
        port = ports[i % len(socks)]
        fd = sock.fileno()
        if server == "granian":
            sock.close()  # its port is granian's to bind
        log = open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "a")  # noqa: SIM115
        servers.append(
            subprocess.Popen(
                server_command(server, None if server == "granian" else fd, port),
                cwd=ROOT,
                env=env,
                pass_fds=() if server == "granian" else (fd,),
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
    time.sleep(3)  # Django set-up; the socket already queues connections meanwhile
    if server == "granian":
        wait_listening(ports)
    for process in servers:
        if process.poll() is not None:
            raise RuntimeError(f"{server} did not start")
    return servers


class Shared:
    """What the client processes and the coordinating process share."""

    def __init__(self) -> None:
        self.ready = multiprocessing.Value("i", 0)  # sockets holding their state
        self.measuring = multiprocessing.Event()
        self.stop = multiprocessing.Event()
        self.results: multiprocessing.Queue = multiprocessing.Queue()


async def drive_clients(
    ports: list[int], tables, spares, think: float, gap: float, shared, crowd=None, crowd_part=0
):
    """One client process: plays `tables` (each with its watchers); a table whose match
    ends is replaced by the next of `spares` (its players and watchers connect to it),
    so the offered load lasts the whole round. `crowd`: the crowd table (--crowd), whose
    players this process runs if `crowd_part` is 0 and whose watchers are spread over
    the processes (this one runs its share, `crowd.watchers`). Returns its Stats and
    the crowd's."""
    stats = Stats()
    crowd_stats = Stats()
    stop = asyncio.Event()
    tasks = []
    spares = collections.deque(spares)

    def url_of(table_id: int) -> tuple[str, int]:
        port = ports[table_id % len(ports)]  # the proxy's choice (docs/operations.md)
        return f"ws://127.0.0.1:{port}/ws/tables/{table_id}/", port

    async def play_tables(table: BenchTable, track_stats: Stats, crowd_players: bool) -> None:
        initial = True
        while True:
            url, port = url_of(table.table_id)
            track = TableTrack(
                watchers=len(table.watchers), crowd=track_stats if crowd_players else None
            )

            async def watchdog(track: TableTrack = track) -> None:
                while True:
                    await asyncio.sleep(1.0)
                    track.lost(track_stats)

            sockets = [
                client(
                    url,
                    port,
                    key,
                    seat,
                    track,
                    think,
                    track_stats,
                    stop,
                    initial,
                    address=player_address(table.table_id, seat),
                )
                for seat, key in enumerate(table.keys)
            ] + [
                client(
                    url,
                    port,
                    key,
                    PLAYERS + n,
                    track,
                    think,
                    track_stats,
                    stop,
                    initial,
                    address=address,
                    watcher=True,
                )
                for n, (key, address) in enumerate(table.watchers)
            ]
            watching = asyncio.ensure_future(watchdog())
            try:
                over = await asyncio.gather(*sockets)
            finally:
                watching.cancel()
            if stop.is_set() or not all(over[:PLAYERS]):
                return
            track_stats.matches_over += 1
            if not spares:
                track_stats.out_of_spares += 1
                return
            table = spares.popleft()
            initial = False

    async def crowd_watcher(table_id: int, n: int, key: str, address: str, log: Arrivals):
        url, port = url_of(table_id)
        await client(
            url, port, key, n, log, think, crowd_stats, stop, address=address, watcher=True
        )

    async def follow() -> None:
        """Mirrors the coordinator's state: readiness out; measuring and stop in. Also
        the loop's longest stall while measuring."""
        reported = 0
        cpu_from = 0.0
        while not shared.stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.02)
            ready = stats.ready + crowd_stats.ready
            if ready != reported:
                with shared.ready.get_lock():
                    shared.ready.value += ready - reported
                reported = ready
            measuring = shared.measuring.is_set()
            if measuring and not stats.measuring:
                cpu_from = time.process_time()
            elif stats.measuring and not measuring:
                stats.client_cpu = time.process_time() - cpu_from
            if measuring:
                stats.lag = max(stats.lag, time.perf_counter() - before - 0.02)
            stats.measuring = crowd_stats.measuring = measuring
        stop.set()

    follower = asyncio.ensure_future(follow())
    began = time.perf_counter()
    opened = 0  # sockets so far, paced at one every `gap` seconds

    async def pace(sockets: int) -> None:
        nonlocal opened
        opened += sockets
        delay = began + opened * gap - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)

    if crowd is not None:  # first, so that its watchers are all in when measuring starts
        log = Arrivals(crowd_stats, len(crowd.watchers))
        if crowd_part == 0:
            players = crowd._replace(watchers=[])
            tasks.append(asyncio.ensure_future(play_tables(players, crowd_stats, True)))
            await pace(PLAYERS)
        for n, (key, address) in enumerate(crowd.watchers):
            tasks.append(asyncio.ensure_future(crowd_watcher(crowd.table_id, n, key, address, log)))
            await pace(1)
    for table in tables:
        tasks.append(asyncio.ensure_future(play_tables(table, stats, False)))
        await pace(PLAYERS + len(table.watchers))
    await follower
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return stats, crowd_stats


def client_process(ports, tables, spares, think, gap, shared, crowd, crowd_part) -> None:
    stats, crowd_stats = asyncio.run(
        drive_clients(ports, tables, spares, think, gap, shared, crowd, crowd_part)
    )
    shared.results.put((stats.__dict__, crowd_stats.__dict__))


def drive(
    ports: list[int], tables, spares, think: float, args, servers, on_measure=None, crowd=None
):
    """Runs the clients in `--client-processes` processes (each a share of the tables,
    as 2,000 browsers are not one event loop; the crowd table's players in the first,
    its watchers spread over all), waits until every socket holds its state and
    `--warmup` more seconds, then measures for `--seconds`. `on_measure()`, if given,
    is called as measuring starts and returns what to call as it ends. Returns the
    tables' Stats and the crowd table's (its watchers' arrivals from every process)."""
    shared = Shared()
    count = max(1, min(args.client_processes, len(tables)))
    # Every process connects its share at its share of the rate.
    gap = count / args.connect_rate
    workers = [
        multiprocessing.get_context("fork").Process(
            target=client_process,
            args=(
                ports,
                tables[i::count],
                spares[i::count],
                think,
                gap,
                shared,
                crowd._replace(watchers=crowd.watchers[i::count]) if crowd else None,
                i,
            ),
        )
        for i in range(count)
    ]
    clients = sum(PLAYERS + len(table.watchers) for table in [*tables, *([crowd] if crowd else [])])
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    while shared.ready.value < clients and time.perf_counter() - began < 300:
        time.sleep(0.2)
    connected = time.perf_counter() - began
    time.sleep(args.warmup)
    cpu_before = list(servers_status(servers)[1:])
    services_before, machine_before = services_cpu(), machine_busy()
    shared.measuring.set()
    measured = on_measure() if on_measure is not None else None
    began = time.perf_counter()
    peak = 0.0
    while time.perf_counter() - began < args.seconds:
        time.sleep(1)
        peak = max(peak, servers_status(servers)[0])
    shared.measuring.clear()
    if measured is not None:
        measured()
    elapsed = time.perf_counter() - began
    cpu_after = servers_status(servers)[1:]
    cpu = [now - before for now, before in zip(cpu_after, cpu_before, strict=True)]
    services = {
        name: seconds - services_before.get(name, 0.0) for name, seconds in services_cpu().items()
    }
    machine = [after - before for after, before in zip(machine_busy(), machine_before, strict=True)]
    time.sleep(LOST_AFTER + 1.5)  # moves sent while measuring may still be lost
    shared.stop.set()
    parts = [shared.results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(10)
    stats, crowd_stats = Stats(), Stats()
    for whole, part in [(stats, p[0]) for p in parts] + [(crowd_stats, p[1]) for p in parts]:
        for key in (
            "latencies",
            "player_latencies",
            "watcher_latencies",
            "sent",
            "crowd_sent",
            "arrivals",
        ):
            getattr(whole, key).extend(part[key])
        for key in ("errors", "moves", "matches_over", "out_of_spares", "syncs", "ready"):
            setattr(whole, key, getattr(whole, key) + part[key])
        for kind, n in part["error_kinds"].items():
            whole.error_kinds[kind] = whole.error_kinds.get(kind, 0) + n
        whole.lag = max(whole.lag, part["lag"])
        whole.client_cpu += part.get("client_cpu", 0.0)
    stats.elapsed = crowd_stats.elapsed = elapsed
    stats.connect_seconds = connected
    return stats, crowd_stats, peak, cpu, services, machine


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def vacuum() -> None:
    """VACUUM ANALYZE the bench database: dead rows of earlier rounds gone, statistics
    fresh, as autovacuum keeps a production database (PostgreSQL's default; this
    development machine's server runs with autovacuum off)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM (ANALYZE)")


class Round(NamedTuple):
    tables: int
    watchers: int
    rate: float  # moves a second
    errors: int
    cpu_per_move: float  # the servers' CPU, ms
    server: str = "daphne"
    p99: float = float("nan")  # ms, to the last of a table's sockets
    clients_share: float = float("nan")  # the client processes' share of the machine, %


def ms(values: list[float]) -> str:
    """p50/p99/max of latencies in seconds, in ms."""
    lat = [x * 1000 for x in values]
    if not lat:
        return "p50=   nan p99=   nan max=   nan"
    return (
        f"p50={statistics.median(lat):6.1f}ms p99={percentile(lat, 0.99):6.1f}ms "
        f"max={max(lat):6.1f}ms"
    )


def run_round(
    label: str, count: int, think: float, watchers: int, args, env, server: str = "daphne"
) -> Round:
    """Runs one round and prints its line (and the crowd table's, with --crowd).
    With no think time matches end within the round, so spare tables stand ready;
    the crowd table plays in rounds with think time only."""
    spare_count = max(int(count * args.spares), MIN_SPARES) if not think else 0
    run = f"{label}{int(time.time())}"[-9:]
    made, way = make_tables(count + spare_count, run=run, watchers=watchers)
    tables, spares = made[:count], made[count:]
    crowd = None
    if args.crowd and think:
        [crowd], crowd_way = make_tables(1, run=f"{run}c", watchers=args.crowd)
        way = crowd_way if way == "none" else way
    vacuum()
    socks = [listening_socket() for _ in range(args.processes if args.routing == "table" else 1)]
    ports = [sock.getsockname()[1] for sock in socks]
    servers = start_servers(socks, args.processes, env, server)
    try:
        stats, crowd_stats, peak, cpu, services, machine = drive(
            ports, tables, spares, think, args, servers, crowd=crowd
        )
    finally:
        for process in servers:
            process.send_signal(signal.SIGTERM)
        for process in servers:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
        for sock in socks:
            sock.close()
    if os.environ.get("BENCH_DUMP"):
        with open(os.environ["BENCH_DUMP"], "w") as dump:
            for sent, latency in zip(stats.sent, stats.latencies, strict=True):
                dump.write(f"{sent:.4f} {latency * 1000:.1f}\n")
    rate = stats.moves / stats.elapsed if stats.elapsed else 0.0
    kinds = ", ".join(f"{k}={v}" for k, v in sorted(stats.error_kinds.items())) or "-"
    # Every move the servers sent frames for, the crowd table's too.
    all_moves = stats.moves + crowd_stats.moves
    per_move = sum(cpu) / all_moves * 1000 if all_moves else float("nan")
    moves = max(all_moves, 1)
    others = " ".join(
        f"{name}_cpu={seconds / moves * 1000:.2f}ms/move"
        for name, seconds in sorted(services.items())
    )
    cores = os.cpu_count() or 1
    busy = machine[0] / stats.elapsed / cores * 100 if stats.elapsed else 0.0
    # What share of the whole machine the clients took while measuring (their CPU
    # seconds over the wall time and the cores): what the servers did not get.
    clients_share = stats.client_cpu / stats.elapsed / cores * 100 if stats.elapsed else 0.0
    servers_share = sum(cpu) / stats.elapsed / cores * 100 if stats.elapsed else 0.0
    system_share = cpu[1] / sum(cpu) * 100 if sum(cpu) else float("nan")
    split = (
        f"(players {ms(stats.player_latencies)}; watchers {ms(stats.watcher_latencies)}) "
        if watchers
        else ""
    )
    print(
        f"{label:>8} server={server} tables={count:4d} watchers={watchers}/table"
        f"{f' ({way})' if way != 'none' else ''} think={think:.1f}s "
        f"sockets={count * (PLAYERS + watchers)} "
        f"connected_in={stats.connect_seconds:5.1f}s moves={stats.moves:6d} "
        f"rate={rate:6.1f}/s {ms(stats.latencies)} {split}"
        f"errors={stats.errors} ({kinds}) server_rss_peak={peak:.0f}MB "
        f"server_cpu={per_move:.1f}ms/move ({system_share:.0f}% system) "
        f"client_cpu={stats.client_cpu / moves * 1000:.1f}ms/move {others} "
        f"machine_busy={busy:.0f}% (steal {machine[1]:.1f}s; servers {servers_share:.0f}%, "
        f"clients {clients_share:.0f}% of {cores} cores) "
        f"client_loop_lag_max={stats.lag * 1000:.0f}ms "
        f"matches_over={stats.matches_over} (not replaced: {stats.out_of_spares}) "
        f"syncs={stats.syncs}",
        flush=True,
    )
    if crowd is not None:
        to_watchers, lost = crowd_latencies(crowd_stats.crowd_sent, crowd_stats.arrivals)
        if lost:
            crowd_stats.error_kinds["lost_at_watcher"] = lost
            crowd_stats.errors += lost
        kinds = ", ".join(f"{k}={v}" for k, v in sorted(crowd_stats.error_kinds.items())) or "-"
        held = sum(1 for log in crowd_stats.arrivals if log)
        print(
            f"   crowd one table, watchers={args.crowd} (holding a frame: {held}) "
            f"moves={len(to_watchers):4d} to its last watcher {ms(to_watchers)} "
            f"(to its last player {ms(crowd_stats.player_latencies)}) "
            f"errors={crowd_stats.errors} ({kinds}) syncs={crowd_stats.syncs}",
            flush=True,
        )
    return Round(
        count,
        watchers,
        rate,
        stats.errors + crowd_stats.errors,
        per_move,
        server,
        percentile(stats.latencies, 0.99) * 1000,
        clients_share,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="*", default=[50, 200, 500])
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--rate-tables",
        type=int,
        nargs="*",
        default=[20, 50, 100, 300],
        help="tables of the no-think rounds (the best rate is the sustained maximum); none: skip",
    )
    parser.add_argument("--processes", type=int, default=2, help="web processes")
    parser.add_argument(
        "--server",
        nargs="+",
        choices=SERVERS,
        default=["daphne"],
        help="the ASGI server of the web processes; several: every round is run under each, "
        "in turn, in this run",
    )
    parser.add_argument(
        "--target-p99",
        type=float,
        default=0.0,
        help="ms: each think round says whether its p99 is under this and it had no error "
        "(the thousand tables round: 150)",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=2,
        help="processes the clients run in (each a share of the tables)",
    )
    parser.add_argument(
        "--routing",
        choices=["table", "kernel"],
        default="table",
        help="table: each process listens on its own port and a table's sockets all go to "
        "the process its id picks, as the proxy routes them (docs/operations.md); kernel: "
        "one shared socket, the kernel spreads connections over the processes",
    )
    parser.add_argument(
        "--spares",
        type=float,
        default=3.0,
        help=f"spare tables per table (at least {MIN_SPARES}) in no-think rounds, to replace "
        "those whose match ends",
    )
    parser.add_argument("--connect-rate", type=float, default=100.0, help="sockets a second")
    parser.add_argument(
        "--watchers",
        type=int,
        nargs="+",
        default=[0],
        help="watcher sockets per table (signed-in users not seated; docs/watching.md); "
        "several values: every round is run at each, and the servers' CPU per move compared",
    )
    parser.add_argument(
        "--crowd",
        type=int,
        default=0,
        help="one more table, with this many watchers (spread over the client processes), "
        "in the rounds with think time: p99 from its moves to its last watcher",
    )
    args = parser.parse_args()
    if min(args.watchers) < 0 or args.crowd < 0:
        parser.error("--watchers and --crowd count sockets: 0 or more")
    if "granian" in args.server and args.routing == "kernel" and args.processes > 1:
        parser.error("granian binds its own port: --routing table only")
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL, a scratch database) and REDIS_URL")
    setup_django()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    env = {
        **os.environ,
        "TURN_SECONDS_CARD": "3600",
        "TURN_SECONDS_BID": "3600",
        "LOG_LEVEL": "WARNING",
        # Behind one proxy (docs/operations.md): each client's own address counts
        # against the per-address socket limit, not the bench machine's one.
        "TRUSTED_PROXY_COUNT": "1",
        "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE", "600"),
        "WEB_DB_THREADS": os.environ.get("WEB_DB_THREADS", str(settings.WEB_DB_THREADS)),
    }
    # Each watcher is its own user, so WATCH_SOCKETS_PER_USER never refuses one; a
    # crowd past WATCHERS_PER_TABLE (200) would be refused by design, so it is raised.
    per_table = getattr(settings, "WATCHERS_PER_TABLE", 200)
    if args.crowd > per_table:
        env["WATCHERS_PER_TABLE"] = str(args.crowd)
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: {platform.platform()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
        f"{os.getloadavg()[0]:.2f}; {args.processes} web processes of "
        f"{' then '.join(args.server)}, routing by {args.routing} "
        f"(DEBUG={env['DEBUG']}, DATABASE_CONN_MAX_AGE={env['DATABASE_CONN_MAX_AGE']}, "
        f"WEB_DB_THREADS={env['WEB_DB_THREADS']}), PostgreSQL, channels-redis pub/sub; "
        f"clients in {args.client_processes} processes, connecting at {args.connect_rate:g}/s; "
        f"watchers a table: {', '.join(map(str, args.watchers))}"
        + (
            f"; a crowd table of {args.crowd} watchers "
            f"(WATCHERS_PER_TABLE={env.get('WATCHERS_PER_TABLE', per_table)})"
            if args.crowd
            else ""
        ),
        flush=True,
    )
    for server in args.server:
        run_server(server, args, env)


def per_watcher(base: Round, other: Round) -> float:
    """The servers' CPU a move that each watcher a table adds, in ms."""
    return (other.cpu_per_move - base.cpu_per_move) / (other.watchers - base.watchers)


def run_server(server: str, args, env) -> None:
    """Every round of the run under one ASGI server, and its summaries."""
    thinking = [
        run_round("think", count, args.think, watchers, args, env, server)
        for watchers in args.watchers
        for count in args.tables
    ]
    if args.target_p99:
        for r in thinking:
            met = r.errors == 0 and r.p99 < args.target_p99
            print(
                f"{server}, {r.tables} tables, {r.watchers} watchers a table: p99 {r.p99:.1f}ms, "
                f"{r.errors} errors: {'met' if met else 'MISSED'} (p99 < {args.target_p99:g}ms, "
                f"no error); the clients took {r.clients_share:.0f}% of the machine",
                flush=True,
            )
    if len(args.watchers) > 1:
        for count in args.tables:
            rounds = [r for r in thinking if r.tables == count]
            base = rounds[0]
            print(
                f"{server}: server CPU per move at {count} tables: "
                + ", ".join(
                    f"{r.watchers} watchers/table {r.cpu_per_move:.2f}ms"
                    + (
                        f" ({(r.cpu_per_move / base.cpu_per_move - 1) * 100:+.0f}%, "
                        f"{per_watcher(base, r):+.3f}ms a watcher)"
                        if r is not base and base.cpu_per_move and r.watchers != base.watchers
                        else ""
                    )
                    for r in rounds
                ),
                flush=True,
            )
    for watchers in args.watchers:
        rates = [
            run_round("no-think", count, 0.0, watchers, args, env, server)
            for count in args.rate_tables or []
        ]
        if rates:
            best = max(rates, key=lambda result: result.rate)
            print(
                f"{server}: highest sustained move rate with no think time, {watchers} watchers "
                f"a table: {best.rate:.1f}/s ({best.tables} tables, {best.errors} errors, "
                f"server CPU {best.cpu_per_move:.2f}ms/move)",
                flush=True,
            )


if __name__ == "__main__":
    main()
