"""The leaderboard: one view, one template."""

from __future__ import annotations

from django.http import HttpRequest
from django.template.response import TemplateResponse

from ratings import cached, selectors


def leaderboard(request: HttpRequest) -> TemplateResponse:
    """The top players by rating; a signed-in player also sees their own rank."""
    user_id = request.user.pk if request.user.is_authenticated else None
    board = selectors.leaderboard(user_id=user_id, players=cached.ranked_count())
    return TemplateResponse(
        request,
        "ratings/leaderboard.html",
        {
            "board": board,
            "board_size": selectors.BOARD_SIZE,
            "board_days": selectors.BOARD_DAYS,
        },
    )
