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
DATABASE_CONN_MAX_AGE=60, WEB_DB_THREADS as the site's default unless set. The database named in
DATABASE_URL is migrated and filled by the script, and vacuumed before each round
(as autovacuum would): give it a scratch database.
Figures: docs/benchmarks.md, "Tables".
"""

from __future__ import annotations

import argparse
import asyncio
import collections
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

    def error(self, kind: str) -> None:
        self.errors += 1
        self.error_kinds[kind] = self.error_kinds.get(kind, 0) + 1


MIN_SPARES = 300  # no-think rounds: short matches end by the dozen a second
LOST_AFTER = 5.0  # seconds: a move whose frame has not come by then counts as lost
HANDSHAKE_TIMEOUT = 60  # seconds, for the client and for daphne (its default is 5)


class TableTrack:
    """The moves in flight at one table: when each was sent, and which of the four
    sockets already hold a frame at or past it (the latency counts until the last)."""

    def __init__(self) -> None:
        self.pending: dict[int, tuple[float, bool, set[int]]] = {}  # version -> ...

    def sent(self, version: int, measured: bool) -> None:
        self.pending[version] = (time.perf_counter(), measured, set())

    def holds(self, seat: int, version: int, stats: Stats, seats: int = 4) -> None:
        """`seat` received a frame of `version`: every move before it reached that seat."""
        for moved in [v for v in self.pending if v < version]:
            started, measured, reached = self.pending[moved]
            reached.add(seat)
            if len(reached) == seats:
                del self.pending[moved]
                if measured and stats.measuring:
                    stats.latencies.append(time.perf_counter() - started)
                    stats.sent.append(started)
                    stats.moves += 1

    def lost(self, stats: Stats) -> None:
        now = time.perf_counter()
        for version, (started, measured, _) in list(self.pending.items()):
            if now - started > LOST_AFTER:
                del self.pending[version]
                if measured:
                    stats.error("lost")


async def client(
    url: str,
    port: int,
    session_key: str,
    seat: int,
    track: TableTrack,
    think: float,
    stats: Stats,
    stop: asyncio.Event,
    initial: bool = True,
    address: str = "",
) -> bool:
    """One player's socket, doing per frame what the table page's script does
    (static/js/table.js): parse the frame, drop a stale one (`seq` lower than one
    drawn), ask for the whole state (`sync`) when `seq` skips, and draw from the
    frame: no HTTP request. True when it ends because the match is over. `address`:
    the player's own, as the proxy in front would write it (X-Forwarded-For; the
    servers trust one proxy), so each counts against its own per-address limit."""
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
                    legal = (view.get("hand") or {}).get("legal_actions") or []
                    if legal and version not in played:
                        played.add(version)
                        pending = asyncio.ensure_future(play(random.choice(legal), version))
                if not stop.is_set():  # the server closed it (a clean close)
                    stats.error("closed")
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


def start_servers(
    socks: list[socket.socket], count: int, env: dict[str, str]
) -> list[subprocess.Popen]:
    """`count` daphne processes: with one socket all adopt it, else process i adopts socket i."""
    servers = []
    for i in range(count):
        fd = socks[i % len(socks)].fileno()
        command = [str(ROOT / ".venv/bin/daphne"), "--fd", str(fd), "-v", "0"]
        command += ["--websocket_connect_timeout", str(HANDSHAKE_TIMEOUT)]
        log = open(os.environ.get("BENCH_SERVER_LOG", os.devnull), "a")  # noqa: SIM115
        servers.append(
            subprocess.Popen(
                [*command, "cuatrola_site.asgi:application"],
                cwd=ROOT,
                env=env,
                pass_fds=(fd,),
                stdout=subprocess.DEVNULL,
                stderr=log,
            )
        )
    time.sleep(3)  # Django set-up; the socket already queues connections meanwhile
    for server in servers:
        if server.poll() is not None:
            raise RuntimeError("daphne did not start")
    return servers


class Shared:
    """What the client processes and the coordinating process share."""

    def __init__(self) -> None:
        self.ready = multiprocessing.Value("i", 0)  # sockets holding their state
        self.measuring = multiprocessing.Event()
        self.stop = multiprocessing.Event()
        self.results: multiprocessing.Queue = multiprocessing.Queue()


async def drive_clients(ports: list[int], tables, spares, think: float, gap: float, shared):
    """One client process: plays `tables`; a table whose match ends is replaced by the
    next of `spares` (its four players connect to it), so the offered load lasts the
    whole round. Returns its Stats."""
    stats = Stats()
    stop = asyncio.Event()
    tasks = []
    spares = collections.deque(spares)

    async def play_tables(table_id: int, keys: list[str]) -> None:
        initial = True
        while True:
            port = ports[table_id % len(ports)]  # the proxy's choice (docs/operations.md)
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}/"
            track = TableTrack()

            async def watchdog(track: TableTrack = track) -> None:
                while True:
                    await asyncio.sleep(1.0)
                    track.lost(stats)

            watching = asyncio.ensure_future(watchdog())
            try:
                over = await asyncio.gather(
                    *(
                        client(
                            url,
                            port,
                            key,
                            seat,
                            track,
                            think,
                            stats,
                            stop,
                            initial,
                            address=player_address(table_id, seat),
                        )
                        for seat, key in enumerate(keys)
                    )
                )
            finally:
                watching.cancel()
            if stop.is_set() or not all(over):
                return
            stats.matches_over += 1
            if not spares:
                stats.out_of_spares += 1
                return
            table_id, keys = spares.popleft()
            initial = False

    async def follow() -> None:
        """Mirrors the coordinator's state: readiness out; measuring and stop in. Also
        the loop's longest stall while measuring."""
        reported = 0
        cpu_from = 0.0
        while not shared.stop.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.02)
            if stats.ready != reported:
                with shared.ready.get_lock():
                    shared.ready.value += stats.ready - reported
                reported = stats.ready
            measuring = shared.measuring.is_set()
            if measuring and not stats.measuring:
                cpu_from = time.process_time()
            elif stats.measuring and not measuring:
                stats.client_cpu = time.process_time() - cpu_from
            if measuring:
                stats.lag = max(stats.lag, time.perf_counter() - before - 0.02)
            stats.measuring = measuring
        stop.set()

    follower = asyncio.ensure_future(follow())
    began = time.perf_counter()
    for n, (table_id, keys) in enumerate(tables):
        tasks.append(asyncio.ensure_future(play_tables(table_id, keys)))
        # Paced: a table's four sockets every 4 * gap seconds.
        delay = began + (n + 1) * len(keys) * gap - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
    await follower
    await asyncio.wait(tasks, timeout=10)
    for task in tasks:
        task.cancel()
    return stats


