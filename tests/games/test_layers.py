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


# URL names in templates ({% url %}) and code (reverse, redirect): the app whose view
# each names must not sit above games. The site's own pages (cuatrola_site: home,
# how to play) frame every app's pages and may be linked from any.
URL_NAMES = re.compile(
    r"""\{%\s*url\s+['"]([\w:-]+)['"]|\b(?:reverse|reverse_lazy|redirect)\(\s*['"]([\w:-]+)['"]"""
)
ABOVE_GAMES = {"daily", "online", "history", "coach", "leagues", "ratings", "social"}


def url_owners() -> dict[str, str]:
    """Each named URL of the site and the top package of its view's module."""
    from django.urls import URLResolver, get_resolver

    owners: dict[str, str] = {}

    def walk(patterns, namespace: str) -> None:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                inner = f"{namespace}{pattern.namespace}:" if pattern.namespace else namespace
                walk(pattern.url_patterns, inner)
            elif pattern.name:
                owners.setdefault(namespace + pattern.name, pattern.callback.__module__)

    walk(get_resolver().url_patterns, "")
    return {name: module.split(".")[0] for name, module in owners.items()}


def games_url_names() -> list[tuple[str, str]]:
    return [
        (f"games/{path.relative_to(GAMES)}:{number}", name)
        for path in games_sources()
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        for match in URL_NAMES.finditer(line)
        for name in match.groups()
        if name
    ]


def test_games_links_to_no_page_of_an_app_above_it():
    owners = url_owners()
    used = games_url_names()
    assert len(used) > 20  # the scan reads the templates' links
    unknown = [f"{where}: {name}" for where, name in used if name not in owners]
    assert not unknown, "URL names no view has:\n" + "\n".join(unknown)
    found = [f"{where}: {name}" for where, name in used if owners[name] in ABOVE_GAMES]
    assert not found, (
        "games links to a page of an app above it (register a games.hooks link):\n"
        + "\n".join(found)
    )


@pytest.mark.parametrize(
    ("line", "name"),
    [
        ("data-block-url=\"{% url 'social:block' %}\"", "social:block"),
        ('url = reverse("history_match", args=[obj.pk])', "history_match"),
        ("<a href=\"{% url 'online:play' %}\">", "online:play"),
    ],
)
def test_the_url_scan_finds_links_to_apps_above(line, name):
    names = [n for m in URL_NAMES.finditer(line) for n in m.groups() if n]
    assert names == [name]
    assert url_owners()[name] in ABOVE_GAMES


def test_every_link_games_asks_for_is_registered():
    from django.urls import reverse

    from games.hooks import link

    assert link("block") == reverse("social:block")
    assert link("follow", "ana") == reverse("social:follow", kwargs={"username": "ana"})
    assert link("follow", "a/b") is None  # not a name the address can hold
    assert link("play_online") == reverse("online:play")
    assert link("match_page", 7) == reverse("history_match", args=[7])


def test_a_link_games_does_not_know_is_refused():
    from games.hooks import register_link

    with pytest.raises(ValueError, match="no page called"):
        register_link("shop", lambda: "/shop/")
