"""Ratings in Chromium: beside each name at an online table, and the change in the
end-of-match panel when the match is over."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Table
from online import services as online
from ratings.models import RatingChange
from tests.browser.table_moves import quick_tricks
from tests.browser.test_online_flow import signed_in_page
from tests.online.conftest import Clock, play_out


@pytest.fixture(autouse=True)
def _quiet_bots(settings):
    settings.BOT_RUNNER = "off"  # play_out moves the bots
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def test_the_rating_change_shows_at_the_end_of_an_online_match(asgi_server, new_page, make_user):
    ana = make_user("ana")
    clock = Clock()
    online.queue_join(user=ana, now=clock())
    online.queue_match(now=clock.advance(20))  # alone: bots fill after 20 s
    table = Table.objects.get(mode="online")
    page = signed_in_page(new_page, asgi_server, ana)
    quick_tricks(page)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    # Every seat shows its rating: hers provisional, the three bots' fixed one.
    ratings = page.locator("#table-view .tv-rating")
    expect(ratings).to_have_count(4)
    expect(page.locator("#table-view .tv-rating.rating-bot")).to_have_count(3)
    expect(page.locator("#table-view .tv-rating:not(.rating-bot)")).to_contain_text("1500?")
    # Each badge starts with its sign, and the legend under the table says what the
    # sign means (a phone shows no tooltip); the figure is read out with its meaning.
    mine = page.locator("#table-view .tv-rating:not(.rating-bot)")
    expect(mine.locator("[aria-hidden='true']")).to_have_text("\u2605\u20091500?")
    expect(mine.locator(".visually-hidden")).to_contain_text("Valoración 1500, provisional")
    legend = page.locator("#table-view .rating-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("Valoración junto a cada nombre")

    match = play_out(table)
    change = RatingChange.objects.get(match=match, user=ana)
    sign = "+" if change.change > 0 else "\u2212"
    panel = page.get_by_role("status").filter(has_text="Tu valoración")
    # The page draws every move's frame in turn: the last one comes well after the
    # services have finished the match.
    expect(panel).to_contain_text(
        f"Tu valoración: {change.after}? ({sign}{abs(change.change)})", timeout=60_000
    )
    assert change.change != 0
    expect(page.locator("[data-rating-change]")).to_have_attribute(
        "data-rating-change", str(change.change)
    )
    # The end panel also lists each player's new rating.
    expect(page.locator(".tv-places")).to_contain_text(re.compile(r"Valoración: \d+\?"))


def test_after_the_match_the_badges_show_the_ratings_after_it(asgi_server, new_page, make_user):
    """The seat badge said 1500? after a first match while the panel said 1230?."""
    ana, bea = make_user("so_ana_bernardez"), make_user("so_bea_castellanos")
    clock = Clock()
    online.queue_join(user=ana, now=clock())
    online.queue_join(user=bea, now=clock())
    online.queue_match(now=clock.advance(20))
    table = Table.objects.get(mode="online")
    page = signed_in_page(new_page, asgi_server, ana)
    page.set_viewport_size({"width": 390, "height": 844})
    quick_tricks(page)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    seat = page.locator("#table-view .tv-seat", has_text="so_bea")
    beside_bea = seat.locator(".tv-rating")
    expect(beside_bea).to_have_attribute("data-rating", "1500")
    # On a phone her whole name shows (it wraps, never "so_bea_c…"), and no seat
    # spills over the hand.
    name = seat.locator(".tv-name")
    expect(name).to_have_text("so_bea_castellanos")
    assert name.evaluate("e => e.scrollWidth <= e.clientWidth && e.scrollHeight <= e.clientHeight")
    # Measured in one go inside the page: a redraw between two calls would detach a seat.
    spill = page.evaluate(
        """() => {
          const mine = document.querySelector('#table-view .tv-mine').getBoundingClientRect();
          return [...document.querySelectorAll('#table-view .tv-seat')]
            .map((seat) => seat.getBoundingClientRect())
            .filter((box) => box.height && box.bottom > mine.top + 1).length;
        }"""
    )
    assert spill == 0
    match = play_out(table)
    after = RatingChange.objects.get(match=match, user=bea).after
    assert after != 1500
    expect(beside_bea).to_have_attribute("data-rating", str(after), timeout=60_000)
    expect(beside_bea.locator("[aria-hidden='true']")).to_have_text(f"\u2605\u2009{after}?")
    # Drawn again from the table's page, the same.
    page.reload()
    expect(beside_bea).to_have_attribute("data-rating", str(after))
