"""`choose_action(..., reproducible=True)`: no clock, so the move depends on the view,
the level and the seed alone, however loaded the machine (the daily deal needs it)."""

import itertools

import pytest

from cuatrola.bots import choose_action, search
from cuatrola.engine import Hand, seat_view


def _positions() -> list[Hand]:
    out = []
    for n in range(6):
        hand = Hand.deal("online", dealer=n % 4, seed=700 + n)
        out.append(hand)  # bidding: solved deals behind each bid
        for _ in range(4):
            hand, _ = hand.apply("pass")
        out.append(hand)  # the first lead of a passed-out hand: rollouts
    return out


@pytest.fixture
def overloaded(monkeypatch):
    """A machine so loaded that every look at the clock finds a whole second gone."""
    ticks = itertools.count()
    monkeypatch.setattr(search.time, "perf_counter", lambda: float(next(ticks)))


def test_an_overloaded_clock_cuts_the_ordinary_search_and_changes_some_moves(overloaded):
    # The proof that the next test can fail: the safety net does change moves.
    changed = 0
    for i, hand in enumerate(_positions()):
        view = seat_view(hand, hand.to_play)
        with search.without_clock():
            calm = choose_action(view, level="hard", seed=i)
        changed += choose_action(view, level="hard", seed=i) != calm
    assert changed > 0


def test_a_reproducible_move_ignores_the_clock(overloaded, monkeypatch):
    moves = []
    for i, hand in enumerate(_positions()):
        moves.append(
            choose_action(seat_view(hand, hand.to_play), level="hard", seed=i, reproducible=True)
        )
    monkeypatch.undo()  # an idle machine now
    for i, hand in enumerate(_positions()):
        view = seat_view(hand, hand.to_play)
        assert choose_action(view, level="hard", seed=i, reproducible=True) == moves[i]


def test_the_clock_is_back_after_a_reproducible_move():
    assert search._CLOCK.get() is True
    hand = _positions()[1]
    choose_action(seat_view(hand, hand.to_play), level="medium", seed=3, reproducible=True)
    assert search._CLOCK.get() is True
