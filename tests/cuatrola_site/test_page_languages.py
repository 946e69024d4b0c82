"""Every page, in every language but English, shows no English source string.

One request per page per language: signed out, signed in, a live table, a waiting
room, a stake table, a finished match and its replay, the admin's lists. The English
strings looked for are the source texts of our catalogues (and of allauth's pages),
cut at their placeholders; a piece is only looked for where the language does not
legitimately write it the same way ("Solo", "XP", "Table" in French…).
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import allauth
import django
import polib
import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext, npgettext, pgettext

from cuatrola_site.management.commands.tidy_messages import catalogues
from games import services as game_services
from online import services as online_services
from tests.history.conftest import play_practice

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["es", "fr", "it", "ko", "th"]
PIECE = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w*\}|<[^>]+>|\n")
# Spanish words of the game that are also English words on their own.
SKIP = {"Solo", "Cuatrola", "Quintola", "Cuatrola Online"}
# Words that are also the language's own: Italian "Date importanti" (important dates).
NATIVE = {"it": {"Date"}}


ALLAUTH_LOCALE = Path(allauth.__file__).parent / "locale"
ADMIN_LOCALE = Path(django.__file__).parent / "contrib/admin/locale"


def _source_entries() -> list[tuple[str, polib.POEntry]]:
    """Source strings with where they come from: ours (English catalogues), allauth's
    account pages, Django's admin."""
    entries = {}
    for path in catalogues(ROOT):
        if path.parent.parent.name == "en":
            for entry in polib.pofile(str(path)):
                entries[(entry.msgctxt, entry.msgid)] = ("ours", entry)
    allauth_pages = ("templates/account/", "account/")
    for entry in polib.pofile(str(ALLAUTH_LOCALE / "en/LC_MESSAGES/django.po")):
        if any(place.startswith(allauth_pages) for place, _ in entry.occurrences):
            entries.setdefault((entry.msgctxt, entry.msgid), ("allauth", entry))
    # Django's admin catalogue itself is not looked for: Django 6.1 leaves a few of its
    # newest strings untranslated in some languages ("Run", "Search %(name)s"), which
    # is Django's to fix. Its translated strings still count as said, below.
    return list(entries.values())


def _translated_elsewhere(language: str) -> dict[str, set]:
    """Entries allauth's and Django's admin catalogues really translate (a translation
    may equal the English: "Transactions" in French)."""
    found = {}
    for origin, locale in (("allauth", ALLAUTH_LOCALE), ("admin", ADMIN_LOCALE)):
        catalogue = polib.pofile(str(locale / language / "LC_MESSAGES/django.po"))
        found[origin] = {(e.msgctxt, e.msgid) for e in catalogue.translated_entries()}
    return found


def _pieces(text: str) -> set[str]:
    return {
        piece.strip(" .,:;!?()·—–-\"'")
        for piece in PIECE.split(text)
        if len(piece.strip()) >= 3 and re.search(r"[A-Za-z]{3}", piece)
    }


def _translations(entry: polib.POEntry) -> str:
    """Everything the active language writes for this entry."""
    if entry.msgid_plural:
        return " ".join(
            npgettext(entry.msgctxt, entry.msgid, entry.msgid_plural, n)
            if entry.msgctxt
            else translation.ngettext(entry.msgid, entry.msgid_plural, n)
            for n in (1, 2, 5, 1000000)
        )
    return pgettext(entry.msgctxt, entry.msgid) if entry.msgctxt else gettext(entry.msgid)


def _bounded(piece: str, text: str) -> bool:
    """`piece` occurs in `text` as whole words (a cheap substring test first)."""
    return piece in text and bool(re.search(r"(?<!\w)" + re.escape(piece) + r"(?!\w)", text))


def english_pieces(language: str, entries: list[tuple[str, polib.POEntry]]) -> list[str]:
    pieces = set()
    with translation.override(language):
        # What the language itself writes somewhere (key names "Home" and "End" in a
        # Korean hint, "Table" in French) is not English left behind.
        # A string a catalogue leaves untranslated comes back in English: not "said".
        # Ours are all translated (test_translations.py).
        elsewhere = _translated_elsewhere(language)
        said = " ".join(
            _translations(entry)
            for origin, entry in entries
            if origin == "ours" or (entry.msgctxt, entry.msgid) in elsewhere[origin]
        )
        for _origin, entry in entries:
            for piece in _pieces(entry.msgid) | _pieces(entry.msgid_plural or ""):
                if piece in SKIP or piece in NATIVE.get(language, ()):
                    continue
                if piece and not _bounded(piece, said):
                    pieces.add(piece)
    return sorted(pieces)