def client_process(ports, tables, spares, think, gap, shared) -> None:
    stats = asyncio.run(drive_clients(ports, tables, spares, think, gap, shared))
    shared.results.put(stats.__dict__)


def drive(ports: list[int], tables, spares, think: float, args, servers, on_measure=None):
    """Runs the clients in `--client-processes` processes (each a share of the tables,
    as 2,000 browsers are not one event loop), waits until every socket holds its
    state and `--warmup` more seconds, then measures for `--seconds`. `on_measure()`,
    if given, is called as measuring starts and returns what to call as it ends."""
    shared = Shared()
    count = max(1, min(args.client_processes, len(tables)))
    # Every process connects its share at its share of the rate.
    gap = count / args.connect_rate
    workers = [
        multiprocessing.get_context("fork").Process(
            target=client_process,
            args=(ports, tables[i::count], spares[i::count], think, gap, shared),
        )
        for i in range(count)
    ]
    clients = sum(len(keys) for _, keys in tables)
    began = time.perf_counter()
    for worker in workers:
        worker.start()
    while shared.ready.value < clients and time.perf_counter() - began < 300:
        time.sleep(0.2)
    connected = time.perf_counter() - began
    time.sleep(args.warmup)
    cpu_before = [sum(proc_status(s.pid)[i] for s in servers) for i in (1, 2)]
    services_before, machine_before = services_cpu(), machine_busy()
    shared.measuring.set()
    measured = on_measure() if on_measure is not None else None
    began = time.perf_counter()
    peak = 0.0
    while time.perf_counter() - began < args.seconds:
        time.sleep(1)
        peak = max(peak, sum(proc_status(s.pid)[0] for s in servers))
    shared.measuring.clear()
    if measured is not None:
        measured()
    elapsed = time.perf_counter() - began
    cpu = [sum(proc_status(s.pid)[i] for s in servers) - cpu_before[i - 1] for i in (1, 2)]
    services = {
        name: seconds - services_before.get(name, 0.0) for name, seconds in services_cpu().items()
    }
    machine = [after - before for after, before in zip(machine_busy(), machine_before, strict=True)]
    time.sleep(LOST_AFTER + 1.5)  # moves sent while measuring may still be lost
    shared.stop.set()
    parts = [shared.results.get(timeout=60) for _ in workers]
    for worker in workers:
        worker.join(10)
    stats = Stats()
    for part in parts:
        for key in ("latencies", "sent"):
            getattr(stats, key).extend(part[key])
        for key in ("errors", "moves", "matches_over", "out_of_spares", "syncs"):
            setattr(stats, key, getattr(stats, key) + part[key])
        for kind, n in part["error_kinds"].items():
            stats.error_kinds[kind] = stats.error_kinds.get(kind, 0) + n
        stats.lag = max(stats.lag, part["lag"])
        stats.client_cpu += part.get("client_cpu", 0.0)
    stats.elapsed = elapsed
    stats.connect_seconds = connected
    return stats, peak, cpu, services, machine


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


