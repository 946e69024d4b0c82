"""`{% player_clubs player %}`: a player's clubs, for the profile page (accounts),
which cannot import this app."""

from __future__ import annotations

from typing import Any

from django import template

from clubs.selectors import clubs_of

register = template.Library()


@register.inclusion_tag("clubs/_player_clubs.html")
def player_clubs(player: Any) -> dict[str, Any]:
    return {"memberships": clubs_of(player.pk)}
