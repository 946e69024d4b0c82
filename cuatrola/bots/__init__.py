"""Computer players for Cuatrola (see docs/bots.md).

    from cuatrola.bots import choose_action
    action = choose_action(seat_view(match, seat), level="hard", seed=1)

A bot sees only its seat's view: its own cards, the public play and its legal
actions. It returns one of the view's legal actions, deterministically for a
given seed.
"""

from __future__ import annotations

import random
from typing import Any, Final

from .knowledge import Knowledge

LEVELS: Final = ("easy", "medium", "hard")
#: Default thinking time per move (ms) of each level; the site may pass less.
DEFAULT_BUDGET_MS: Final = {"easy": 0, "medium": 50, "hard": 400}


class BotError(ValueError):
    """A bot was asked something it cannot answer (bad level, not its turn, bad view).

    The shape of the engine's errors: a `code` (`not_a_seat_view`,
    `nothing_to_play`, `unknown_level`), JSON-ready `params` and an English `message`.
    """

    code: str = "bot_error"

    def __init__(self, message: str, *, code: str | None = None, **params: str) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.message = message
        self.params: dict[str, str] = params


class UnknownLevel(BotError):
    code = "unknown_level"


def choose_action(
    view: dict[str, Any],
    level: str = "easy",
    seed: int = 0,
    time_budget_ms: int | None = None,
    *,
    reproducible: bool = False,
) -> str:
    """One of `view`'s legal actions (a bid word or a card code) for the bot at `level`.

    `view` is `cuatrola.engine.seat_view(match_or_hand, seat)`. Deterministic for
    a given view, level and seed (a budget given in ms changes how long a
    search level thinks; with the default budget, searches are limited by
    sample counts, not the clock, so they are reproducible). The clock still
    stops a search at 1.25 times its budget on an overloaded machine, where the
    move may then differ; `reproducible=True` turns that safety net off, so the
    move depends on the view, level and seed alone (the daily deal).
    """
    if level not in LEVELS:
        raise UnknownLevel(
            f"unknown bot level {level!r} (known: {', '.join(LEVELS)})", level=repr(level)
        )
    try:
        k = Knowledge.from_view(view)
    except (KeyError, TypeError, AttributeError, ValueError, IndexError) as exc:
        raise BotError(f"not a seat view: {exc!r}", code="not_a_seat_view") from None
    if not k.legal:
        raise BotError(
            "this seat has nothing to play (not its turn, or the hand is over)",
            code="nothing_to_play",
        )
    if len(k.legal) == 1:
        return k.legal[0]
    rng = random.Random(f"cuatrola-bot:{level}:{seed}")
    budget = DEFAULT_BUDGET_MS[level] if time_budget_ms is None else max(0, int(time_budget_ms))
    if level == "easy":
        from .easy import choose

        action = choose(k, rng)
    else:
        from .search import choose as search_choose
        from .search import without_clock

        if reproducible:
            with without_clock():
                action = search_choose(k, rng, level=level, budget_ms=budget)
        else:
            action = search_choose(k, rng, level=level, budget_ms=budget)
    if action not in k.legal:  # never happens; a safety net for the live tables
        action = k.legal[0]
    return action


__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "BotError", "UnknownLevel", "choose_action"]
