"""Finished matches to analyse, and the coach set to run only when a test says so."""

from __future__ import annotations

import pytest

from cuatrola.engine import Hand
from cuatrola.engine import Match as EngineMatch
from games.models import Match, Mode
from games.state import cache_clear
from tests.history.conftest import store_played, store_record


@pytest.fixture(autouse=True)
def _coach_settings(settings):
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"
    settings.COACH_RUNNER = "off"
    settings.COACH_SAMPLES = 12  # a few deals a decision: the figures' shape, fast
    cache_clear()


@pytest.fixture
def queued(monkeypatch):
    """The analyses queued after commit, in order (the runner is off in tests)."""
    from coach import hooks

    calls: list[int] = []
    monkeypatch.setattr(hooks, "_scheduler", calls.append)
    return calls


@pytest.fixture
def partner(make_user):
    return make_user("pablo")


@pytest.fixture
def played(player, partner) -> Match:
    """An online match played to its end, ana in seat 0 and pablo in seat 2."""
    return store_played([player, None, partner, None], seed=11, mode=Mode.ONLINE)


def one_hand_record(deal, actions, seed: int = 5) -> dict:
    """A match of one hand (`last_hand` 1): the dealer seat 3, scores 0–0."""
    hand = Hand.from_deal("online", 3, deal, (0, 0))
    record = {
        "format": 1,
        "rules": "online",
        "seed": seed,
        "first_dealer": 3,
        "hands": [{**hand.to_dict(), "actions": list(actions)}],
        "last_hand": 1,
    }
    assert EngineMatch.from_dict(record).is_over
    return record


def store_one_hand(users_by_seat, deal, actions, *, mode: str = Mode.ONLINE) -> Match:
    return store_record(users_by_seat, one_hand_record(deal, actions), mode=mode)


#: Seat 0 bids a quintola and leads the ace of cups; the dealer, void in cups, trumps
#: it with the jack of trumps: the quintola fails at the first trick.
QUINTOLA_FAILS = ["quintola", "pass", "pass", "pass", "1c", "10c", "10o"]


def failing_quintola_deals() -> tuple[list[list[str]], list[list[str]]]:
    """Two deals seat 0 cannot tell apart: seat 1 and seat 2 (sitting out) swap two
    cards nobody ever plays."""
    first = [
        ["1o", "3o", "12o", "11o", "1c"],
        ["10c", "12c", "1e", "3e", "12e"],
        ["3c", "11c", "11e", "1b", "3b"],
        ["10e", "12b", "11b", "10b", "10o"],
    ]
    second = [list(cards) for cards in first]
    second[1][1], second[2][3] = second[2][3], second[1][1]  # 12c <-> 1b
    return first, second
