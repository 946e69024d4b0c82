"""Low-level primitives: card indices, tables, hand bitmasks, the trick rules.

This module is the single place where the rules of a trick live. The engine's
hand state uses it, and bots (double-dummy solvers, simulations) may use it
directly; everything here is part of the stable, documented API
(docs/engine.md, "Low-level primitives").

Card index ``i`` in 0..19: ``suit = i // 5`` (0 oros, 1 copas, 2 espadas,
3 bastos) and ``rank = i % 5`` counted from the strongest card of the suit:
0 As (1), 1 Tres (3), 2 Rey (12), 3 Caballo (11), 4 Sota (10). So within one
suit a LOWER index is a STRONGER card, and in a bitmask the strongest card of
a suit is its lowest set bit. A hand (any set of cards) is an ``int`` bitmask
with bit ``i`` set when card ``i`` is in it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

SUIT_LETTERS: Final = "oceb"
#: Code numbers by rank index, strongest first.
RANK_NUMBERS: Final = (1, 3, 12, 11, 10)
RANK_POINTS: Final = (11, 10, 4, 3, 2)
NUM_CARDS: Final = 20
NUM_SEATS: Final = 4
FULL_DECK: Final = (1 << NUM_CARDS) - 1
TOTAL_POINTS: Final = 120

#: Rank indices of the king (rey) and knight (caballo): a declaration's cards.
KING: Final = 2
KNIGHT: Final = 3

CARD_SUIT: Final[tuple[int, ...]] = tuple(i // 5 for i in range(NUM_CARDS))
CARD_RANK: Final[tuple[int, ...]] = tuple(i % 5 for i in range(NUM_CARDS))
CARD_NUMBER: Final[tuple[int, ...]] = tuple(RANK_NUMBERS[i % 5] for i in range(NUM_CARDS))
CARD_POINTS: Final[tuple[int, ...]] = tuple(RANK_POINTS[i % 5] for i in range(NUM_CARDS))
CARD_CODES: Final[tuple[str, ...]] = tuple(
    f"{RANK_NUMBERS[i % 5]}{SUIT_LETTERS[i // 5]}" for i in range(NUM_CARDS)
)
CODE_INDEX: Final[dict[str, int]] = {code: i for i, code in enumerate(CARD_CODES)}
CARD_BIT: Final[tuple[int, ...]] = tuple(1 << i for i in range(NUM_CARDS))

SUIT_MASK: Final[tuple[int, ...]] = tuple(0b11111 << (5 * s) for s in range(4))
#: Bitmask of the king and knight of each suit (a declaration).
PAIR_MASK: Final[tuple[int, ...]] = tuple(
    (1 << (5 * s + KING)) | (1 << (5 * s + KNIGHT)) for s in range(4)
)

# Card points of every 5-bit suit pattern, so a mask's points are 4 lookups.
_SUIT_PATTERN_POINTS: Final[tuple[int, ...]] = tuple(
    sum(RANK_POINTS[r] for r in range(5) if p >> r & 1) for p in range(32)
)


def mask_points(mask: int) -> int:
    """Card points held in a bitmask of cards."""
    p = _SUIT_PATTERN_POINTS
    return p[mask & 31] + p[mask >> 5 & 31] + p[mask >> 10 & 31] + p[mask >> 15 & 31]


def mask_of(cards: Iterable[int]) -> int:
    """Bitmask of card indices."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_CARDS_CACHE: dict[int, tuple[int, ...]] = {}


def cards_of(mask: int) -> tuple[int, ...]:
    """Card indices in a bitmask, ascending (o c e b; strongest first in a suit)."""
    cached = _CARDS_CACHE.get(mask)
    if cached is not None:
        return cached
    out = []
    m = mask
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    result = tuple(out)
    if len(_CARDS_CACHE) < 200_000:
        _CARDS_CACHE[mask] = result
    return result


_CODES_CACHE: dict[int, tuple[str, ...]] = {}


def codes_of(mask: int) -> tuple[str, ...]:
    """Card codes in a bitmask, in the engine's deterministic order (as `cards_of`)."""
    cached = _CODES_CACHE.get(mask)
    if cached is not None:
        return cached
    result = tuple(CARD_CODES[c] for c in cards_of(mask))
    if len(_CODES_CACHE) < 200_000:
        _CODES_CACHE[mask] = result
    return result


