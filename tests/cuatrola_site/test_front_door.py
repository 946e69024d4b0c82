"""The stack's front door, running: the shipped deploy/caddy/Caddyfile with Debian's
caddy (2.6; the stack runs it in the caddy:2 image), over HTTPS with Caddy's own
certificate for 127.0.0.1, in front of two uvicorn processes (docker-compose.yml's web
command and flags) with the production settings of .env.example (HTTPS=1,
BEHIND_PROXY=1, TRUSTED_PROXY_COUNT=1) that share this run's PostgreSQL and Redis, as
web1 and web2 share the stack's.

Which process answered: each is started with its own `Server` header (uvicorn's
`--header server:<name>`), which it sends with every response and websocket handshake
(Caddy passes it on). The name is given here only; the stack's processes send
uvicorn's default, so nothing is exposed that a visitor could not already see.

That the stack runs this Caddyfile and publishes no web port but through it is
checked from docker-compose.yml in test_docker_compose.py.
"""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import re
import socket
import ssl
import subprocess
import threading
from pathlib import Path
from urllib.parse import quote, urlencode

import pytest
import websockets
from django.conf import settings
from django.test import Client

from tests.conftest import CADDY_PATH
from tests.web_server import web_command

ROOT = Path(__file__).resolve().parents[2]
CADDYFILE = ROOT / "deploy" / "caddy" / "Caddyfile"
NAMES = ("front-door-web-a", "front-door-web-b")
STARTUP_SECONDS = 120  # two Django start-ups on a loaded machine

pytestmark = [
    pytest.mark.caddy,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),  # the web processes read the rows
]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """This run's test database, for the web processes."""
    db = settings.DATABASES["default"]
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    return f"postgres://{user}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


class CaddyLog:
    """Caddy's log (JSON lines on stderr), read as it comes: waits for a message."""

    def __init__(self, stream) -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream) -> None:
        for line in stream:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.lines.append("")  # end of the log: Caddy stopped
            self.changed.notify_all()

    def wait_for(self, message: str, timeout: float) -> None:
        def seen() -> bool:
            return any(message in line for line in self.lines) or "" in self.lines

        with self.changed:
            self.changed.wait_for(seen, timeout)
            if not any(message in line for line in self.lines):
                pytest.fail(f"Caddy never logged {message!r}:\n{''.join(self.lines)}")


class FrontDoor:
    def __init__(self, port: int, context: ssl.SSLContext) -> None:
        self.port = port
        self.origin = f"https://127.0.0.1:{port}"
        self.context = context

    def request(
        self,
        method: str,
        path: str,
        *,
        headers: dict[str, str] | None = None,
        body: str | None = None,
        source: str = "127.0.0.1",
    ) -> tuple[int, http.client.HTTPMessage, str]:
        """One HTTPS request through the proxy, from the client address `source`."""
        connection = http.client.HTTPSConnection(
            "127.0.0.1", self.port, context=self.context, timeout=60, source_address=(source, 0)
        )
        try:
            connection.request(method, path, body=body, headers=headers or {})
            response = connection.getresponse()
            return response.status, response.headers, response.read().decode()
        finally:
            connection.close()


def served_by(headers) -> str:
    """The web process that answered (its `Server` header, passed on by Caddy)."""
    (name,) = [value for value in headers.get_all("Server") or [] if value in NAMES]
    return name


