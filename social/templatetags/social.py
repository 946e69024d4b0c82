"""`{% social_buttons player %}`: add as a friend, block or unblock, for the pages of
lower apps (a player's profile) that cannot import this one."""

from __future__ import annotations

from typing import Any

from django import template

from social import selectors

register = template.Library()


@register.inclusion_tag("social/_buttons.html", takes_context=True)
def social_buttons(context: dict[str, Any], player: Any) -> dict[str, Any]:
    request = context["request"]
    viewer = request.user
    if not viewer.is_authenticated or viewer.pk == player.pk:
        return {"show": False}
    return {
        "show": True,
        "player": player,
        "next": request.get_full_path(),
        "blocked": player.pk in selectors.blocked_ids(viewer.pk),
        "friend": selectors.are_friends(viewer.pk, player.pk),
        "partner": selectors.standing_partnership(viewer.pk, player.pk) is not None,
        "csrf_token": context.get("csrf_token"),
    }
