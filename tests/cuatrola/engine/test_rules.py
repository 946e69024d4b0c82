"""Rule sets are data (docs/rules.md §9)."""

from __future__ import annotations

import json

import pytest

from cuatrola.engine import RULE_SETS, UnknownRuleSet, rule_set


def test_the_online_rule_set_holds_the_online_column() -> None:
    rs = rule_set("online")
    assert rs.target == 21
    assert rs.pass_hand_bonus_above == 100
    assert rs.pass_tie == "last_trick"
    assert not rs.solo_by_points
    assert not rs.declarations_in_solo
    assert rs.max_declarations_per_pair == 2
    assert rs.contract_value("solo") == 2
    assert rs.contract_value("cuatrola") == 4
    assert rs.contract_value("quintola") == 5


def test_the_classic_rule_set_holds_the_classic_column() -> None:
    rs = rule_set("classic")
    assert rs.target == 11
    assert rs.pass_hand_bonus_above is None
    assert rs.pass_tie == "mano"
    assert rs.solo_by_points
    assert rs.declarations_in_solo
    assert rs.max_declarations_per_pair is None


def test_rule_sets_are_looked_up_by_name() -> None:
    assert set(RULE_SETS) == {"online", "classic"}
    assert rule_set(RULE_SETS["classic"]) is RULE_SETS["classic"]
    assert json.dumps(rule_set("online").to_dict())


def test_an_unknown_rule_set_name_is_a_clear_error() -> None:
    with pytest.raises(UnknownRuleSet, match=r"unknown rule set 'speed'.*classic, online"):
        rule_set("speed")
