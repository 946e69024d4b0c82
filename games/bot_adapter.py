"""The one place the site calls the bots (`cuatrola.bots`): a seat's view in, one of
its legal actions out, deterministic for the seed."""

from __future__ import annotations

from typing import Any

from cuatrola.bots import choose_action


def choose_bot_action(
    view: dict[str, Any], *, level: str, seed: int, reproducible: bool = False
) -> str:
    return choose_action(view, level=level, seed=seed, reproducible=reproducible)
