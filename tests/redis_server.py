"""A private redis-server for the tests that restart Redis under the site: its own
port, nothing kept on disk (as the stack's Redis: a restart empties it), always
stopped at the end."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                REDIS_SERVER,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """Killed (SIGKILL, as a crashed Redis): every client's connection drops."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)
        self.process = None

    def restart(self, down_seconds: float = 0.0) -> None:
        self.stop()
        if down_seconds:
            time.sleep(down_seconds)
        self.start()


@contextmanager
def redis_server(directory: Path) -> Iterator[RedisServer]:
    if not os.access(REDIS_SERVER, os.X_OK):
        reason = f"needs redis-server at {REDIS_SERVER} (apt-get install redis-server)"
        if os.environ.get("REQUIRE_SERVICES", "") == "1":
            pytest.fail(f"REQUIRE_SERVICES=1 but this test {reason}", pytrace=False)
        pytest.skip(reason)
    server = RedisServer(directory)
    server.start()
    try:
        yield server
    finally:
        server.stop()
