"""What social adds to games' pages (`games.hooks.register_page_section`): partner
requests received, in the lobby's invitations region (reloaded live by the lobby
socket, docs/protocol.md)."""

from __future__ import annotations

from typing import Any

from games.hooks import PageSection
from social.selectors import incoming_partner_requests


def lobby_requests_section(*, user: Any) -> PageSection | None:
    if not getattr(user, "is_authenticated", False):
        return None
    incoming = incoming_partner_requests(user.pk)
    if not incoming:
        return None
    return PageSection(
        template="social/lobby_requests.html", context={"incoming": incoming, "pending": True}
    )
