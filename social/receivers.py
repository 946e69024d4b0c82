"""Social's receiver of games' `match_started` (connected in `SocialConfig.ready()`):
after a start's commit, the players' friends who asked for it hear that they started
playing (docs/notifications.md, `friend_playing`)."""

from __future__ import annotations

from typing import Any

from social.services import friends_playing_notify


def on_match_started(sender: Any, *, user_ids: list[int], **kwargs: Any) -> None:
    friends_playing_notify(user_ids=user_ids)
