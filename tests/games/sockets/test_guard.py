"""Every socket's message budget, and sockets that close when their session ends."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from cuatrola_site.routing import websocket_urlpatterns
from games.sockets.guard import (
    CLOSE_SESSION_ENDED,
    CLOSE_TOO_MANY_MESSAGES,
    ConnectLimit,
    MessageBudget,
)

TIMEOUT = 10


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_a_budget_allows_a_burst_then_its_rate():
    clock = FakeClock()
    budget = MessageBudget(burst=3, rate=2, clock=clock)
    assert [budget.take() for _ in range(4)] == [True, True, True, False]
    clock.now += 0.5  # one more message's worth
    assert budget.take() and not budget.take()
    clock.now += 60  # never more than the burst saved up
    assert [budget.take() for _ in range(4)] == [True, True, True, False]


def test_as_many_refusals_in_a_row_as_the_burst_is_abuse():
    budget = MessageBudget(burst=2, rate=0.01, clock=FakeClock())
    budget.take(), budget.take()
    assert not budget.take() and not budget.abused
    assert not budget.take() and budget.abused


def _session_socket(client: Client, path: str) -> WebsocketCommunicator:
    """A socket opened by the browser that `client` is: its session cookie goes along,
    through the real authentication middleware."""
    from channels.auth import AuthMiddlewareStack

    name = django_settings.SESSION_COOKIE_NAME
    cookie = f"{name}={client.cookies[name].value}"
    return WebsocketCommunicator(
        AuthMiddlewareStack(URLRouter(websocket_urlpatterns)),
        path,
        headers=[(b"cookie", cookie.encode())],
    )


async def _open(comm: WebsocketCommunicator) -> None:
    connected, code = await comm.connect(timeout=TIMEOUT)
    assert connected, code


async def _closed_with(comm: WebsocketCommunicator) -> int:
    while True:
        output = await comm.receive_output(timeout=TIMEOUT)
        if output["type"] == "websocket.close":
            return output["code"]


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_logging_out_closes_that_sessions_sockets_at_once(started_room, player, password):
    browser, phone = Client(), Client()
    await database_sync_to_async(browser.force_login)(player)
    await database_sync_to_async(phone.force_login)(player)
    table = _session_socket(browser, f"/ws/tables/{started_room.pk}/")
    lobby = _session_socket(browser, "/ws/lobby/")
    other = _session_socket(phone, f"/ws/tables/{started_room.pk}/")
    for comm in (table, lobby, other):
        await _open(comm)
    await database_sync_to_async(browser.post)("/accounts/logout/")
    assert await _closed_with(table) == CLOSE_SESSION_ENDED
    assert await _closed_with(lobby) == CLOSE_SESSION_ENDED
    # The phone's session is still signed in: its socket still answers.
    await other.send_to(text_data=json.dumps({"type": "ping", "id": 1}))
    while json.loads(await other.receive_from(timeout=TIMEOUT))["type"] != "pong":
        pass
    await other.disconnect()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_changing_the_password_closes_every_socket_of_the_user(
    started_room, player, password
):
    browser, phone = Client(), Client()
    await database_sync_to_async(browser.force_login)(player)
    await database_sync_to_async(phone.force_login)(player)
    sockets = [
        _session_socket(browser, f"/ws/tables/{started_room.pk}/"),
        _session_socket(phone, "/ws/lobby/"),
    ]
    for comm in sockets:
        await _open(comm)
    response = await database_sync_to_async(browser.post)(
        "/accounts/password/change/",
        {"oldpassword": password, "password1": "x-New-pass-2468", "password2": "x-New-pass-2468"},
    )
    assert response.status_code == 302
    for comm in sockets:
        assert await _closed_with(comm) == CLOSE_SESSION_ENDED
    # The phone's old session no longer opens a socket; the browser's still does.
    stale = _session_socket(phone, f"/ws/tables/{started_room.pk}/")
    await stale.connect(timeout=TIMEOUT)  # accepted, then closed with the reason
    assert await _closed_with(stale) == 4401
    fresh = _session_socket(browser, f"/ws/tables/{started_room.pk}/")
    await _open(fresh)
    await fresh.disconnect()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_flood_gets_an_error_frame_then_the_socket_is_closed(
    started_room, player, settings
):
    settings.SOCKET_MESSAGE_BURST = 3
    settings.SOCKET_MESSAGE_RATE = 1e-6  # no refill within the test, however slow the machine
    browser = Client()
    await database_sync_to_async(browser.force_login)(player)
    comm = _session_socket(browser, f"/ws/tables/{started_room.pk}/")
    await _open(comm)
    await comm.receive_from(timeout=TIMEOUT)  # the state frame
    for number in range(3):
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": number}))
        assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "pong"
    for number in range(2):
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": 10 + number}))
        frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
        assert frame["type"] == "error" and frame["code"] == "rate_limited"
        assert frame["message"]  # not handled, so not answered by its id
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": 99}))
    assert await _closed_with(comm) == CLOSE_TOO_MANY_MESSAGES


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_the_lobby_socket_has_a_budget_too(player, settings):
    settings.SOCKET_MESSAGE_BURST = 1
    settings.SOCKET_MESSAGE_RATE = 1e-6
    browser = Client()
    await database_sync_to_async(browser.force_login)(player)
    comm = _session_socket(browser, "/ws/lobby/")
    await _open(comm)
    await comm.send_to(text_data="hello")
    assert json.loads(await comm.receive_from(timeout=TIMEOUT))["code"] == "unknown_type"
    await comm.send_to(text_data="hello")
    assert await _closed_with(comm) == CLOSE_TOO_MANY_MESSAGES


class AcceptAll:
    """An inner application that accepts every socket (what is behind the limit)."""

    def __init__(self) -> None:
        self.calls = 0

    async def __call__(self, scope, receive, send):
        self.calls += 1
        await receive()
        await send({"type": "websocket.accept"})
        await receive()


def _attempt(app, client) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(app, "/ws/lobby/")
    if client is not None:
        comm.scope["client"] = (client, 5000)
    return comm


class Holds:
    """Records each hold asked for; returns at once (or never, when told to)."""

    def __init__(self, forever: bool = False) -> None:
        self.seconds: list[float] = []
        self.forever = forever

    async def __call__(self, seconds: float) -> None:
        self.seconds.append(seconds)
        if self.forever:
            await asyncio.Event().wait()


async def test_connection_attempts_over_an_addresss_budget_are_refused_in_the_handshake(settings):
    settings.SOCKET_CONNECT_BURST = 2
    settings.SOCKET_CONNECT_RATE = 1e-6  # no refill within the test
    settings.SOCKET_CONNECT_HOLD_SECONDS = 2
    clock = FakeClock()
    inner = AcceptAll()
    holds = Holds()
    app = ConnectLimit(inner, clock=clock, sleep=holds)
    results = []
    for client in ("192.0.2.1", "192.0.2.1", "192.0.2.1", "192.0.2.2", None, None):
        comm = _attempt(app, client)
        connected, code = await comm.connect(timeout=TIMEOUT)
        results.append(connected)
        if connected:
            await comm.disconnect()
        else:
            assert code == 1000  # closed before being accepted: a browser sees 403
    # The third from one address never reached the application (nor its database
    # work); another address, and a socket with no address known, did.
    assert results == [True, True, False, True, True, True]
    assert inner.calls == 5
    # The refused one was held first, between half and one and a half times 2 s.
    assert len(holds.seconds) == 1 and 1 <= holds.seconds[0] <= 3


async def test_a_client_that_leaves_while_held_is_sent_nothing(settings):
    settings.SOCKET_CONNECT_BURST = 1
    settings.SOCKET_CONNECT_RATE = 1e-6
    app = ConnectLimit(AcceptAll(), clock=FakeClock(), sleep=Holds(forever=True))
    first = _attempt(app, "192.0.2.1")
    assert (await first.connect(timeout=TIMEOUT))[0]
    held = _attempt(app, "192.0.2.1")
    await held.send_input({"type": "websocket.connect"})
    assert await held.receive_nothing(timeout=0.2)  # held: no answer yet
    await held.send_input({"type": "websocket.disconnect", "code": 1001})
    await asyncio.wait_for(held.future, TIMEOUT)  # the hold ends with the client
    assert await held.receive_nothing(timeout=0.1)
    await first.disconnect()


def test_a_full_connection_budget_is_forgotten(settings):
    settings.SOCKET_CONNECT_BURST = 2
    settings.SOCKET_CONNECT_RATE = 1.0
    clock = FakeClock()
    app = ConnectLimit(AcceptAll(), clock=clock)
    assert app.allows("192.0.2.1") and app.allows("192.0.2.1") and not app.allows("192.0.2.1")
    app._forget_full()
    assert "192.0.2.1" in app.budgets  # still spent
    clock.now += 3  # refilled
    app._forget_full()
    assert app.budgets == {}


def test_the_site_limits_connection_attempts_before_authentication():
    from channels.auth import AuthMiddleware
    from channels.security.websocket import OriginValidator

    from cuatrola_site.asgi import application

    guard = application.application_mapping["websocket"]
    assert isinstance(guard, OriginValidator)
    assert isinstance(guard.application, ConnectLimit)
    inner = guard.application.app
    while not isinstance(inner, AuthMiddleware):
        inner = inner.inner
    assert isinstance(inner, AuthMiddleware)


def test_a_socket_is_counted_under_its_kind_and_moved_when_it_changes():
    """A watcher who sits down is counted as a player from then on (ops.metrics
    SOCKETS_OPEN), and the socket leaves the count once, under its last kind."""
    from prometheus_client import REGISTRY

    from games.sockets.guard import GuardedSocket

    def open_of(kind: str) -> float:
        return REGISTRY.get_sample_value("cuatrola_sockets_open", {"kind": kind}) or 0.0

    players, watchers = open_of("player"), open_of("watcher")
    socket = GuardedSocket()
    socket.recount_open("player")  # not counted yet: nothing to move
    assert (open_of("player"), open_of("watcher")) == (players, watchers)
    socket.count_open("watcher")
    socket.count_open("watcher")  # counted once
    assert (open_of("player"), open_of("watcher")) == (players, watchers + 1)
    socket.recount_open("player")
    assert (open_of("player"), open_of("watcher")) == (players + 1, watchers)
    socket.recount_open("player")
    assert (open_of("player"), open_of("watcher")) == (players + 1, watchers)
    asyncio.run(socket.release_socket())
    assert (open_of("player"), open_of("watcher")) == (players, watchers)
