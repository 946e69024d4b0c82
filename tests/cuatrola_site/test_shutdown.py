"""A daphne process's graceful restart, running (cuatrola_site/shutdown.py): on SIGTERM
its /healthz answers 503, its table sockets are closed with 4500, and it exits by
itself once they have closed."""

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
from tests.cuatrola_site.test_front_door import (
    DAPHNE,
    ROOT,
    STARTUP_SECONDS,
    database_url,
    sessions,
)

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
    log = tmp_path / "daphne.log"
    with log.open("w") as stderr:
        daphne = subprocess.Popen(
            [str(DAPHNE), "--fd", str(sock.fileno()), "-v", "1", "cuatrola_site.asgi:application"],
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
                daphne.send_signal(signal.SIGTERM)
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
        assert daphne.wait(15) == 0, log.read_text()
        assert time.monotonic() - started < 15
    finally:
        if daphne.poll() is None:
            daphne.kill()
            daphne.wait()