def strongest(mask: int) -> int:
    """Index of the lowest set bit: within one suit, the strongest card. -1 if empty."""
    return (mask & -mask).bit_length() - 1


def beats(card: int, winning: int, trump_suit: int) -> bool:
    """Whether `card`, played to a trick now won by `winning`, takes the lead.

    True when it is a stronger card of the same suit, or a trump played on a
    non-trump. A card of a third suit never wins.
    """
    cs = CARD_SUIT[card]
    ws = CARD_SUIT[winning]
    if cs == ws:
        return card < winning
    return cs == trump_suit


def trick_winner(cards: Sequence[int], trump_suit: int) -> int:
    """Position (0-based, in play order) of the card that wins a trick.

    The highest trump if any, else the highest card of the suit led.
    """
    best = 0
    win = cards[0]
    for pos in range(1, len(cards)):
        c = cards[pos]
        if beats(c, win, trump_suit):
            best = pos
            win = c
    return best


def legal_mask(hand: int, lead_suit: int, winning: int, trump_suit: int) -> int:
    """The cards of `hand` a seat may play (docs/rules.md §5).

    `lead_suit` is -1 when the seat leads (any card). Otherwise `winning` is
    the card currently winning the trick: it tells everything the obligations
    need, since it is the highest trump in the trick when one was played, and
    the highest card of the suit led otherwise.
    """
    if lead_suit < 0:
        return hand
    in_lead = hand & SUIT_MASK[lead_suit]
    if in_lead:
        if CARD_SUIT[winning] != lead_suit:
            # A trump (not the suit led) is winning: follow suit, any card of it.
            return in_lead
        # Montar: beat the highest card of the suit led if possible, else asistir.
        return (in_lead & ((1 << winning) - 1)) or in_lead
    trumps = hand & SUIT_MASK[trump_suit]
    if trumps:
        if CARD_SUIT[winning] != trump_suit:
            return trumps  # fallar: any trump
        # Over-trump if possible, else any card at all.
        return (trumps & ((1 << winning) - 1)) or hand
    return hand


def trick_state(cards: Sequence[int], trump_suit: int) -> tuple[int, int]:
    """(lead_suit, winning card) of a partial trick, as `legal_mask` wants them.

    An empty trick gives (-1, -1).
    """
    if not cards:
        return -1, -1
    win = cards[0]
    for c in cards[1:]:
        if beats(c, win, trump_suit):
            win = c
    return CARD_SUIT[cards[0]], win


def legal_mask_for_trick(hand: int, cards: Sequence[int], trump_suit: int) -> int:
    """`legal_mask` from the cards already in the trick, in play order."""
    lead, win = trick_state(cards, trump_suit)
    return legal_mask(hand, lead, win, trump_suit)


def declaration_choice(
    winner_hand: int, partner_hand: int, trump_suit: int, used_suits: int
) -> tuple[int, int] | None:
    """The automatic declaration after a trick won (docs/rules.md §6).

    `winner_hand` / `partner_hand` are the trick winner's and its partner's
    cards once the trick is complete (pass 0 for a partner who sits out);
    `used_suits` has bit `s` set for suits the pair already declared this
    hand. Returns (holder, suit) — holder 0 the winner, 1 the partner — or
    None. The 40 (trumps) comes before any 20; then the winner's 20s before
    the partner's, suits in the order o, c, e, b. Whether declarations happen
    at all and the per-pair limit are the caller's (see RuleSet).
    """
    if not used_suits >> trump_suit & 1:
        pm = PAIR_MASK[trump_suit]
        if winner_hand & pm == pm:
            return 0, trump_suit
        if partner_hand & pm == pm:
            return 1, trump_suit
    for holder, hand in ((0, winner_hand), (1, partner_hand)):
        # Bit 5s+2 of hand & (hand >> 1) is set when suit s has king and knight.
        both = hand & (hand >> 1)
        for suit in range(4):
            if suit != trump_suit and both >> (5 * suit + KING) & 1 and not used_suits >> suit & 1:
                return holder, suit
    return None


def next_seat(seat: int, sitting_out: int = -1) -> int:
    """The seat after `seat` in turn order, skipping `sitting_out` (-1: none)."""
    n = (seat + 1) & 3
    if n == sitting_out:
        n = (n + 1) & 3
    return n


def pair_of(seat: int) -> int:
    """Pair 0 = seats 0 and 2, pair 1 = seats 1 and 3."""
    return seat & 1
