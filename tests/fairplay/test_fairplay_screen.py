"""`manage.py fairplay_screen`: the night's screen by hand, its arguments checked."""

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from fairplay.models import ScreenRun

pytestmark = pytest.mark.django_db


def run(*args):
    out = StringIO()
    call_command("fairplay_screen", *args, stdout=out)
    return out.getvalue()


def test_it_runs_the_screen_and_says_what_it_did(store, people, crafted):
    a, b, c, d = people[:4]
    for _ in range(3):
        store([a, c, b, d])
    said = run("--baseline-matches", "0", "--pair-matches", "2")
    assert "6 candidate pairs" in said
    assert "Screened 2 matches of 6 candidate pairs and 0 baseline matches" in said
    assert ScreenRun.objects.count() == 1


def test_the_window_can_end_earlier(store, people, crafted):
    a, b, c, d = people[:4]
    for _ in range(3):
        store([a, c, b, d], days_ago=1)
    before = (timezone.localtime() - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M")
    assert "Screened 0 matches of 0 candidate pairs" in run("--until", before)
    assert "of 6 candidate pairs" in run()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--pair-matches", "0"], "--pair-matches must be at least 1"),
        (["--night-matches", "-1"], "--night-matches needs a whole number"),
        (["--samples", "5"], "--samples must be at least 10"),
        (["--window-days", "ten"], "--window-days needs a whole number"),
        (["--min-together", "1.5"], "--min-together needs a whole number"),
        (["--seconds", "１２"], "--seconds needs a whole number"),
        (["--baseline-matches", "9" * 12], "--baseline-matches needs a whole number"),
        (["--until", "yesterday"], "--until needs a date"),
        (["--until", "2026-02-30"], "--until needs a date"),
        (["--until", "2999-01-01"], "--until is in the future"),
    ],
)
def test_a_bad_argument_is_refused_with_a_message_and_nothing_runs(args, message):
    with pytest.raises(CommandError) as refused:
        run(*args)
    assert message in str(refused.value)
    assert not ScreenRun.objects.exists()
