"""What online adds to games' pages (`games.hooks.register_page_section`): on the
lobby, the player's standing on the ladder of waits for abandoning rated matches
(docs/fairplay.md), before they even try to queue."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.hooks import PageSection
from online.selectors import quit_status


def lobby_section(*, user: Any) -> PageSection | None:
    if not getattr(user, "is_authenticated", False):
        return None
    status = quit_status(user=user)
    if status is None:
        return None
    return PageSection(
        template="online/lobby_section.html",
        context={"quit": status, "next": reverse("games:lobby")},
    )
