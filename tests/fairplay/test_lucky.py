"""Close decisions on crafted figures, and the screening of a played match."""

import pytest

from fairplay import lucky
from fairplay.lucky import Thresholds, close_call, screen_match

THRESHOLDS = Thresholds(near_equal=0.2, apart_points=10, apart_tricks=1)


def call(chosen, knowledge, whole, unit="points"):
    return close_call(
        chosen=chosen, knowledge=knowledge, whole=whole, unit=unit, thresholds=THRESHOLDS
    )


def test_nearly_equal_cards_far_apart_on_the_whole_deal_make_a_close_decision():
    knowledge = {"1o": 0.50, "3o": 0.45, "10c": -0.40}
    whole = {"1o": -12, "3o": 14, "10c": -30}
    near, hit = call("3o", knowledge, whole)
    assert near == {"1o": (0.50, -12), "3o": (0.45, 14)}
    assert hit is True
    assert call("1o", knowledge, whole) == (near, False)


def test_a_card_the_seat_rated_clearly_best_is_no_guess():
    assert call("1o", {"1o": 0.50, "3o": 0.25}, {"1o": -12, "3o": 14}) is None


def test_cards_the_whole_deal_hardly_separates_are_not_close():
    assert call("1o", {"1o": 0.5, "3o": 0.45}, {"1o": 4, "3o": 13}) is None
    assert call("1o", {"1o": 0.5, "3o": 0.45}, {"1o": 4, "3o": 14}) is not None


def test_in_a_trick_contract_the_outcome_must_differ():
    knowledge = {"1o": 0.9, "3o": 0.85}
    assert call("1o", knowledge, {"1o": 2.0, "3o": 2.0}, unit="tricks") is None
    assert call("1o", knowledge, {"1o": 2.0, "3o": -2.0}, unit="tricks") == (
        {"1o": (0.9, 2.0), "3o": (0.85, -2.0)},
        True,
    )


def test_choosing_none_of_the_nearly_equal_cards_counts_for_nothing():
    knowledge = {"1o": 0.50, "3o": 0.45, "10c": -0.40}
    assert call("10c", knowledge, {"1o": -12, "3o": 14, "10c": 30}) is None


def test_several_nearly_equal_cards_hit_when_one_of_the_best_on_the_deal_is_chosen():
    knowledge = {"1o": 0.50, "3o": 0.45, "12o": 0.40}
    whole = {"1o": 14, "3o": -2, "12o": 14}
    assert call("12o", knowledge, whole)[1] is True
    assert call("3o", knowledge, whole)[1] is False


def test_the_two_searches_must_score_the_same_cards():
    with pytest.raises(ValueError):
        call("1o", {"1o": 0.5, "3o": 0.4}, {"1o": 0, "12o": 20})
    with pytest.raises(ValueError):
        call("10c", {"1o": 0.5, "3o": 0.4}, {"1o": 0, "3o": 20})


@pytest.fixture(scope="module")
def record():
    from tests.fairplay.simulation import play_match

    return play_match([False] * 4, seed=3, budget_ms=5, last_hand=2)


def test_only_the_cards_screened_are_examined_and_bids_never(record, monkeypatch):
    seen = []

    def screened(number, seat):
        seen.append(number)
        return seat == 0

    everyone = screen_match(record, screened=lambda n, s: True, thresholds=THRESHOLDS, samples=12)
    one = screen_match(record, screened=screened, thresholds=THRESHOLDS, samples=12)
    assert 0 < one.decisions < everyone.decisions
    assert {c.seat for c in one.calls} <= {0}
    assert one.judged <= one.decisions
    # Bids are never even asked about.
    from cuatrola.engine import Match

    steps = Match.replay(record)
    assert all(steps[n - 1][0].phase != "bidding" for n in seen)


def test_decisions_the_coach_judged_are_not_searched_again(record, monkeypatch):
    first = screen_match(record, screened=lambda n, s: True, thresholds=THRESHOLDS, samples=12)
    from coach.judge import decision_points, judge

    known = {
        p.number: judge(view=p.view, action=p.action, samples=12).values
        for p in decision_points(record)
        if p.kind != "bid"
    }

    def no_search(**kwargs):
        raise AssertionError("searched again")

    monkeypatch.setattr(lucky, "judge", no_search)
    again = screen_match(
        record, screened=lambda n, s: True, thresholds=THRESHOLDS, samples=12, knowledge=known
    )
    assert again == first
