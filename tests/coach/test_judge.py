"""The coach's judgement (coach/judge.py): what is judged, from which view, and how
a choice is marked."""

from __future__ import annotations

import random

import pytest

from coach.judge import (
    INACCURACY,
    accuracy,
    classify,
    decision_points,
    judge,
    view_seed,
)
from cuatrola.engine import Hand, Match, seat_view
from tests.cuatrola.bots.test_assess import STRONG, strong_hand


def random_match(seed: int) -> Match:
    rng = random.Random(seed)
    match = Match.new("online", seed=seed)
    while not match.is_over:
        match, _ = match.apply(rng.choice(match.legal_actions()))
    return match


def test_every_decision_with_a_choice_is_listed_with_the_acting_seats_view():
    match = random_match(4)
    record = match.to_dict()
    points = decision_points(record)
    steps = Match.replay(record)
    assert points and [p.number for p in points] == sorted(p.number for p in points)
    listed = {p.number for p in points}
    for number in range(1, len(steps)):
        before = steps[number - 1][0]
        has_choice = len(before.legal_actions()) > 1
        assert (number in listed) == has_choice  # a forced move is not judged
    for p in points:
        before = steps[p.number - 1][0]
        assert p.seat == before.to_play
        assert p.view == seat_view(before, p.seat)
        assert p.action in p.view["hand"]["legal_actions"]
        assert p.kind == (
            "bid"
            if before.phase == "bidding"
            else ("follow" if before.hand.current_trick else "lead")
        )
    assert {p.kind for p in points} == {"bid", "lead", "follow"}


def test_no_view_handed_to_the_search_shows_a_card_the_seat_could_not_see():
    match = random_match(9)
    for p in decision_points(match.to_dict()):
        hand = match.hands[p.hand_no - 1]
        own = set(p.view["hand"]["hand"])
        seen = set()
        for trick in p.view["hand"]["tricks"]:
            seen |= {play["card"] for play in trick["plays"]}
        seen |= {play["card"] for play in p.view["hand"]["trick"]["plays"]}
        for d in p.view["hand"]["declarations"]:
            seen |= set(d["cards"])
        seen.add(hand.trump_card)
        hidden = {c for s in range(4) if s != p.seat for c in hand.dealt_hands[s]} - seen
        text = repr(p.view["hand"])
        assert not any(f"'{code}'" in text for code in hidden - own), p.number
        # The match part is the public one: scores, hands' results, no deal.
        assert set(p.view) == {
            "rules", "target", "scores", "hand_no", "phase", "to_play", "winner",
            "personal_points", "tricks_won", "history", "hand",
        }  # fmt: skip


def test_a_deliberately_bad_choice_is_a_blunder_and_the_best_is_not_marked():
    view = seat_view(strong_hand(), 0)
    best = judge(view=view, action="quintola", samples=60)
    assert (best.mark, best.loss, best.best) == ("", 0.0, "quintola")
    passed = judge(view=view, action="pass", samples=60)
    assert passed.mark == "blunder" and passed.loss >= 1.0
    lead = strong_hand("quintola", "pass", "pass", "pass")
    risky = judge(view=seat_view(lead, 0), action="1c", samples=120)
    assert risky.mark == "blunder" and risky.best in {"1o", "3o", "12o", "11o"}
    assert judge(view=seat_view(lead, 0), action="1o", samples=120).mark == ""


def test_two_real_deals_behind_the_same_view_get_the_same_judgement():
    # The dealer's other cards differ (a cup or not): seat 0 cannot tell.
    other = [list(cards) for cards in STRONG]
    other[3][3], other[2][0] = other[2][0], other[3][3]  # 10c <-> 11c
    a = Hand.from_deal("online", 3, STRONG, (0, 0))
    b = Hand.from_deal("online", 3, other, (0, 0))
    for bid in ("quintola", "pass", "pass", "pass"):
        a, _ = a.apply(bid)
        b, _ = b.apply(bid)
    assert a.dealt_hands != b.dealt_hands
    assert seat_view(a, 0) == seat_view(b, 0)
    for action in a.legal_actions():
        assert judge(view=seat_view(a, 0), action=action, samples=40) == judge(
            view=seat_view(b, 0), action=action, samples=40
        )


@pytest.mark.parametrize(
    ("loss", "mark"),
    [
        (0.0, ""),
        (INACCURACY - 0.01, ""),
        (0.2, "inaccuracy"),
        (0.49, "inaccuracy"),
        (0.5, "mistake"),
        (0.99, "mistake"),
        (1.0, "blunder"),
        (4.0, "blunder"),
    ],
)
def test_the_marks_follow_the_thresholds(loss, mark):
    assert classify(loss) == mark


def test_accuracy_is_the_share_of_the_points_at_stake_that_was_kept():
    assert accuracy([]) is None
    assert accuracy([(0.0, 0.0), (0.0, 0.0)]) is None  # nothing was ever at stake
    assert accuracy([(0.0, 2.0), (0.0, 1.0)]) == 100
    assert accuracy([(2.0, 2.0)]) == 0
    assert accuracy([(1.0, 4.0), (0.0, 0.0)]) == 75
    assert accuracy([(0.5, 1.0), (0.0, 3.0)]) == 88  # 100 × (1 − 0.5 / 4), rounded


def test_the_seed_comes_from_the_view_alone():
    view = seat_view(strong_hand(), 0)
    assert view_seed(view) == view_seed({**view})
    assert view_seed(view) != view_seed(seat_view(strong_hand("pass"), 1))
