"""Moves at the live table, as a person makes them (shared by the browser tests)."""

from __future__ import annotations

import time

from playwright.sync_api import Error as PlaywrightError

RESULT = "#table-view .tv-result"
# A bid or a card this page may play now, or the end of the match.
ANY_MOVE_OR_END = """() => document.querySelector('#table-view .tv-result') ||
  document.querySelector('.tv-bids button:not([aria-disabled])') ||
  document.querySelector('.tv-hand-card--playable')"""
MOVED_PAST = """(v) => document.querySelector('#table-view .tv-result') ||
  document.getElementById('table-view').dataset.version !== v"""
FAST_TRICKS = "window.cuatrolaTrickHoldMs = 0;"


def quick_tricks(page) -> None:
    """Completed tricks leave the centre at once (the pace of the test, not the game)."""
    page.add_init_script(FAST_TRICKS)


# What the page knows of its table, for a failure's message.
PAGE_STATE = """() => {
  const root = document.getElementById('table-root');
  const view = document.getElementById('table-view');
  const status = document.getElementById('connection-status');
  return {socket: root && root.dataset.socket, version: view && view.dataset.version,
          status: status && status.textContent, offline: root && root.className};
}"""


def wait_for_turn_or_end(page, timeout: int = 60_000) -> bool:
    """Waits until this page may move; True once the match is over. A page still not
    able to move after `timeout` fails with what it knows of its table and what the
    database holds (a stall once seen on a loaded machine and not reproduced since)."""
    try:
        page.wait_for_function(ANY_MOVE_OR_END, timeout=timeout)
    except PlaywrightError as error:
        raise AssertionError(f"{error}; page: {page.evaluate(PAGE_STATE)}; {_database()}") from None
    return page.locator(RESULT).count() > 0


def next_to_move(pages, timeout: int = 60_000):
    """The first of `pages` that may move (or whose match is over). Several people at
    one table: whoever holds the turn, found by looking at each page in turn."""
    deadline = time.monotonic() + timeout / 1000
    while time.monotonic() < deadline:
        for page in pages:
            if page.evaluate(ANY_MOVE_OR_END):
                return page
        pages[0].wait_for_timeout(100)
    states = [page.evaluate(PAGE_STATE) for page in pages]
    raise AssertionError(f"no page could move within {timeout} ms; pages: {states}; {_database()}")


def _database() -> str:
    from games.models import Match, Seat

    match = Match.objects.order_by("-pk").first()
    if match is None:
        return "no match"
    seats = [
        (s.position, s.kind, s.connections, s.absent_since is not None, s.bot_controlled)
        for s in Seat.objects.filter(table_id=match.table_id).order_by("position")
    ]
    return (
        f"match {match.pk} {match.status} v{match.version} to_play {match.to_play} "
        f"deadline {match.turn_deadline}; seats {seats}"
    )


def play_one(page) -> None:
    """The highest bid offered, else the first playable card; waits for it to be applied.

    The turn can pass meanwhile (after a reload a bot plays for the seat until its
    socket is back): then nothing is clicked and the caller looks again. A click that
    changed nothing (it landed while the hand was being drawn again, on a loaded
    machine) is made again after a while, as a person would; after 60 s the failure
    says what the page and the database hold."""
    version = page.locator("#table-view").get_attribute("data-version")
    for _attempt in range(6):
        bids = page.locator(".tv-bids button")
        button = bids.last if bids.count() else page.locator(".tv-hand-card--playable").first
        try:
            button.click(timeout=5_000)
        except PlaywrightError:
            if _attempt == 0:
                return
        try:
            page.wait_for_function(MOVED_PAST, arg=version, timeout=10_000)
            return
        except PlaywrightError:
            if not page.evaluate(ANY_MOVE_OR_END):
                continue  # not this page's move now: wait on for the version
    raise AssertionError(
        f"a move clicked at version {version} was not applied within 60 s; "
        f"page: {page.evaluate(PAGE_STATE)}; {_database()}"
    )


def play_to_the_end(page, moves: int = 400) -> None:
    for _move in range(moves):
        if wait_for_turn_or_end(page):
            return
        play_one(page)
    raise AssertionError(f"the match did not end within {moves} moves")
