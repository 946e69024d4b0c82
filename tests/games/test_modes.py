"""Game modes as policies (games.modes): every mode is answered by a registered
policy, and the table services never branch on a mode themselves."""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import pytest

from economy.services import FULL_RATE, RewardRate
from games.models import Mode
from games.modes import ModePolicy, mode_policy

SERVICES = Path(__file__).resolve().parents[2] / "games" / "services"


@pytest.mark.parametrize("mode", Mode.values)
def test_every_mode_has_a_registered_policy(mode):
    policy = mode_policy(mode)
    assert isinstance(policy, ModePolicy) and policy.mode == mode


def test_a_mode_no_app_answers_is_a_deployment_error():
    with pytest.raises(LookupError):
        mode_policy("poker")


def test_the_rewards_each_mode_pays(settings):
    settings.ECONOMY_FRIENDS_RATE = "0.5"
    assert mode_policy(Mode.PRACTICE).reward_rate() is None
    assert mode_policy(Mode.FRIENDS).reward_rate() == RewardRate(
        coins=Fraction(1, 2), xp=Fraction(1, 2), places=frozenset({1, 2})
    )
    assert mode_policy(Mode.ONLINE).reward_rate() == FULL_RATE
    assert mode_policy(Mode.STAKE).reward_rate() == RewardRate(coins=Fraction(0))


def test_only_the_owner_arranges_the_seats_of_a_friends_room():
    assert [m for m in Mode.values if mode_policy(m).seats_by_owner] == [Mode.FRIENDS]


def test_the_table_services_never_compare_a_mode():
    compared = []
    for path in sorted(SERVICES.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Compare):
                names = [
                    n.attr if isinstance(n, ast.Attribute) else getattr(n, "id", "")
                    for n in ast.walk(node)
                    if isinstance(n, ast.Attribute | ast.Name)
                ]
                if "mode" in names or "Mode" in names:
                    compared.append(f"{path.name}:{node.lineno}")
    assert not compared