@pytest.fixture
def front_door(transactional_db, tmp_path):
    port, redirect_port = free_port(), free_port()
    listeners = []
    for _ in NAMES:  # bound now: connections wait in the backlog while uvicorn starts
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(128)
        listeners.append(sock)
    addresses = [sock.getsockname() for sock in listeners]
    upstreams = " ".join(f"{host}:{port}" for host, port in addresses)
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))}
    for name in ("DEBUG", "HTTPS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS"):
        keep.pop(name, None)
    site_env = {
        **keep,
        # .env.example's production values, behind this proxy.
        "DEBUG": "0",
        "HTTPS": "1",
        "BEHIND_PROXY": "1",
        "TRUSTED_PROXY_COUNT": "1",
        "ALLOWED_HOSTS": "127.0.0.1",
        "CSRF_TRUSTED_ORIGINS": f"https://127.0.0.1:{port}",
        "SECRET_KEY": settings.SECRET_KEY,  # the sessions made here are signed with it
        "STATIC_MANIFEST": "0",
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
    }
    logs = [tmp_path / f"{name}.log" for name in NAMES]
    processes: list[subprocess.Popen] = []
    try:
        for name, sock, log in zip(NAMES, listeners, logs, strict=True):
            extra = ("--header", f"server:{name}", "--no-access-log")
            with log.open("w") as stderr:
                processes.append(
                    subprocess.Popen(
                        web_command(fd=sock.fileno(), extra=extra),
                        cwd=ROOT,
                        env=site_env,
                        pass_fds=(sock.fileno(),),
                        stdout=subprocess.DEVNULL,
                        stderr=stderr,
                    )
                )
        for sock in listeners:  # uvicorn's now: should it die, connecting fails at once
            sock.close()
        caddy = subprocess.Popen(
            [CADDY_PATH, "run", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
            env={
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": str(tmp_path),
                "XDG_DATA_HOME": str(tmp_path / "caddy-data"),
                "XDG_CONFIG_HOME": str(tmp_path / "caddy-config"),
                "SITE_ADDRESS": f"https://127.0.0.1:{port}",
                "WEB_UPSTREAMS": upstreams,
                "CADDY_HTTP_PORT": str(redirect_port),
                "CADDY_ADMIN": "off",  # no fixed admin port shared with other runs
            },
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        processes.append(caddy)
        caddy_log = CaddyLog(caddy.stderr)
        # Each process answers once Django is up (the request waited in the backlog),
        # before the proxy may send it anything: a refused connection would make Caddy
        # leave that process out for 30 s (fail_duration).
        for address, log in zip(addresses, logs, strict=True):
            probe = http.client.HTTPConnection(*address, timeout=STARTUP_SECONDS)
            try:
                probe.request("GET", "/healthz")
                assert probe.getresponse().status == 200
            except OSError:
                pytest.fail(f"uvicorn did not start:\n{log.read_text()}")
            finally:
                probe.close()
        caddy_log.wait_for("serving initial configuration", STARTUP_SECONDS)
        caddy_log.wait_for("certificate obtained successfully", STARTUP_SECONDS)
        root = tmp_path / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        yield FrontDoor(port, ssl.create_default_context(cafile=str(root)))
    finally:
        for sock in listeners:
            sock.close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def sessions(users) -> list[str]:
    """A logged-in session cookie for each user."""
    cookies = []
    for user in users:
        client = Client()
        client.force_login(user)
        cookies.append(f"sessionid={client.cookies['sessionid'].value}")
    return cookies


def test_the_shipped_front_door(front_door, make_user):
    """One start of the three processes (Django's start-ups are most of the time),
    four things shown."""
    a_tables_four_sockets_reach_one_process(front_door, make_user)
    other_tables_and_pages_reach_both_processes(front_door)
    the_client_cannot_choose_the_scheme(front_door)
    the_client_cannot_choose_the_address_the_limits_count(front_door)
    metrics_are_not_served_through_the_front_door(front_door)


def a_tables_four_sockets_reach_one_process(front_door: FrontDoor, make_user) -> None:
    from games import services

    players = [make_user(name) for name in ("ana", "bea", "cai", "dan")]
    table = services.table_create_friends(user=players[0])
    for player in players[1:]:
        invitation = services.invitation_create(
            user=players[0], table_id=table.pk, username=player.username
        )
        services.invitation_accept(user=player, invitation_id=invitation.pk)
    services.match_start(user=players[0], table_id=table.pk, seed=7)
    cookies = sessions(players)

    async def player_socket(cookie: str) -> tuple[str, dict]:
        async with websockets.connect(
            f"wss://127.0.0.1:{front_door.port}/ws/tables/{table.pk}/",
            ssl=front_door.context,
            origin=front_door.origin,
            additional_headers={"Cookie": cookie},
            open_timeout=60,
        ) as ws:
            # The player's state, once it is read (the table's updates about the
            # others connecting may come first).
            while (frame := json.loads(await asyncio.wait_for(ws.recv(), 60)))["type"] != "state":
                pass
            return served_by(ws.response.headers), frame

    async def four_players() -> list[tuple[str, dict]]:
        return await asyncio.gather(*(player_socket(cookie) for cookie in cookies))

    answered = asyncio.run(four_players())
    assert len({name for name, _ in answered}) == 1, answered  # all by the same process


def other_tables_and_pages_reach_both_processes(front_door: FrontDoor) -> None:
    async def handshake(path: str) -> str:
        async with websockets.connect(
            f"wss://127.0.0.1:{front_door.port}{path}",
            ssl=front_door.context,
            origin=front_door.origin,
            open_timeout=60,
        ) as ws:  # anonymous: accepted, then closed by the site (4401)
            return served_by(ws.response.headers)

    async def tables(count: int) -> set[str]:
        return {await handshake(f"/ws/tables/{n}/") for n in range(1, count + 1)}

    # Each table id hashes to one process: 24 ids all on one of two, one chance in 8
    # million.
    assert asyncio.run(tables(24)) == set(NAMES)
    # Any other path: to each process in turn.
    answered_by = {}
    pages = ["/", "/accounts/login/", "/static/css/site.css", "/healthz", "/no-such-page/"]
    for path in pages:
        status, headers, _ = front_door.request("GET", path)
        assert status == (404 if "no-such" in path else 200), path
        answered_by[path] = served_by(headers)
    assert set(answered_by.values()) == set(NAMES), answered_by


def the_client_cannot_choose_the_scheme(front_door: FrontDoor) -> None:
    # Over HTTPS, a client claiming plain HTTP: Caddy says https, so Django (HTTPS=1)
    # neither redirects nor drops HSTS.
    status, headers, _ = front_door.request("GET", "/", headers={"X-Forwarded-Proto": "http"})
    assert status == 200 and "max-age=" in headers["Strict-Transport-Security"]


def the_client_cannot_choose_the_address_the_limits_count(front_door: FrontDoor) -> None:
    """allauth's password-reset limit, 20 a minute per client address (counted in
    the shared Redis, whichever process answers): the cheapest per-address limit to
    trip (the log-in limit hashes a password per attempt). Every per-address limit
    reads the same address (allauth's get_client_ip, TRUSTED_PROXY_COUNT)."""
    _, headers, _ = front_door.request("GET", "/accounts/password/reset/")
    token = re.search(r"csrftoken=([^;]+)", headers["Set-Cookie"]).group(1)

    def reset(index: int, source: str = "127.0.0.1") -> int:
        """A reset for another address each time, from the client address `source`,
        the client naming another address of its own in X-Forwarded-For each time."""
        status, _, _ = front_door.request(
            "POST",
            "/accounts/password/reset/",
            headers={
                "X-Forwarded-For": f"198.51.100.{index}",
                "Cookie": f"csrftoken={token}",
                "Origin": front_door.origin,
                "Referer": f"{front_door.origin}/accounts/password/reset/",
                "Content-Type": "application/x-www-form-urlencoded",
            },
            body=urlencode({"email": f"nobody{index}@example.com", "csrfmiddlewaretoken": token}),
            source=source,
        )
        return status

    statuses = [reset(index) for index in range(21)]
    assert statuses == [302] * 20 + [429]  # the spoofed addresses changed nothing
    # Another client (another address on the loopback, the same forged header) has its
    # own limit: the address counted is the one Caddy saw, not the proxy's own either.
    assert reset(21, source="127.0.0.2") == 302


def metrics_are_not_served_through_the_front_door(front_door: FrontDoor) -> None:
    """/metrics is for Prometheus on the stack's network: through the proxy it does
    not exist, whatever the client claims to be."""
    for path in ("/metrics", "/metrics?name[]=x", "/metrics/"):
        status, _, body = front_door.request("GET", path, headers={"X-Forwarded-For": "127.0.0.1"})
        assert status == 404, path
        assert "cuatrola_" not in body
