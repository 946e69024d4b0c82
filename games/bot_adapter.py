"""The one place that calls the bots (games.bots, built in parallel).

Until `games.bots.choose_action` exists, a random legal action from the view
stands in, so swapping is this file only.
"""

from __future__ import annotations

import random
from typing import Any


def choose_bot_action(view: dict[str, Any], *, level: str, seed: int) -> str:
    try:
        from games.bots import choose_action
    except ImportError:
        legal = view["hand"]["legal_actions"]
        return random.Random(seed).choice(legal)
    return choose_action(view, level=level, seed=seed)
