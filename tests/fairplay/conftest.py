"""The cast and the matches of the fair-play tests: matches stored as the site stores
them (a short match the bots played once, stored as many times as needed), and the
screen's lucky-guess analysis replaced by crafted close decisions where a test is
about what the screen does with them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from fairplay import services
from fairplay.lucky import CloseCall, MatchScreen
from tests.accounts.conftest import moderator  # noqa: F401 (the staff who review)
from tests.fairplay.simulation import play_match
from tests.history.conftest import store_record


@pytest.fixture(autouse=True)
def _fairplay_settings(settings):
    settings.FAIRPLAY_MIN_TOGETHER = 3
    settings.FAIRPLAY_LUCKY_MIN_DECISIONS = 10
    settings.FAIRPLAY_BASELINE_MIN_DECISIONS = 10
    settings.FAIRPLAY_SAMPLES = 12
    settings.COACH_RUNNER = "off"


@pytest.fixture(scope="session")
def short_record():
    """One hand played by four hard bots (a small budget): stored as any match."""
    return play_match([False] * 4, seed=11, budget_ms=5, last_hand=1)


@pytest.fixture
def store(short_record):
    """store(users, mode="online", days_ago=1): a finished match of these seats."""

    def make(users, *, mode="online", days_ago=1, record=None):
        finished = timezone.now() - timedelta(days=days_ago)
        return store_record(users, record or short_record, mode=mode, finished_at=finished)

    return make


@pytest.fixture
def people(make_user):
    """Eight players: a, b, c, d, e, f, g, h (ids in that order)."""
    return [make_user(name) for name in "abcdefgh"]


class CraftedScreen:
    """Stands in for the lucky-guess analysis: each screened match gets, for each seat
    given, close decisions with these hits (True: the whole deal's choice)."""

    def __init__(self):
        self.by_match: dict[int, dict[int, list[bool]]] = {}
        self.default: dict[int, list[bool]] = {}
        self.calls: list[int] = []

    def set(self, match, seats: dict[int, list[bool]]):
        self.by_match[match.pk] = seats

    def __call__(self, record, *, screened, thresholds, samples, knowledge=None):
        match_id = record["_match_id"]
        self.calls.append(match_id)
        result = MatchScreen(decisions=40, judged=10)
        seats = self.by_match.get(match_id, self.default)
        number = 1
        for seat, hits in seats.items():
            for hit in hits:
                result.calls.append(
                    CloseCall(
                        number=number,
                        hand_no=1,
                        seat=seat,
                        chosen="1o",
                        near={"1o": (0.1, 12.0), "3o": (0.05, -4.0)},
                        unit="points",
                        hit=hit,
                    )
                )
                number += 1
        return result


@pytest.fixture
def crafted(monkeypatch):
    """The screen's analysis replaced by crafted close decisions (`CraftedScreen`)."""
    fake = CraftedScreen()
    real = services.games_selectors.finished_match

    def finished_match(match_id):
        found = real(match_id)
        if found is not None:
            found.record["_match_id"] = match_id
        return found

    monkeypatch.setattr(services.games_selectors, "finished_match", finished_match)
    monkeypatch.setattr(services, "screen_match", fake)
    return fake
