"""What online adds to games' pages (`games.hooks.register_page_section`): on the
lobby, the player's standing on the ladder of waits for abandoning rated matches
(docs/fairplay.md), before they even try to queue."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from games.hooks import PageSection
from online.selectors import partner_queue, quit_status


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


def lobby_partner_section(*, user: Any) -> PageSection | None:
    """In the lobby's invitations region: invitations to queue together, received and
    sent, and the form to invite a standing partner (docs/online.md, "Partners in the
    queue"). A player with no partner sees the way to the partners page."""
    if not getattr(user, "is_authenticated", False):
        return None
    found = partner_queue(user=user)
    return PageSection(
        template="online/lobby_partners.html",
        context={"queue": found, "pending": bool(found.incoming)},
    )
