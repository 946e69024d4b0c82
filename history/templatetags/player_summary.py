"""The player's figures in short, for pages of lower apps (the profile page)."""

from typing import Any

from django import template

from history import cached

register = template.Library()


@register.inclusion_tag("history/_player_summary.html")
def player_summary(user: Any) -> dict[str, Any]:
    """Matches played and won, reputation, and the link to the player page (whose
    figures are cached per player: no query between two of their matches)."""
    stats = cached.player_stats(user)
    return {"player": user, "record": stats.totals, "reputation": stats.reputation}
