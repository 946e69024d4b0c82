from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject


def wallet(request: HttpRequest) -> dict[str, Any]:
    """`economy_nav`: the logged-in user's coins and level, read only if a template uses it."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}

    def summary() -> dict[str, Any]:
        from economy.levels import level_progress
        from economy.selectors import balances

        money = balances(user)
        return {"coins": money["coins"], "level": level_progress(money["xp"])}

    return {"economy_nav": SimpleLazyObject(summary)}
