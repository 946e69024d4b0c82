"""Deals consistent with what one seat knows (`Knowledge`), and what bids suggest.

Every sampled deal gives each other seat exactly its number of cards, holds
the cards it is known to hold (the trump card in the dealer's hand, declared
cards) and none it is known not to hold (voids, failed overtakes). Bids are
taken into account by weighting: a seat that passed rarely holds a very
strong hand, a seat that bid rarely holds a weak one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from itertools import combinations

from cuatrola.engine.core import CARD_BIT, CARD_SUIT, beats, cards_of, legal_mask

from .heuristic import estimated_tricks, play_card
from .knowledge import Knowledge

#: Enumerate every consistent deal when there are at most this many candidates.
ENUMERATE_LIMIT = 2000


def _needs(k: Knowledge) -> list[int]:
    needs = [0, 0, 0, 0]
    for s in range(4):
        if s != k.seat:
            needs[s] = k.hand_sizes[s] - k.known[s].bit_count()
    return needs


def deal_count(k: Knowledge) -> int:
    """Number of ways to share the unseen cards, ignoring voids (an upper bound)."""
    n = k.unseen.bit_count()
    total = 1
    for s, need in enumerate(_needs(k)):
        if s != k.seat and need > 0:
            total *= math.comb(n, need)
            n -= need
    return total


def sample_deal(k: Knowledge, rng: random.Random, tries: int = 200) -> list[int] | None:
    """One deal (a hand mask per seat) consistent with the hard facts, or None."""
    needs = _needs(k)
    pool = cards_of(k.unseen)
    others = [s for s in range(4) if s != k.seat]
    allowed = {s: ~k.forbidden[s] for s in others}
    # Most constrained cards first.
    elig = []
    for c in pool:
        seats = [s for s in others if allowed[s] & CARD_BIT[c]]
        elig.append((len(seats), c, seats))
    elig.sort()
    for _ in range(tries):
        left = needs[:]
        hands = list(k.known)
        hands[k.seat] = k.own
        ok = True
        for _, c, seats in elig:
            choice = [s for s in seats if left[s] > 0]
            if not choice:
                ok = False
                break
            # Weight by the room left so that deals come out close to uniform.
            total = sum(left[s] for s in choice)
            r = rng.random() * total
            for s in choice:
                r -= left[s]
                if r < 0:
                    break
            hands[s] |= CARD_BIT[c]
            left[s] -= 1
        if ok:
            return hands
    return None


def all_deals(k: Knowledge) -> Iterator[list[int]]:
    """Every deal consistent with the hard facts (use when `deal_count` is small)."""
    needs = _needs(k)
    others = [s for s in range(4) if s != k.seat]
    base = list(k.known)
    base[k.seat] = k.own

    def rec(i: int, pool: int, hands: list[int]) -> Iterator[list[int]]:
        if i == len(others):
            yield hands[:]
            return
        s = others[i]
        choices = cards_of(pool & ~k.forbidden[s])
        if len(choices) < needs[s]:
            return
        if i == len(others) - 1:
            if pool & k.forbidden[s] or pool.bit_count() != needs[s]:
                return
            hands[s] |= pool
            yield hands[:]
            hands[s] ^= pool
            return
        for combo in combinations(choices, needs[s]):
            m = 0
            for c in combo:
                m |= CARD_BIT[c]
            hands[s] |= m
            yield from rec(i + 1, pool & ~m, hands)
            hands[s] ^= m

    yield from rec(0, k.unseen, base)


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


#: Estimated tricks around which a seat is about as likely to bid each level as not.
BID_MIDPOINTS = (0.0, 2.4, 3.3, 4.2)
BID_SLOPE = 2.2


def bid_weight(k: Knowledge, hands: list[int]) -> float:
    """How well a deal fits the bids heard (1 = perfectly, near 0 = hardly).

    A seat's dealt hand is its sampled cards plus those it has played.
    """
    w = 1.0
    highest = 0
    for s, level in k.bids:
        if s == k.seat:
            highest = max(highest, level)
            continue
        dealt = hands[s] | k.played_by[s]
        est = estimated_tricks(dealt, k.trump_suit)
        if level == 0:
            # Passing: unlikely with a hand worth more than the bid it could make.
            nxt = min(highest + 1, 3)
            w *= 1.0 - 0.9 * _sigmoid(BID_SLOPE * (est - BID_MIDPOINTS[nxt] - 0.4))
        else:
            w *= 0.05 + 0.95 * _sigmoid(BID_SLOPE * (est - BID_MIDPOINTS[level]))
            highest = max(highest, level)
    return w


#: Chance that another seat plays the card the rule-based policy would play there
#: (the rest is spread evenly over its other legal cards): how much a deal is believed
#: in after each card seen played (`play_weight`).
PLAY_AGREE = 0.85


def play_weight(k: Knowledge, hands: list[int], agree: float | None = None) -> float:
    """How well a deal fits the cards the other seats have played (1 = no evidence).

    Replays the hand so far: before each card another seat played with a choice,
    its hand then (its sampled cards plus those it played since) gives the
    rule-based policy's card (`heuristic.play_card`, what easy plays and what
    medium's rollouts assume). A deal where that card is the one played gets the
    factor `agree`, else (1 - agree) / (other legal cards).
    """
    if agree is None:
        agree = PLAY_AGREE
    history = k.history
    if not history:
        return 1.0
    nplayers = 3 if k.out >= 0 else 4
    trump = k.trump_suit
    declarer = k.declarer
    by_points = k.points_decide
    me = k.seat
    cur = [hands[s] | k.played_by[s] for s in range(4)]
    gone = 0
    trick: list[tuple[int, int]] = []
    lead = -1
    win = -1
    w = 1.0
    miss = 1.0 - agree
    for s, c in history:
        if s != me:
            h = cur[s]
            legal = legal_mask(h, lead, win, trump)
            if legal & (legal - 1):
                choice = play_card(
                    hand=h,
                    legal=legal,
                    trick=trick,
                    trump=trump,
                    seat=s,
                    gone=gone,
                    declarer=declarer,
                    points_decide=by_points,
                    last_to_play=len(trick) == nplayers - 1,
                )
                w *= agree if choice == c else miss / (legal.bit_count() - 1)
        bit = CARD_BIT[c]
        cur[s] ^= bit
        gone |= bit
        if not trick:
            lead = CARD_SUIT[c]
            win = c
        elif beats(c, win, trump):
            win = c
        trick.append((s, c))
        if len(trick) == nplayers:
            trick = []
            lead = win = -1
    return w


def _weight(k: Knowledge, d: list[int], use_bids: bool, use_plays: bool) -> float:
    w = bid_weight(k, d) if use_bids and k.bids else 1.0
    if use_plays:
        w *= play_weight(k, d)
    return w


def sample_deals(
    k: Knowledge,
    rng: random.Random,
    n: int,
    *,
    use_bids: bool,
    use_plays: bool = False,
    batch_factor: int = 3,
) -> list[tuple[list[int], float]]:
    """Up to `n` (deal, weight) pairs: every deal when few remain, else random ones.

    With `use_bids` (`use_plays`), random deals are drawn from a batch
    `batch_factor` times larger in proportion to `bid_weight` (times
    `play_weight`), so they carry weight 1; enumerated deals carry their weight.
    """
    use_plays = use_plays and any(s != k.seat for s, _ in k.history)
    if deal_count(k) <= max(n, ENUMERATE_LIMIT // 4):
        deals = list(all_deals(k))
        if deals and len(deals) <= n:
            if not (use_bids and k.bids) and not use_plays:
                return [(d, 1.0) for d in deals]
            return [(d, _weight(k, d, use_bids, use_plays)) for d in deals]
    if not use_plays and (not use_bids or not any(s != k.seat for s, _ in k.bids)):
        out = []
        for _ in range(n):
            d = sample_deal(k, rng)
            if d is None:
                break
            out.append((d, 1.0))
        return out
    batch = []
    weights = []
    for _ in range(batch_factor * n):
        d = sample_deal(k, rng)
        if d is None:
            break
        batch.append(d)
        weights.append(_weight(k, d, use_bids, use_plays))
    if not batch or sum(weights) <= 0:
        return []
    picks = rng.choices(range(len(batch)), weights=weights, k=n)
    return [(batch[i], 1.0) for i in picks]
