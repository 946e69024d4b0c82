"""The websocket consumers' database threads: stale connections and health checks."""

from __future__ import annotations

import pytest
from django.db import connection, connections

from games import consumers
from games.models import Seat

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def pings(monkeypatch):
    """Counts Django's health checks (`SELECT 1` before a call's first query)."""
    calls = []
    wrapper = type(connections["default"])
    real = wrapper.is_usable

    def is_usable(self):
        calls.append(self.alias)
        return real(self)

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    return calls


def count_seats() -> int:
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]  # as in production
    return Seat.objects.count()


def close_this_threads_connection() -> None:
    connection.close()


async def test_a_connection_that_just_answered_is_not_pinged_again(pings, monkeypatch):
    monkeypatch.setattr(consumers, "_executor", None)
    monkeypatch.setattr(consumers.settings, "WEB_DB_THREADS", 1)  # one thread, one connection
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 60)  # as in production
    call = consumers.in_db_thread(count_seats)
    await call()
    await call()
    await call()
    assert pings == []  # connected afresh, then answered every time
    monkeypatch.setattr(consumers, "HEALTHY_FOR", 0.0)
    await call()
    assert pings == ["default"]  # idle longer than HEALTHY_FOR: checked first
    await consumers.in_db_thread(close_this_threads_connection)()
    consumers._db_executor().shutdown()
