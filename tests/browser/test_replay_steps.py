"""In Chromium: the replay shows the step asked last. Each step is fetched by htmx into
`#replay`, which its answer replaces. A person who presses Next and then End before
Next's answer has come must see the end: without the two requests kept in order, Next's
answer replaced `#replay` first and End's, coming later, went into the replaced (gone)
element, so the page stayed on Next's step (seen on a busy CI machine in the daily
deal's replay). `hx-sync="#replay:replace"` (history/templates/history/match.html,
daily/templates/daily/deal.html, coach/templates/coach/_summary.html): a step asked
drops the one still on its way."""

from __future__ import annotations

import time

from playwright.sync_api import expect

from history import views
from tests.browser.test_history_flow import log_in
from tests.history.conftest import play_practice
from tests.threads import run_together

SLOW_SECONDS = 1.5


class SlowLastStep(views.Replay):
    """The replay, with its last step answered late (a busy server)."""

    def frame(self, step):
        if step == self.last:
            time.sleep(SLOW_SECONDS)
        return super().frame(step)


def test_the_step_asked_last_is_the_one_shown(asgi_server, new_page, player, monkeypatch):
    # Played in a thread of its own: this one runs Playwright's event loop.
    [match] = run_together(1, lambda _index: play_practice(player))
    page = new_page()
    log_in(page, asgi_server, player)
    page.goto(f"{asgi_server.url}/history/matches/{match.pk}/")
    step = page.locator("[data-replay-step]")
    expect(step).to_have_attribute("data-replay-step", "0")
    last = page.locator('[data-replay="last"]').get_attribute("hx-get").split("step=")[1]

    monkeypatch.setattr(views, "Replay", SlowLastStep)
    page.locator('[data-replay="next"]').click()  # step 1, answered at once
    with page.expect_response(lambda response: f"step={last}" in response.url):
        page.keyboard.press("End")  # before that answer is drawn: the last step, answered late
    # Both answers are in (step 1's long before): the page shows the last step asked.
    expect(step).to_have_attribute("data-replay-step", last)
    expect(page.locator(".replay-end")).to_be_visible()
