"""A web process's graceful restart, running: uvicorn with the stack's flags
(docker-compose.yml; cuatrola_site/shutdown.py wraps its SIGTERM handler as the ASGI
lifespan starts). On SIGTERM its /healthz answers 503, its table sockets are closed
with 4500, and it exits by itself once they have closed."""

from __future__ import annotations

import asyncio
import http.client
import os
import signal
import socket
import subprocess
import time

import pytest
import websockets
from django.conf import settings

from games import services
from tests.cuatrola_site.test_front_door import ROOT, STARTUP_SECONDS, database_url, sessions
from tests.web_server import web_command

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _health(port: int) -> int:
    probe = http.client.HTTPConnection("127.0.0.1", port, timeout=STARTUP_SECONDS)
    try:
        probe.request("GET", "/healthz")
        return probe.getresponse().status
    finally:
        probe.close()


def test_sigterm_drains_the_process_and_closes_its_sockets_with_4500(tmp_path, make_user):
    player = make_user("ana")
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    (cookie,) = sessions([player])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    port = sock.getsockname()[1]
    keep = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "REDIS_"))}
    env = {
        **keep,
        "DEBUG": "1",
        "SECRET_KEY": settings.SECRET_KEY,
        "DATABASE_URL": database_url(),
        "REDIS_URL": settings.REDIS_URL,
        "SHUTDOWN_NOTICE_SECONDS": "3",
        "SHUTDOWN_DRAIN_SECONDS": "10",
    }
    log = tmp_path / "uvicorn.log"
    with log.open("w") as stderr:
        server = subprocess.Popen(
            web_command(fd=sock.fileno()),
            cwd=ROOT,
            env=env,
            pass_fds=(sock.fileno(),),
            stdout=subprocess.DEVNULL,
            stderr=stderr,
        )
    sock.close()
    try:
        assert _health(port) == 200, log.read_text()

        async def scenario() -> int:
            async with websockets.connect(
                f"ws://127.0.0.1:{port}/ws/tables/{table.pk}/",
                additional_headers={"Cookie": cookie, "Origin": f"http://127.0.0.1:{port}"},
                open_timeout=STARTUP_SECONDS,
            ) as ws:
                await asyncio.wait_for(ws.recv(), STARTUP_SECONDS)  # the first state
                server.send_signal(signal.SIGTERM)
                # The process answers 503 once it has the signal (within the notice).
                deadline = time.monotonic() + 3
                while await asyncio.to_thread(_health, port) != 503:
                    assert time.monotonic() < deadline, "no 503 after SIGTERM"
                with pytest.raises(websockets.ConnectionClosed):
                    while True:
                        await asyncio.wait_for(ws.recv(), 10)
                return ws.close_code

        assert asyncio.run(scenario()) == 4500
        started = time.monotonic()
        # uvicorn stops as gracefully as it would have, then raises the signal it
        # stopped for again, so that the process ends "killed by SIGTERM" as expected.
        assert server.wait(15) == -signal.SIGTERM, log.read_text()
        assert "Finished server process" in log.read_text()
        assert time.monotonic() - started < 15
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
