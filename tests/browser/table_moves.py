"""Moves at the live table, as a person makes them (shared by the browser tests)."""

from __future__ import annotations

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


def wait_for_turn_or_end(page, timeout: int = 60_000) -> bool:
    """Waits until this page may move; True once the match is over."""
    page.wait_for_function(ANY_MOVE_OR_END, timeout=timeout)
    return page.locator(RESULT).count() > 0


def play_one(page) -> None:
    """The highest bid offered, else the first playable card; waits for it to be applied.

    The turn can pass meanwhile (after a reload a bot plays for the seat until its
    socket is back): then nothing is clicked and the caller looks again."""
    bids = page.locator(".tv-bids button")
    button = bids.last if bids.count() else page.locator(".tv-hand-card--playable").first
    version = page.locator("#table-view").get_attribute("data-version")
    try:
        button.click(timeout=5_000)
    except PlaywrightError:
        return
    page.wait_for_function(MOVED_PAST, arg=version, timeout=60_000)


def play_to_the_end(page, moves: int = 400) -> None:
    for _move in range(moves):
        if wait_for_turn_or_end(page):
            return
        play_one(page)
    raise AssertionError(f"the match did not end within {moves} moves")