def run_round(label: str, count: int, think: float, args, env) -> tuple[int, float, int]:
    """Runs one round and prints its line; returns (tables, moves a second, errors).
    With no think time matches end within the round, so spare tables stand ready."""
    spare_count = max(int(count * args.spares), MIN_SPARES) if not think else 0
    made = make_tables(count + spare_count, run=f"{label}{int(time.time())}"[-9:])
    tables, spares = made[:count], made[count:]
    vacuum()
    socks = [listening_socket() for _ in range(args.processes if args.routing == "table" else 1)]
    ports = [sock.getsockname()[1] for sock in socks]
    servers = start_servers(socks, args.processes, env)
    try:
        stats, peak, cpu, services, machine = drive(ports, tables, spares, think, args, servers)
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(10)
            except subprocess.TimeoutExpired:
                server.kill()
        for sock in socks:
            sock.close()
    if os.environ.get("BENCH_DUMP"):
        with open(os.environ["BENCH_DUMP"], "w") as dump:
            for sent, latency in zip(stats.sent, stats.latencies, strict=True):
                dump.write(f"{sent:.4f} {latency * 1000:.1f}\n")
    lat = [x * 1000 for x in stats.latencies]
    rate = stats.moves / stats.elapsed if stats.elapsed else 0.0
    kinds = ", ".join(f"{k}={v}" for k, v in sorted(stats.error_kinds.items())) or "-"
    per_move = sum(cpu) / stats.moves * 1000 if stats.moves else float("nan")
    moves = max(stats.moves, 1)
    others = " ".join(
        f"{name}_cpu={seconds / moves * 1000:.2f}ms/move"
        for name, seconds in sorted(services.items())
    )
    busy = machine[0] / stats.elapsed / (os.cpu_count() or 1) * 100 if stats.elapsed else 0.0
    system_share = cpu[1] / sum(cpu) * 100 if sum(cpu) else float("nan")
    print(
        f"{label:>8} tables={count:4d} think={think:.1f}s sockets={count * 4} "
        f"connected_in={stats.connect_seconds:5.1f}s moves={stats.moves:6d} "
        f"rate={rate:6.1f}/s p50={statistics.median(lat) if lat else float('nan'):6.1f}ms "
        f"p99={percentile(lat, 0.99):6.1f}ms max={max(lat) if lat else float('nan'):6.1f}ms "
        f"errors={stats.errors} ({kinds}) server_rss_peak={peak:.0f}MB "
        f"server_cpu={per_move:.1f}ms/move ({system_share:.0f}% system) "
        f"client_cpu={stats.client_cpu / max(stats.moves, 1) * 1000:.1f}ms/move {others} "
        f"machine_busy={busy:.0f}% (steal {machine[1]:.1f}s) "
        f"client_loop_lag_max={stats.lag * 1000:.0f}ms "
        f"matches_over={stats.matches_over} (not replaced: {stats.out_of_spares}) "
        f"syncs={stats.syncs}",
        flush=True,
    )
    return count, rate, stats.errors


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
    parser.add_argument("--processes", type=int, default=2, help="daphne processes")
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
    args = parser.parse_args()
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
        "DATABASE_CONN_MAX_AGE": os.environ.get("DATABASE_CONN_MAX_AGE", "60"),
        "WEB_DB_THREADS": os.environ.get("WEB_DB_THREADS", str(settings.WEB_DB_THREADS)),
    }
    print(
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; machine: {platform.platform()}, "
        f"{os.cpu_count()} CPUs, Python {platform.python_version()}, load average "
        f"{os.getloadavg()[0]:.2f}; {args.processes} daphne processes, routing by {args.routing} "
        f"(DEBUG={env['DEBUG']}, DATABASE_CONN_MAX_AGE={env['DATABASE_CONN_MAX_AGE']}, "
        f"WEB_DB_THREADS={env['WEB_DB_THREADS']}), PostgreSQL, channels-redis pub/sub; "
        f"clients in {args.client_processes} processes, connecting at {args.connect_rate:g}/s",
        flush=True,
    )
    for count in args.tables:
        run_round("think", count, args.think, args, env)
    rates = [run_round("no-think", count, 0.0, args, env) for count in args.rate_tables or []]
    if rates:
        best = max(rates, key=lambda result: result[1])
        print(
            f"highest sustained move rate with no think time: {best[1]:.1f}/s "
            f"({best[0]} tables, {best[2]} errors)",
            flush=True,
        )


if __name__ == "__main__":
    main()
