"""Matchpoint arithmetic (daily.scoring): 2 per player beaten, 1 per tie, the share of
the most there was to get; a player alone scores 50 %; unfinished deals are the worst."""

import pytest

from daily.scoring import deal_scores, percent, prize_quota


def test_each_result_beats_the_lower_ones_and_ties_count_half():
    scores = deal_scores({-2: 1, 1: 3, 4: 1})
    assert scores.players == 5
    # -2 beats nobody; each +1 beats the -2 and ties with two; +4 beats all four.
    assert scores.by_result == {-2: 0, 1: 2 * 1 + 2, 4: 2 * 4}
    assert [scores.percent(scores.by_result[r]) for r in (-2, 1, 4)] == [0.0, 50.0, 100.0]


def test_everyone_tied_scores_fifty_percent():
    scores = deal_scores({2: 4})
    assert scores.by_result == {2: 3 * 1}
    assert scores.percent(scores.by_result[2]) == 50.0


def test_a_single_participant_scores_fifty_percent():
    scores = deal_scores({5: 1})
    assert scores.players == 1 and scores.by_result == {5: 0}
    assert scores.percent(0) == 50.0
    assert percent(0, 0) == 50.0


def test_two_players_share_of_one_other():
    scores = deal_scores({-1: 1, 1: 1})
    assert (scores.percent(scores.by_result[-1]), scores.percent(scores.by_result[1])) == (0, 100)


def test_unfinished_deals_are_the_worst_result_and_tie_with_each_other():
    scores = deal_scores({-5: 1, 2: 2}, unfinished=3)
    assert scores.players == 6
    # Every finished result beats the three unfinished; the unfinished tie among themselves.
    assert scores.by_result == {-5: 2 * 3, 2: 2 * 4 + 1}
    assert scores.worst == 2
    assert scores.percent(scores.worst) == pytest.approx(100 * 2 / 10)
    assert scores.percent(scores.by_result[-5]) == pytest.approx(60.0)


def test_a_lone_unfinished_player_beats_nobody():
    assert deal_scores({}, unfinished=1).worst == 0
    assert deal_scores({1: 2}, unfinished=1).worst == 0


def test_the_percentages_of_a_deal_average_fifty():
    counts = {-4: 3, -1: 7, 1: 11, 2: 5, 5: 1}
    scores = deal_scores(counts, unfinished=2)
    total = sum(scores.percent(mp) * counts[r] for r, mp in scores.by_result.items())
    total += scores.percent(scores.worst) * 2
    assert total / scores.players == pytest.approx(50.0)


def test_negative_counts_are_refused():
    with pytest.raises(ValueError):
        deal_scores({1: -1})
    with pytest.raises(ValueError):
        deal_scores({}, unfinished=-1)


@pytest.mark.parametrize(
    ("players", "share", "quota"),
    [
        (0, 10, 0),
        (1, 10, 1),
        (9, 10, 1),
        (10, 10, 1),
        (19, 10, 1),
        (20, 10, 2),
        (100_000, 10, 10_000),
        (50, 0, 0),
    ],
)
def test_the_prize_reaches_the_top_share_rounded_down_at_least_one(players, share, quota):
    assert prize_quota(players, share) == quota
