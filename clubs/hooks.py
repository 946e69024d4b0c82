"""What the club page asks of apps above it, registered from an `AppConfig.ready()`
(clubs never imports those apps; docs/clubs.md, "Club tournaments"):

- `register_club_section(provider)`: a panel of the club page. The provider is called
  as `provider(club=..., user=..., membership=...)` (user: the request's, maybe
  anonymous; membership: theirs in the club, or None) and returns a `ClubSection` (a
  template and its context) or None to show nothing. Tournaments register the club's
  tournaments and, for its admins, the link to schedule one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class ClubSection:
    template: str
    context: dict[str, Any] = field(default_factory=dict)


_sections: list[Callable[..., ClubSection | None]] = []


def register_club_section(provider: Callable[..., ClubSection | None]) -> None:
    if provider not in _sections:
        _sections.append(provider)


def club_sections(*, club: Any, user: Any, membership: Any) -> list[ClubSection]:
    """The registered panels for `club`'s page, in registration order."""
    found = (provider(club=club, user=user, membership=membership) for provider in _sections)
    return [section for section in found if section is not None]
