"""The players' coins, XP and level, as the navigation shows them (read from the
economy's selectors)."""

from __future__ import annotations

from economy.models import Currency


def user_balances(user_ids: list[int]) -> dict[int, dict[str, int]]:
    """Each user's coins, XP and level (what the navigation shows), by user id."""
    from economy.levels import level_progress
    from economy.selectors import balances

    return {
        user_id: {
            "coins": amounts[Currency.COINS],
            "xp": amounts[Currency.XP],
            "level": level_progress(amounts[Currency.XP]).level,
        }
        for user_id in user_ids
        for amounts in [balances(user_id)]
    }
