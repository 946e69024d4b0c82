"""The screen's arithmetic (pure: no Django): z-scores against what chance expects,
and the coins a stake pot moved from each loser to each winner (docs/fairplay.md)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass


def binomial_z(hits: int, chances: Sequence[float]) -> float | None:
    """How many standard deviations `hits` successes lie above what independent trials
    with these chances expect (the normal approximation of their sum: mean Σp,
    variance Σp(1−p)); None without trials or without any spread."""
    mean = sum(chances)
    variance = sum(p * (1 - p) for p in chances)
    if not chances or variance <= 0:
        return None
    return (hits - mean) / math.sqrt(variance)


def pot_flows(nets: Mapping[int, int]) -> dict[tuple[int, int], float]:
    """The coins each player who lost at a stake table paid each player who gained
    there, from each player's net (what the pot paid them minus their stake, refunds
    counted): a loser's loss is shared among the gainers in proportion to their gains.
    Keys are (payer, receiver)."""
    gains = {user: net for user, net in nets.items() if net > 0}
    total = sum(gains.values())
    flows: dict[tuple[int, int], float] = {}
    if total <= 0:
        return flows
    for payer, net in nets.items():
        if net >= 0:
            continue
        for receiver, gain in gains.items():
            flows[(payer, receiver)] = -net * gain / total
    return flows


@dataclass(frozen=True)
class Coins:
    """Coins moved between A and B at the stake tables where they were opponents."""

    #: Tables where coins moved between them.
    tables: int
    #: Net coins from A to B (negative: from B to A).
    a_to_b: int
    #: |net| / all the coins that moved between them either way (1: always one way).
    one_sided: float | None
    #: The tables where the coins went the net's way, as a z-score against a fair coin.
    z: float | None


def coins_between(a: int, b: int, tables: Iterable[Mapping[int, int]]) -> Coins:
    """From each shared stake table's nets by user (`pot_flows`)."""
    moves = []
    for nets in tables:
        flows = pot_flows(nets)
        moved = flows.get((a, b), 0.0) - flows.get((b, a), 0.0)
        if abs(moved) > 1e-9:
            moves.append(moved)
    net = sum(moves)
    gross = sum(abs(m) for m in moves)
    if not moves:
        return Coins(0, 0, None, None)
    same_way = sum(1 for m in moves if (m > 0) == (net > 0))
    return Coins(
        tables=len(moves),
        a_to_b=round(net),
        one_sided=abs(net) / gross,
        z=binomial_z(same_way, [0.5] * len(moves)),
    )
