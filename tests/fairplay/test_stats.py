"""The screen's arithmetic: z-scores against chance, and the coins a pot moved."""

import math

import pytest

from fairplay.stats import binomial_z, coins_between, pot_flows


def test_hits_as_expected_score_zero_and_more_hits_score_above():
    assert binomial_z(50, [0.5] * 100) == 0
    assert binomial_z(60, [0.5] * 100) == pytest.approx(2.0)
    assert binomial_z(40, [0.5] * 100) == pytest.approx(-2.0)


def test_each_trial_keeps_its_own_chance():
    chances = [0.9] * 10 + [0.1] * 10
    # mean 10, variance 20 * 0.09 = 1.8
    assert binomial_z(13, chances) == pytest.approx(3 / math.sqrt(1.8))


def test_no_trials_or_no_spread_has_no_score():
    assert binomial_z(0, []) is None
    assert binomial_z(5, [1.0] * 5) is None


def test_a_pot_moves_each_losers_stake_to_the_winners_in_proportion():
    # Four players staked 100: the winners got 200 each from the pot, net +100.
    flows = pot_flows({1: 100, 3: 100, 2: -100, 4: -100})
    assert flows == {(2, 1): 50, (2, 3): 50, (4, 1): 50, (4, 3): 50}


def test_a_refunded_table_moves_nothing():
    assert pot_flows({1: 0, 2: 0}) == {}
    assert pot_flows({}) == {}


def test_coins_always_one_way_are_one_sided_and_net():
    tables = [{1: 100, 3: 100, 2: -100, 4: -100}] * 6
    coins = coins_between(1, 2, tables)
    # B (2) paid A (1) half its stake at each of the six tables.
    assert coins.tables == 6
    assert coins.a_to_b == -300
    assert coins.one_sided == 1.0
    assert coins.z == pytest.approx(6 / math.sqrt(6))


def test_coins_won_and_lost_in_turn_are_not_one_sided():
    won = {1: 100, 3: 100, 2: -100, 4: -100}
    lost = {1: -100, 3: -100, 2: 100, 4: 100}
    coins = coins_between(1, 2, [won, lost, won, lost])
    assert coins.tables == 4
    assert coins.a_to_b == 0
    assert coins.one_sided == 0.0


def test_partners_and_strangers_move_nothing_between_them():
    # 1 and 3 partners (both won); 5 never sat there.
    tables = [{1: 100, 3: 100, 2: -100, 4: -100}]
    assert coins_between(1, 3, tables).tables == 0
    assert coins_between(1, 5, tables).tables == 0
    assert coins_between(1, 5, tables).one_sided is None
