"""Does the site behave the same under each ASGI server? (issue 45, docs/operations.md,
"Web server")

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/cuatrola_bench \
    REDIS_URL=redis://127.0.0.1:6379/3 \
    .venv/bin/python bench/servers_check.py --server daphne uvicorn granian

For each server it starts one web process as bench/tables_bench.py does (the same
command line), behind "one proxy" (TRUSTED_PROXY_COUNT=1, each client's address in
X-Forwarded-For), and checks what the pages and the front door rely on:

- the lifespan: the process starts and `/healthz` answers 200 `ok`;
- close codes the application sends: 4401 (no session), 4404 (no such table), 4403
  (a banned user), 4431 (one socket over SOCKETS_PER_ADDRESS from one address, as
  X-Forwarded-For names it: another address is still let in, and an address the
  client wrote left of the proxy's is ignored);
- a graceful restart: on SIGTERM `/healthz` answers 503 during the notice, the open
  socket is closed with 4500, and the process exits by itself.

Prints one line per check and server (ok, or what happened instead). 4503 (the
database failed while a socket opened) is sent by the same `websocket.close` as the
others and is not provoked here. The database named in DATABASE_URL is migrated and
given a few users and a table: a scratch database.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("ALLOWED_HOSTS", "127.0.0.1,localhost")
os.environ.setdefault("SECRET_KEY", "bench-only-secret-key-" + "x" * 40)

from bench.tables_bench import (  # noqa: E402
    SERVERS,
    listening_socket,
    session_key,
    setup_django,
    start_servers,
)

PER_ADDRESS = 3  # SOCKETS_PER_ADDRESS for the check
NOTICE = 2.0  # SHUTDOWN_NOTICE_SECONDS for the check


def cast() -> dict[str, object]:
    """A started friends room of four, its fourth player banned: their sessions."""
    from accounts.models import User
    from accounts.services import user_ban
    from games import services

    run = str(int(time.time()))[-6:]

    def user(name: str, **extra):
        return User.objects.create_user(
            username=f"c{run}{name}", email=f"c{run}{name}@check.local", password=None, **extra
        )

    players = [user(f"p{n}") for n in range(4)]
    table = services.table_create_friends(user=players[0])
    for player in players[1:]:
        invitation = services.invitation_create(
            user=players[0], table_id=table.pk, username=player.username
        )
        services.invitation_accept(user=player, invitation_id=invitation.pk)
    services.match_start(user=players[0], table_id=table.pk, seed=1)
    staff = user("staff", is_staff=True, is_superuser=True)
    banned = players[3]  # one who may see the table: a stranger would get 4404 first
    user_ban(user=banned, staff_user=staff, reason="servers check")
    return {
        "table": table.pk,
        "players": [session_key(player) for player in players],
        "banned": session_key(banned),
    }


async def close_code(
    port: int, path: str, session: str | None, forwarded: str = "10.9.9.9"
) -> int | str:
    """Opens a socket and returns the code it is closed with ("open" if it stays open
    a second and a half, "refused" if the handshake fails)."""
    import websockets

    headers = {"Origin": f"http://127.0.0.1:{port}", "X-Forwarded-For": forwarded}
    if session:
        headers["Cookie"] = f"sessionid={session}"
    try:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}{path}", additional_headers=headers, open_timeout=10
        ) as ws:
            try:
                async with asyncio.timeout(1.5):
                    async for _ in ws:
                        pass
            except TimeoutError:
                return "open"
            except websockets.ConnectionClosed:
                pass  # any code but 1000 and 1001
            return ws.close_code if ws.close_code is not None else "no code"
    except websockets.InvalidStatus as error:
        return f"refused {error.response.status_code}"


def healthz(port: int) -> str:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
            return f"{response.status} {response.read().decode()}"
    except urllib.error.HTTPError as error:
        return f"{error.code} {error.read().decode()}"
    except OSError as error:
        return f"down ({error})"


async def held_open(port: int, path: str, session: str, addresses: list[str]):
    """Sockets kept open (each from its own address), once each has its state."""
    import websockets

    sockets = []
    for address in addresses:
        ws = await websockets.connect(
            f"ws://127.0.0.1:{port}{path}",
            additional_headers={
                "Origin": f"http://127.0.0.1:{port}",
                "Cookie": f"sessionid={session}",
                "X-Forwarded-For": address,
            },
        )
        await ws.recv()  # its state
        sockets.append(ws)
    return sockets


async def restart_code(ws) -> int | str:
    import websockets

    try:
        async with asyncio.timeout(30):
            async for _ in ws:
                pass
    except TimeoutError:
        return "still open"
    except websockets.ConnectionClosed:
        pass
    return ws.close_code if ws.close_code is not None else "no code"


def check(server: str, people: dict, env: dict[str, str]) -> list[tuple[str, str, bool]]:
    sock = listening_socket()
    port = sock.getsockname()[1]
    [process] = start_servers([sock], 1, env, server)
    table = f"/ws/tables/{people['table']}/"
    results: list[tuple[str, str, bool]] = []

    def note(what: str, got: object, expected: object) -> None:
        results.append((what, str(got), got == expected))

    try:
        note("lifespan, /healthz", healthz(port), "200 ok")
        note("no session: 4401", asyncio.run(close_code(port, table, None)), 4401)
        note(
            "no such table: 4404",
            asyncio.run(close_code(port, "/ws/tables/999999999/", people["players"][0])),
            4404,
        )
        note("banned: 4403", asyncio.run(close_code(port, table, people["banned"])), 4403)

        async def per_address_one() -> tuple[object, object]:
            keys = people["players"]
            sockets = await held_open(port, table, keys[0], ["10.1.1.1"] * 2)
            sockets += await held_open(port, table, keys[1], ["10.1.1.1"])
            extra = await close_code(port, table, keys[2], "7.7.7.7, 10.1.1.1")
            other = await close_code(port, table, keys[2], "10.2.2.2")
            for ws in sockets:
                await ws.close()
            return extra, other

        extra, other = asyncio.run(per_address_one())
        note(f"{PER_ADDRESS + 1}th socket from one proxied address: 4431", extra, 4431)
        note("another address: open", other, "open")

        async def restart() -> None:
            [ws] = await held_open(port, table, people["players"][0], ["10.3.3.3"])
            process.send_signal(signal.SIGTERM)
            await asyncio.sleep(NOTICE / 2)
            note("SIGTERM: /healthz during the notice", healthz(port), "503 restarting")
            note("SIGTERM: the open socket closed with 4500", await restart_code(ws), 4500)

        asyncio.run(restart())
        try:
            process.wait(30)
            note("SIGTERM: the process exits by itself", "exited", "exited")
        except subprocess.TimeoutExpired:
            note("SIGTERM: the process exits by itself", "still running after 30 s", "exited")
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(10)
        sock.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", nargs="+", choices=SERVERS, default=list(SERVERS))
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres") or not os.environ.get(
        "REDIS_URL"
    ):
        sys.exit("set DATABASE_URL (PostgreSQL, a scratch database) and REDIS_URL")
    setup_django()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    people = cast()
    env = {
        **os.environ,
        "LOG_LEVEL": "WARNING",
        "TRUSTED_PROXY_COUNT": "1",
        "SOCKETS_PER_ADDRESS": str(PER_ADDRESS),
        "SHUTDOWN_NOTICE_SECONDS": str(NOTICE),
        "SHUTDOWN_DRAIN_SECONDS": "10",
    }
    failed = 0
    for server in args.server:
        for what, got, ok in check(server, people, env):
            failed += not ok
            print(f"{server:8} {'ok  ' if ok else 'DIFF'} {what}: {got}", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
