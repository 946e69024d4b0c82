"""The embedded default as `make run` serves it: uvicorn, SQLite, no Redis.

Starts the real uvicorn process (the Makefile's flags, which are docker-compose.yml's)
on a free port against a scratch SQLite file and checks that pages and the websocket
endpoint answer.
"""

import asyncio
import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.parse import urlencode
from urllib.request import HTTPCookieProcessor, build_opener, urlopen

import pytest
import websockets

from tests.web_server import shipped_flags, web_command

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def embedded_site(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "SECRET_KEY", "HTTPS", "STATIC_MANIFEST"}
    }
    # What `make run` sets (Makefile RUN_ENV): DEBUG off, plain HTTP, local hosts. The
    # static files are served from the finders here, instead of a collectstatic run.
    env.update(
        DEBUG="0",
        HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        SECRET_KEY="make-run-test-" + "k" * 50,
        STATIC_MANIFEST="0",
        RUN_EMBEDDED_BEAT="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'site.sqlite3'}",
    )
    # `make run`'s migrate, then its seed and the test's user in one process (one
    # Django start-up less).
    seed_and_create_user = (
        "from django.core.management import call_command; call_command('seed'); "
        "from accounts.models import User; "
        "User.objects.create_user('site_fan', 'fan@example.com', 'a-Long-pass-2026')"
    )
    for command in (["migrate", "--noinput"], ["shell", "-c", seed_and_create_user]):
        subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=ROOT,
            env=env,
            check=True,
            timeout=300,
            capture_output=True,
        )
    port = free_port()
    server = subprocess.Popen(
        web_command(port=port),
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    base = f"127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            urlopen(f"http://{base}/healthz", timeout=1)
            break
        except OSError:
            if server.poll() is not None:
                pytest.fail(server.stderr.read().decode())
            time.sleep(0.2)  # polling a process we started; there is no event to wait on
    yield base
    server.terminate()
    server.wait(10)


def test_make_run_serves_pages_static_files_and_websockets_through_uvicorn(embedded_site):
    for path in ("/", "/accounts/signup/", "/static/css/site.css"):
        with urlopen(f"http://{embedded_site}{path}", timeout=10) as response:
            assert response.status == 200, path
            if path.endswith("/"):
                assert "default-src 'self'" in response.headers["Content-Security-Policy"]

    # DEBUG is off: an unknown address gets the site's own page, not Django's debug page.
    with pytest.raises(HTTPError) as missing:
        urlopen(f"http://{embedded_site}/no-such-page/", timeout=10)
    page = missing.value.read().decode()
    assert missing.value.code == 404
    assert 'class="error-page"' in page
    assert "URLconf" not in page

    # Log in as a browser would, then open the lobby websocket with the session.
    jar = http.cookiejar.CookieJar()
    opener = build_opener(HTTPCookieProcessor(jar))
    opener.open(f"http://{embedded_site}/accounts/login/", timeout=10)
    csrf = next(cookie.value for cookie in jar if cookie.name == "csrftoken")
    form = urlencode(
        {"login": "site_fan", "password": "a-Long-pass-2026", "csrfmiddlewaretoken": csrf}
    )
    opener.addheaders = [("Referer", f"http://{embedded_site}/accounts/login/")]
    opener.open(f"http://{embedded_site}/accounts/login/", data=form.encode(), timeout=10)
    cookies = "; ".join(f"{cookie.name}={cookie.value}" for cookie in jar)
    assert "sessionid=" in cookies

    async def open_lobby(cookie_header: str | None) -> None:
        headers = {"Cookie": cookie_header} if cookie_header else {}
        async with websockets.connect(
            f"ws://{embedded_site}/ws/lobby/",
            origin=f"http://{embedded_site}",
            additional_headers=headers,
        ) as lobby:
            if cookie_header:
                await lobby.ping()
            else:  # the consumer's close, once it has read the session
                await asyncio.wait_for(lobby.recv(), 10)

    asyncio.run(open_lobby(cookies))  # accepted: the handshake completes and answers a ping

    async def oversized_message_closes_with() -> int | None:
        async with websockets.connect(
            f"ws://{embedded_site}/ws/lobby/",
            origin=f"http://{embedded_site}",
            additional_headers={"Cookie": cookies},
        ) as lobby:
            await lobby.send("x" * (1024 * 1024 + 1))  # over --ws-max-size (docs/protocol.md)
            with pytest.raises(websockets.ConnectionClosed):
                while True:
                    await asyncio.wait_for(lobby.recv(), 10)
            return lobby.close_code

    assert asyncio.run(oversized_message_closes_with()) == 1009
    with pytest.raises(websockets.ConnectionClosed) as refused:
        asyncio.run(open_lobby(None))  # anonymous: accepted, then closed by the consumer
    assert refused.value.rcvd.code == 4401


def test_make_run_serves_with_the_flags_of_the_stack():
    makefile = (ROOT / "Makefile").read_text()
    flags = re.search(r"^WEB_FLAGS = ((?:.*\\\n)*.*)$", makefile, re.M)
    assert flags is not None
    assert flags.group(1).replace("\\\n", " ").split() == shipped_flags()
    (run,) = [line for line in makefile.splitlines() if "/bin/uvicorn " in line]
    assert "--host $(HOST) --port $(PORT) $(WEB_FLAGS) cuatrola_site.asgi:application" in run
    assert "RUN_EMBEDDED_BEAT=1" in run  # the periodic tasks' ticker (cuatrola_site/asgi.py)
