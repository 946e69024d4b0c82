"""What the history pages ask of apps above them, registered from an `AppConfig.ready()`
(history never imports those apps):

- `register_player_section(provider)`: a panel of the player page. The provider is
  called as `provider(player=..., viewer=...)` (viewer: the request's user, maybe
  anonymous) and returns a `PlayerSection` (a template and its context) or None to
  show nothing. The daily deal registers its days and streak.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PlayerSection:
    template: str
    context: dict[str, Any] = field(default_factory=dict)


_sections: list[Callable[..., PlayerSection | None]] = []


def register_player_section(provider: Callable[..., PlayerSection | None]) -> None:
    if provider not in _sections:
        _sections.append(provider)


def player_sections(*, player: Any, viewer: Any) -> list[PlayerSection]:
    """The registered panels for `player`'s page, in registration order."""
    found = (provider(player=player, viewer=viewer) for provider in _sections)
    return [section for section in found if section is not None]
