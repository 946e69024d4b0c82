"""Every period and timer is a setting, checked at start-up: a non-positive, non-finite
or absurd value is a system-check error that names the setting."""

from __future__ import annotations

import pytest
from django.core import checks

from cuatrola_site.celery import app
from cuatrola_site.checks import TIMING_SETTINGS, check_timing_settings

from .test_settings import PRODUCTION_ENV, run_manage


def test_the_shipped_timings_pass_the_check():
    assert check_timing_settings() == []


def test_the_check_is_registered_with_django():
    assert check_timing_settings in checks.registry.registry.get_checks()


@pytest.mark.parametrize(
    ("name", "value", "says"),
    [
        ("TABLE_SWEEP_SECONDS", 0, "more than zero"),
        ("ONLINE_SWEEP_SECONDS", -1.0, "more than zero"),
        ("EMBEDDED_BEAT_TICK_SECONDS", float("nan"), "a number of seconds"),
        ("ONLINE_POLL_SECONDS", 3600, "cannot be meant"),
        ("LEAGUE_CLOSE_CATCH_UP_SECONDS", float("inf"), "a number of seconds"),
        ("TURN_SECONDS_CARD", "30", "a number of seconds"),
        ("BOT_MOVE_PAUSE_SECONDS", -0.5, "zero or more"),
        ("STAKE_FILL_SECONDS", 10 * 86400, "cannot be meant"),
    ],
)
def test_a_bad_timing_is_an_error_naming_the_setting(settings, name, value, says):
    setattr(settings, name, value)
    (error,) = check_timing_settings()
    assert error.id == "cuatrola_site.E001" and error.level == checks.ERROR
    assert error.msg.startswith(name) and says in error.msg


def test_a_bot_pause_of_zero_is_allowed(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    assert check_timing_settings() == []


def test_every_timing_setting_is_defined():
    from django.conf import settings

    for name, _zero_allowed, _longest in TIMING_SETTINGS:
        assert hasattr(settings, name), name


def test_the_beat_schedule_takes_its_periods_from_the_settings(settings):
    schedule = app.conf.beat_schedule
    assert schedule["games-sweep-tables"]["schedule"] == settings.TABLE_SWEEP_SECONDS
    assert schedule["online-sweep"]["schedule"] == settings.ONLINE_SWEEP_SECONDS
    catch_up = schedule["leagues-close-week-catch-up"]["schedule"]
    assert catch_up.total_seconds() == settings.LEAGUE_CLOSE_CATCH_UP_SECONDS


def test_the_start_up_check_refuses_a_zero_sweep_period():
    env = {**PRODUCTION_ENV, "TABLE_SWEEP_SECONDS": "0"}
    result = run_manage("check", env=env)
    assert result.returncode != 0
    assert "TABLE_SWEEP_SECONDS must be more than zero seconds" in result.stderr
