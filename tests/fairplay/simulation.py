"""A simulated population for the fair-play screen (docs/fairplay.md): honest players
are the hard bot; a cheater is the same bot whose sampled worlds hold its partner's
real hand (it "sees its partner's hand"). Used by tests/fairplay and by
bench/fairplay_bench.py, which store the matches with the history tests'
`store_record`; never reachable from the site (nothing under the apps imports
tests/).

The bots play with no clock (`without_clock`) and seeded, so a run is the same on an
idle or a loaded machine. By default they solve the sampled deals in every hand
(`solving=True`: the hard bot's PIMC, its `HARD_POINTS_ROLLOUTS` setting off); see
docs/fairplay.md for why.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from cuatrola.bots import choose_action, search
from cuatrola.bots.assess import view_knowledge
from cuatrola.engine import Match as EngineMatch
from cuatrola.engine import seat_view
from cuatrola.engine.core import FULL_DECK

#: The bots' thinking budget (work, not time: see docs/bots.md, "Budgets").
BUDGET_MS = 50
LEVEL = "hard"


@contextmanager
def solving(enabled: bool = True) -> Iterator[None]:
    """The hard bot solves the sampled deals in hands decided on points too (PIMC), not
    only in trick contracts; restored after."""
    saved = search.HARD_POINTS_ROLLOUTS
    search.HARD_POINTS_ROLLOUTS = not enabled
    try:
        yield
    finally:
        search.HARD_POINTS_ROLLOUTS = saved


def peeking_action(match: EngineMatch, seat: int, *, seed: int, budget_ms: int = BUDGET_MS) -> str:
    """The hard bot's move for `seat` when it sees its partner's real hand: every world
    it samples deals the partner exactly those cards (the others as honestly)."""
    k = view_knowledge(seat_view(match, seat))
    if len(k.legal) == 1:
        return k.legal[0]
    partner = seat ^ 2
    held = match.hand.hand_mask(partner)
    k.known[partner] = held
    k.forbidden[partner] |= FULL_DECK & ~held
    for other in (seat ^ 1, seat ^ 3):
        k.forbidden[other] |= held
    rng = random.Random(f"cuatrola-bot:{LEVEL}:{seed}")
    with search.without_clock():
        return search.choose(k, rng, level=LEVEL, budget_ms=budget_ms)


def play_match(
    peeks: Sequence[bool],
    *,
    seed: int,
    budget_ms: int = BUDGET_MS,
    last_hand: int | None = None,
    solve: bool = True,
    passing: bool = False,
) -> dict[str, Any]:
    """A whole online match (or its first `last_hand` hands) played by four hard bots,
    those with `peeks[seat]` seeing their partner's hand: its engine record. With
    `passing`, every seat passes every bid (every hand is played for points, where the
    card play the screen judges is; the bids, which it does not judge, cost nothing)."""
    match = EngineMatch.new("online", seed=seed, last_hand=last_hand)
    moves = 0
    with solving(solve):
        while not match.is_over:
            seat = match.to_play
            assert seat is not None
            move_seed = seed * 100_003 + moves
            if passing and match.phase == "bidding":
                action = "pass"
            elif peeks[seat]:
                action = peeking_action(match, seat, seed=move_seed, budget_ms=budget_ms)
            else:
                action = choose_action(
                    seat_view(match, seat),
                    level=LEVEL,
                    seed=move_seed,
                    time_budget_ms=budget_ms,
                    reproducible=True,
                )
            match, _events = match.apply(action, seat=seat)
            moves += 1
    return match.to_dict()
