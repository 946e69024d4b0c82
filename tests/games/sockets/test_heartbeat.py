"""The per-process registry of table sockets and its heartbeat."""

from __future__ import annotations

import asyncio

import pytest

from games.sockets import heartbeat

WAIT = 5


@pytest.fixture(autouse=True)
def _fresh_registry(settings):
    """Sockets other tests left open in this process do not count here."""
    settings.PRESENCE_HEARTBEAT_SECONDS = 0.01
    settings.WEB_PROCESS_HEARTBEAT_SECONDS = 0.01
    saved = heartbeat._open.copy()
    saved_mark = heartbeat._mark
    heartbeat._open.clear()
    heartbeat._heartbeat = None
    heartbeat._process_heartbeat = None
    heartbeat._mark = None
    yield
    heartbeat._open.clear()
    heartbeat._open.update(saved)
    heartbeat._mark = saved_mark
    for task in (heartbeat._heartbeat, heartbeat._process_heartbeat):
        if task is not None:
            task.cancel()
    heartbeat._heartbeat = None
    heartbeat._process_heartbeat = None


class Recorder:
    """A vouch function that records each beat and can fail on demand."""

    def __init__(self, fail_first: int = 0) -> None:
        self.beats: list[list[int]] = []
        self.fail_first = fail_first
        self.calls = 0
        self.event = asyncio.Event()

    async def __call__(self, seat_ids: list[int]) -> None:
        self.calls += 1
        self.event.set()
        if self.calls <= self.fail_first:
            raise ConnectionError("database down")
        self.beats.append(seat_ids)

    async def next_beat(self) -> list[int]:
        self.event.clear()
        await asyncio.wait_for(self.event.wait(), WAIT)
        return self.beats[-1] if self.beats else []


async def test_the_heartbeat_vouches_for_every_open_seat_until_the_last_closes():
    vouch = Recorder()
    heartbeat.opened(7, vouch)
    heartbeat.opened(3, vouch)
    heartbeat.opened(7, vouch)  # a second tab on the same seat
    assert await vouch.next_beat() == [3, 7]
    heartbeat.closed(7)
    heartbeat.closed(3)
    await vouch.next_beat()
    assert await vouch.next_beat() == [7]  # one socket on 7 is still open
    beating = heartbeat._heartbeat
    heartbeat.closed(7)
    assert heartbeat.open_seats() == [] and heartbeat._heartbeat is None
    with pytest.raises(asyncio.CancelledError):  # nothing open: no more beats
        await beating


async def test_a_failing_beat_is_logged_and_the_next_one_still_comes(caplog):
    vouch = Recorder(fail_first=1)
    heartbeat.opened(1, vouch)
    await vouch.next_beat()  # the failing one
    assert await vouch.next_beat() == [1]
    heartbeat.closed(1)
    assert "presence heartbeat failed" in caplog.text


async def test_the_process_beats_for_itself_while_it_holds_a_seats_socket(caplog):
    beats = asyncio.Queue()
    calls = 0

    async def mark() -> None:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("database down")
        beats.put_nowait(calls)

    heartbeat.on_process_beat(mark)
    heartbeat.opened(4, Recorder())
    assert await asyncio.wait_for(beats.get(), WAIT) == 2  # the failed one did not stop it
    assert "web process heartbeat failed" in caplog.text
    beating = heartbeat._process_heartbeat
    heartbeat.closed(4)
    assert heartbeat._process_heartbeat is None
    with pytest.raises(asyncio.CancelledError):
        await beating
