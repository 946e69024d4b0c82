"""What import-linter cannot see: games' templates, scripts and settings reads never
name the apps above it. Their pages come in through `games.hooks` (page sections,
mode policies), registered by those apps."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parents[2] / "games"

# The daily deal sits above games (pyproject.toml's layers): its URL names, its
# settings, its templates and its modules. (The mode's value, "daily", is games' own
# vocabulary: `games.models.Mode`.)
DAILY_NAMES = re.compile(r"""['"]daily:|\bDAILY_[A-Z]|['"]daily/|\bfrom daily\b|\bimport daily\b""")


def games_sources() -> list[Path]:
    return sorted(
        path
        for suffix in ("*.py", "*.html", "*.js", "*.txt")
        for path in GAMES.rglob(suffix)
        if "migrations" not in path.parts
    )


def test_the_scan_reads_games_code_and_templates():
    names = {path.name for path in games_sources()}
    assert {"offline_views.py", "offline.html", "lobby.html", "views.py"} <= names


def test_games_names_nothing_of_the_daily_deal():
    found = [
        f"games/{path.relative_to(GAMES)}:{number}: {line.strip()}"
        for path in games_sources()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if DAILY_NAMES.search(line)
    ]
    assert not found, "games names the daily app (register a games.hooks section):\n" + "\n".join(
        found
    )


@pytest.mark.parametrize(
    "line",
    [
        "{% url 'daily:offline_deals' '2000-01-01' %}",
        "timezone=ZoneInfo(settings.DAILY_TIME_ZONE)",
        '<a href="{% url "daily:home" %}">',
        "{% include 'daily/offline_section.html' %}",
        "from daily.services import day_of",
    ],
)
def test_the_scan_knows_the_leaks_it_looks_for(line):
    assert DAILY_NAMES.search(line)


def test_the_scan_allows_the_modes_own_value():
    assert not DAILY_NAMES.search('{% if table.mode == "daily" %}')
