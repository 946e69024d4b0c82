"""The achievements' reads kept in the cache: how rare each achievement is (the only
module of the app that writes the cache)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db.models import Count

from achievements.models import Award
from history.models import PlayerMatch

RARITY_KEY = "achievements:rarity:v1"
RARITY_SECONDS = 600


def rarity() -> dict[str, Any]:
    """Holders per achievement and the players counted (those with a settled match):
    two aggregate queries, cached for ten minutes."""

    def compute() -> dict[str, Any]:
        holders = dict(
            Award.objects.values("code").annotate(n=Count("id")).values_list("code", "n")
        )
        players = PlayerMatch.objects.values("user_id").distinct().count()
        return {"holders": holders, "players": players}

    found = cache.get_or_set(RARITY_KEY, compute, RARITY_SECONDS)
    return found if found is not None else compute()


def rarity_changed() -> None:
    cache.delete(RARITY_KEY)
