"""What a player reads at the live table, in Chromium, on a phone and a laptop: what is
being played (the mode, the rule set, the stake and the pot) on every kind of table,
in the page and in its title, and a practice match's end that talks of no coins.
Screenshots go to $SCREENSHOT_DIR."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services as games
from games.models import Table
from online import services as online
from tests.browser.test_cards import _shoot as shoot
from tests.browser.test_tables import LAPTOP, PHONE, log_in
from tests.history.conftest import play_practice

FACTS = "#table-view [data-testid=table-facts]"


@pytest.fixture(autouse=True)
def _bots_wait(settings):
    settings.BOT_RUNNER = "off"  # the table stays as it was dealt while we read it
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def practice_table(user) -> Table:
    return games.table_create_practice(user=user, rules="classic", bot_level="easy")


def friends_table(user) -> Table:
    table = games.table_create_friends(user=user)
    for position in (1, 2, 3):
        games.seat_set_bot(user=user, table_id=table.pk, position=position, bot=True)
    games.match_start(user=user, table_id=table.pk)
    return table


def online_table(user) -> Table:
    online.queue_join(user=user)
    [table_id] = online.queue_match(now=timezone.now() + timedelta(minutes=1))  # bots fill
    return Table.objects.get(pk=table_id)


def stake_table(user, make_user) -> Table:
    table = online.stake_table_open(user=user, stake=250)
    for name in ("bea", "carlos", "dani"):
        online.stake_table_sit(user=make_user(name), table_id=table.pk)
    return table


@pytest.mark.parametrize(
    ("kind", "facts"),
    [
        ("practice", "Práctica · Reglas clásicas"),
        ("friends", "Amigos · Reglas online"),
        ("online", "En línea · Reglas online"),
        ("stake", "Mesa con apuesta · Reglas online · Apuesta: 250 monedas · Bote: 1000 monedas"),
    ],
)
def test_every_table_says_what_is_played_in_the_page_and_its_title(
    asgi_server, new_page, player, make_user, kind, facts
):
    table = {
        "practice": practice_table,
        "friends": friends_table,
        "online": online_table,
        "stake": lambda user: stake_table(user, make_user),
    }[kind](player)
    page = new_page()
    log_in(page, asgi_server, player)
    for size, viewport in (("390x844", PHONE), ("1280x800", LAPTOP)):
        page.set_viewport_size(viewport)
        page.goto(f"{asgi_server.url}/tables/{table.pk}/")
        expect(page.locator(FACTS)).to_have_text(facts)
        expect(page.locator(FACTS)).to_be_in_viewport()
        expect(page).to_have_title(f"{facts} · Mesa {table.pk} · Cuatrola Online")
        expect(page.get_by_role("region", name="Tu mano")).to_be_visible()
        shoot(page, f"table-words-{kind}-{size}")


def test_the_end_of_a_practice_match_talks_of_no_coins_or_xp(asgi_server, new_page, player):
    match = play_practice(player, rules="classic")
    page = new_page()
    log_in(page, asgi_server, player)
    for size, viewport in (("390x844", PHONE), ("1280x800", LAPTOP)):
        page.set_viewport_size(viewport)
        page.goto(f"{asgi_server.url}/tables/{match.table_id}/")
        places = page.locator("#table-view .tv-places li")
        expect(places).to_have_count(4)
        for line in places.all_inner_texts():
            assert "Puntos personales" in line, line
            assert not re.search(r"Monedas|XP", line), line
        shoot(page, f"table-words-practice-over-{size}")
