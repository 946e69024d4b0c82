"""The lobby's clubs region (games.hooks.register_page_section)."""

from __future__ import annotations

from typing import Any

from clubs.selectors import clubs_of, pending_for_admin
from games.hooks import PageSection


def lobby_section(*, user: Any) -> PageSection | None:
    """The player's clubs and, for the clubs they run, the requests waiting."""
    if not user.is_authenticated:
        return None
    return PageSection(
        template="clubs/lobby_section.html",
        context={"memberships": clubs_of(user.pk), "pending": pending_for_admin(user.pk)},
    )
