"""Rule-based card play and hand strength: the easy bot, and the rollouts of medium
and hard (with the declarations their play-outs score).

Works on bitmasks (cuatrola.engine.core) and only on what the playing seat may
know: its hand, its legal cards, the current trick and the cards played.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cuatrola.engine.core import (
    CARD_BIT,
    CARD_POINTS,
    CARD_SUIT,
    PAIR_MASK,
    SUIT_MASK,
    beats,
    cards_of,
    declaration_choice,
    legal_mask,
)

if TYPE_CHECKING:
    from cuatrola.engine.rules import RuleSet


def _cheapest(mask: int) -> int:
    """The card of `mask` worth the fewest points (the weakest on a tie)."""
    best = -1
    best_key = (99, -1)
    for c in cards_of(mask):
        key = (CARD_POINTS[c], -c)
        if key < best_key:
            best_key = key
            best = c
    return best


def _is_top(card: int, gone: int) -> bool:
    """Whether `card` is the highest card of its suit not yet played (besides itself)."""
    higher = SUIT_MASK[CARD_SUIT[card]] & ((1 << card) - 1)
    return higher & ~gone == 0


def _discard(hand: int, legal: int, trump: int, keep_pairs: bool) -> int:
    """A card to throw away: no trump, no ace, keep king and knight together."""
    pool = legal & ~SUIT_MASK[trump] or legal
    if keep_pairs:
        broken = pool
        for s in range(4):
            pm = PAIR_MASK[s]
            if hand & pm == pm:
                broken &= ~pm
        pool = broken or pool
    return _cheapest(pool)


def play_card(
    *,
    hand: int,
    legal: int,
    trick: list[tuple[int, int]],
    trump: int,
    seat: int,
    gone: int,
    declarer: int,
    points_decide: bool,
    last_to_play: bool,
) -> int:
    """A sensible card: win tricks cheaply when worth it, don't waste points.

    `gone` holds the cards no longer in play (played ones and the own hand
    counts as known too): used to know which cards are now the highest.
    `declarer` is -1 in a pass hand.
    """
    if legal & (legal - 1) == 0:
        return legal.bit_length() - 1
    my_pair = seat & 1
    keep_pairs = points_decide
    if not trick:
        return _lead(hand, legal, trump, seat, gone | hand, declarer, points_decide)
    win = trick[0][1]
    win_seat = trick[0][0]
    for s, c in trick[1:]:
        if beats(c, win, trump):
            win = c
            win_seat = s
    trick_points = sum(CARD_POINTS[c] for _, c in trick)
    partner_wins = win_seat & 1 == my_pair
    winners = 0
    for c in cards_of(legal):
        if beats(c, win, trump):
            winners |= CARD_BIT[c]
    if partner_wins:
        safe = last_to_play or (
            (CARD_SUIT[win] == trump or _is_top(win, gone | hand))
            and not _can_be_trumped(trick, trump)
        )
        if safe and points_decide:
            # Give points to the partner: the richest non-trump, non-ace card.
            pool = legal & ~SUIT_MASK[trump]
            rich = 0
            for c in cards_of(pool):
                if CARD_POINTS[c] < 11 and not (
                    hand & PAIR_MASK[CARD_SUIT[c]] == PAIR_MASK[CARD_SUIT[c]] and c % 5 in (2, 3)
                ):
                    rich |= CARD_BIT[c]
            if rich:
                best = max(cards_of(rich), key=lambda c: (CARD_POINTS[c], -c))
                return best
        return _discard(hand, legal, trump, keep_pairs)
    # An opponent is winning.
    if winners:
        worth = (not points_decide) or trick_points >= 3 or last_to_play
        if worth:
            if last_to_play:
                return _cheapest(winners)
            # Prefer a winner that cannot be beaten by the cards still out.
            sure = 0
            for c in cards_of(winners):
                if _is_top(c, gone | hand):
                    sure |= CARD_BIT[c]
            return _cheapest(sure or winners)
    return _discard(hand, legal, trump, keep_pairs)


def trick_legal_mask(hand: int, trick: list[tuple[int, int]], trump: int) -> int:
    """The legal cards of `hand` in a trick of (seat, card) pairs. Not
    core.legal_mask_for_trick: that needs a list of cards built for every card
    played, and the rollouts ran 6% slower with it."""
    lead = win = -1
    if trick:
        lead = CARD_SUIT[trick[0][1]]
        win = trick[0][1]
        for _, c in trick[1:]:
            if beats(c, win, trump):
                win = c
    return legal_mask(hand, lead, win, trump)


def rule_based_card(
    hand: int,
    trick: list[tuple[int, int]],
    trump: int,
    seat: int,
    gone: int,
    declarer: int,
    points_decide: bool,
    players: int,
) -> int:
    """`play_card` at any point of a trick, its legal cards worked out from the trick
    (`players`: 3 in a contract hand, 4 in a pass hand). What rollouts play."""
    return play_card(
        hand=hand,
        legal=trick_legal_mask(hand, trick, trump),
        trick=trick,
        trump=trump,
        seat=seat,
        gone=gone,
        declarer=declarer,
        points_decide=points_decide,
        last_to_play=len(trick) == players - 1,
    )


def _can_be_trumped(trick: list[tuple[int, int]], trump: int) -> bool:
    """A rough guess: a plain-suit trick may still be trumped by those to come."""
    return CARD_SUIT[trick[0][1]] != trump and all(CARD_SUIT[c] != trump for _, c in trick)


def _lead(
    hand: int, legal: int, trump: int, seat: int, seen: int, declarer: int, points_decide: bool
) -> int:
    trumps = legal & SUIT_MASK[trump]
    if declarer == seat:
        # Draw trumps with the top trump, then cash the highest cards.
        if trumps:
            top = (trumps & -trumps).bit_length() - 1
            if _is_top(top, seen):
                return top
        for c in cards_of(legal & ~SUIT_MASK[trump]):
            if _is_top(c, seen):
                return c
        if trumps:
            return (trumps & -trumps).bit_length() - 1
        return _cheapest(legal)
    # Cash a top plain card (an ace, or a three once the ace is gone).
    for c in cards_of(legal & ~SUIT_MASK[trump]):
        if _is_top(c, seen) and CARD_POINTS[c] >= 10:
            return c
    return _discard(hand, legal, trump, points_decide)


def estimated_tricks(hand: int, trump: int) -> float:
    """A quick count of the tricks a hand should take as declarer (for bidding)."""
    t = hand & SUIT_MASK[trump]
    n_trumps = t.bit_count()
    est = 0.0
    base = 5 * trump
    ranks = [bool(t >> (base + r) & 1) for r in range(5)]
    # Top trumps are tricks; the next ones count when backed by length.
    if ranks[0]:
        est += 1
    if ranks[1]:
        est += 1 if ranks[0] or n_trumps >= 2 else 0.5
    if ranks[2]:
        est += 0.8 if n_trumps >= 3 else 0.4
    est += max(0, n_trumps - 3) * 0.9
    for s in range(4):
        if s == trump:
            continue
        m = hand & SUIT_MASK[s]
        b = 5 * s
        if m >> b & 1:
            est += 1 if n_trumps >= 1 else 0.8
            if m >> (b + 1) & 1:
                est += 0.6
        elif m >> (b + 1) & 1 and m.bit_count() >= 2:
            est += 0.3
    return est


def declaration_points(
    hands: list[int],
    winner: int,
    out: int,
    trump: int,
    used: list[int],
    count: list[int],
    rules: RuleSet,
) -> int:
    """Points of the automatic declaration after a trick won by `winner` (the engine's
    choice, within the rules' limit per pair); records it in `used` and `count`."""
    pair = winner & 1
    limit = rules.max_declarations_per_pair
    if limit is not None and count[pair] >= limit:
        return 0
    partner_hand = 0 if winner ^ 2 == out else hands[winner ^ 2]
    choice = declaration_choice(hands[winner], partner_hand, trump, used[pair])
    if choice is None:
        return 0
    suit = choice[1]
    used[pair] |= 1 << suit
    count[pair] += 1
    return rules.declaration_trumps if suit == trump else rules.declaration_plain
