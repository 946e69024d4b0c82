"""Start-up checks of the site's own settings (Django's system check framework).

Every period and timer the site runs on is a setting (cuatrola_site/settings.py);
`manage.py migrate`, `manage.py check` and a Celery worker refuse to go on when one
is not a positive number of seconds or is absurdly long, naming the setting.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from django.apps import AppConfig
from django.conf import settings
from django.core.checks import CheckMessage, Error

MINUTE = 60.0
HOUR = 3600.0
DAY = 86400.0

#: Timing settings: (name, whether 0 is allowed, the longest sensible value in seconds).
TIMING_SETTINGS: tuple[tuple[str, bool, float], ...] = (
    # Periods of periodic work and polling.
    ("EMBEDDED_BEAT_TICK_SECONDS", False, MINUTE),
    ("TABLE_SWEEP_SECONDS", False, HOUR),
    ("ONLINE_SWEEP_SECONDS", False, HOUR),
    ("LEAGUE_CLOSE_CATCH_UP_SECONDS", False, DAY),
    ("DAILY_CLOSE_CATCH_UP_SECONDS", False, DAY),
    ("DAILY_STANDINGS_SECONDS", False, HOUR),
    ("ONLINE_POLL_SECONDS", False, MINUTE),
    ("PRESENCE_HEARTBEAT_SECONDS", False, HOUR),
    ("PRESENCE_STALE_SECONDS", False, DAY),
    ("WEB_PROCESS_HEARTBEAT_SECONDS", False, HOUR),
    ("WEB_PROCESS_STALE_SECONDS", False, DAY),
    ("SOCKET_SYNC_SECONDS", True, MINUTE),
    # A held handshake keeps its connection open (uvicorn sets no handshake limit).
    ("SOCKET_CONNECT_HOLD_SECONDS", True, 3.0),
    # Timers of a table and of online play.
    ("BOT_MOVE_PAUSE_SECONDS", True, MINUTE),
    ("BOT_SAFETY_SECONDS", False, HOUR),
    ("SWEEP_OUTAGE_SECONDS", False, HOUR),
    ("SHUTDOWN_NOTICE_SECONDS", True, MINUTE),
    ("SHUTDOWN_DRAIN_SECONDS", False, MINUTE),
    ("PRESENCE_RECONNECT_GRACE_SECONDS", False, MINUTE),
    ("TURN_SECONDS_CARD", False, DAY),
    ("TURN_SECONDS_BID", False, DAY),
    ("ABANDON_AFTER_SECONDS", False, DAY),
    ("ABSENCE_CONNECT_GRACE_SECONDS", False, DAY),
    ("ABSENT_AT_END_SECONDS", False, DAY),
    ("ONLINE_BOT_FILL_SECONDS", False, DAY),
    ("STAKE_FILL_SECONDS", False, DAY),
)


def _timing_error(name: str, value: Any, zero_allowed: bool, longest: float) -> str | None:
    """What is wrong with one timing setting's value, or None."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return f"{name} must be a number of seconds, not {value!r}."
    if value < 0 or (value == 0 and not zero_allowed):
        floor = "zero or more" if zero_allowed else "more than zero"
        return f"{name} must be {floor} seconds, not {value:g}."
    if value > longest:
        return f"{name} is {value:g} seconds; more than {longest:g} cannot be meant."
    return None


def check_timing_settings(
    app_configs: Sequence[AppConfig] | None = None, **kwargs: Any
) -> list[CheckMessage]:
    """Every period and timer is a finite number of seconds within its sensible range."""
    found: list[CheckMessage] = []
    for name, zero_allowed, longest in TIMING_SETTINGS:
        problem = _timing_error(name, getattr(settings, name, None), zero_allowed, longest)
        if problem is not None:
            found.append(
                Error(
                    problem,
                    hint="Set it (environment variable of the same name) to a sensible period.",
                    id="cuatrola_site.E001",
                )
            )
    return found