def visible_text(page: str) -> str:
    """The text a person sees or hears: content and the attributes that name things."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S | re.I)
    # The language switch names each language in itself ("English") on purpose.
    page = re.sub(r'<form class="language-switch".*?</form>', " ", page, flags=re.S)
    # Stored data, not interface: ledger memos, and Django's permission names (Django
    # stores them in the database in English and never translates them).
    page = re.sub(r'<td class="field-memo">.*?</td>', " ", page, flags=re.S)
    page = re.sub(r'<select name="user_permissions".*?</select>', " ", page, flags=re.S)
    page = page.replace("Cuatrola Online", " ")
    named = re.findall(r'\b(?:aria-label|title|alt|placeholder)="([^"]*)"', page)
    text = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(" ".join([text, *named]))


@pytest.fixture
def site(make_user, settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"
    ana = make_user("ana")
    match = play_practice(ana)
    bruno = make_user("bruno")
    live = game_services.table_create_practice(user=bruno, rules="classic", bot_level="easy")
    carla = make_user("carla")
    room = game_services.table_create_friends(user=carla)
    dario = make_user("dario")
    stake = online_services.stake_table_open(user=dario, stake=100)
    boss = make_user("jefa", is_staff=True, is_superuser=True)
    # Partners (issue 44): ana and bruno a pair, carla asking ana, a mark of each kind.
    from social import services as social

    for friend in (bruno, carla):
        asked = social.friend_request_send(user=friend, username="ana")
        social.friend_request_accept(user=ana, request_id=asked.pk)
    pair = social.partner_request_send(user=bruno, username="ana")
    pair = social.partner_request_accept(user=ana, request_id=pair.pk)
    social.partner_request_send(user=carla, username="ana")
    social.partner_mark_set(user=ana, username="dario", kind="avoid")
    social.partner_mark_set(user=ana, username="carla", kind="prefer")
    return {
        "pair": pair,
        "ana": ana,
        "bruno": bruno,
        "carla": carla,
        "dario": dario,
        "boss": boss,
        "match": match,
        "live": live,
        "room": room,
        "stake": stake,
    }


def _pages(site) -> list[tuple[str | None, str]]:
    """(who is logged in, url) for every page."""
    signed_out = [
        "/",
        "/how-to-play/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/u/ana/",
        "/u/ana/record/",
        f"/history/matches/{site['match'].pk}/",
        "/no-such-page/",
    ]
    ana = [
        "/",
        "/play/",
        "/play/online/",
        "/play/stakes/",
        "/wallet/",
        "/shop/",
        "/league/",
        "/league/weeks/",
        "/history/",
        f"/history/matches/{site['match'].pk}/",
        f"/tables/{site['match'].table_id}/",
        "/u/ana/",
        "/friends/partners/",
        "/pairs/",
        f"/pairs/{site['pair'].pk}/",
        "/accounts/password/change/",
        "/accounts/email/",
        "/accounts/logout/",
    ]
    pages = [(None, url) for url in signed_out] + [("ana", url) for url in ana]
    pages += [
        ("bruno", f"/tables/{site['live'].pk}/"),
        ("carla", f"/tables/{site['room'].pk}/"),
        ("dario", f"/play/stakes/{site['stake'].pk}/"),
        ("boss", "/admin/"),
    ]
    for model in admin.site._registry:
        meta = model._meta
        pages.append(("boss", reverse(f"admin:{meta.app_label}_{meta.model_name}_changelist")))
    pages.append(("boss", reverse("admin:accounts_user_change", args=[site["ana"].pk])))
    return pages


@pytest.mark.django_db
@pytest.mark.timeout(900)
def test_no_page_shows_an_english_source_string_in_another_language(site):
    entries = _source_entries()
    clients = {None: Client()}
    for name in ("ana", "bruno", "carla", "dario", "boss"):
        clients[name] = Client()
        clients[name].force_login(site[name])
    pages = _pages(site)
    failures = []
    for language in LANGUAGES:
        english = english_pieces(language, entries)
        for who, url in pages:
            client = clients[who]
            client.cookies["django_language"] = language
            response = client.get(url)
            assert response.status_code in (200, 404), (language, who, url, response.status_code)
            page = response.content.decode()
            assert f'<html lang="{language}"' in page, (language, url)
            text = visible_text(page)
            found = [piece for piece in english if _bounded(piece, text)]
            if found:
                failures.append(f"{language} {url} ({who or 'signed out'}): {found}")
    assert not failures, "English on non-English pages:\n" + "\n".join(failures)
