"""What one seat knows, read from its `seat_view` alone (never the full state).

`Knowledge.from_view` turns the JSON-ready view into bitmasks and the
inferences the rules allow: suits a seat has shown to lack, trumps it cannot
hold, higher cards it cannot hold (it failed to overtake when obliged), and
the cards every seat is known to hold (the trump card in the dealer's hand,
declared cards not yet played).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cuatrola.engine import rule_set
from cuatrola.engine.core import (
    CARD_BIT,
    CARD_SUIT,
    CODE_INDEX,
    FULL_DECK,
    SUIT_LETTERS,
    SUIT_MASK,
    beats,
)
from cuatrola.engine.rules import BID_LEVEL, RuleSet


def hand_part(view: dict[str, Any]) -> dict[str, Any]:
    """The hand part of a seat view (a match view nests it under "hand")."""
    inner = view.get("hand")
    if isinstance(inner, dict):
        return inner
    return view


@dataclass(slots=True)
class Knowledge:
    rules: RuleSet
    seat: int
    phase: str
    dealer: int
    mano: int
    scores: tuple[int, int]
    trump_suit: int
    trump_card: int
    dealer_holds_trump: bool
    #: (seat, bid level) in speaking order.
    bids: list[tuple[int, int]]
    declarer: int  # -1 when none (yet)
    contract: int  # bid level, 0 for a pass hand or while bidding
    out: int  # sitting-out seat, -1 if none
    own: int  # own cards (mask)
    played: int  # every card played so far, current trick included
    #: Cards played by each seat (mask), for what bids suggest about the dealt hand.
    played_by: list[int]
    trick: list[tuple[int, int]]  # current trick (seat, card)
    leader: int  # leader of the current trick (-1 while bidding)
    hand_sizes: list[int]
    tricks_won: list[int]
    #: Per seat, cards it is known NOT to hold (voids, failed overtakes).
    forbidden: list[int]
    #: Per seat, cards it is known to hold (trump card, declared cards).
    known: list[int]
    #: Points already won per pair (card points of tricks + declarations).
    points: list[int]
    #: Per pair, suits already declared (bitmask of suit indices) and count.
    decl_used: list[int]
    decl_count: list[int]
    legal: list[str]
    tricks_done: int
    #: Every card played so far in order, (seat, card), trick by trick (the current
    #: trick last): what `sampling.play_weight` replays.
    history: list[tuple[int, int]]

    @classmethod
    def from_view(cls, view: dict[str, Any]) -> Knowledge:
        v = hand_part(view)
        rules = rule_set(v["rules"])
        seat = v["seat"]
        if seat is None:
            raise ValueError("a bot needs a seat view (seat_view), not a public view")
        trump = v["trump"]
        trump_suit = SUIT_LETTERS.index(trump["suit"])
        trump_card = CODE_INDEX[trump["card"]]
        own = 0
        for code in v["hand"] or ():
            own |= CARD_BIT[CODE_INDEX[code]]
        forbidden = [0, 0, 0, 0]
        known = [0, 0, 0, 0]
        played = 0
        played_by = [0, 0, 0, 0]
        points = [0, 0]
        history: list[tuple[int, int]] = []

        def scan(plays: list[dict[str, Any]]) -> None:
            nonlocal played
            cards: list[int] = []
            win = -1
            for p in plays:
                s = p["seat"]
                c = CODE_INDEX[p["card"]]
                if cards:
                    _infer(forbidden, s, c, CARD_SUIT[cards[0]], win, trump_suit)
                    if beats(c, win, trump_suit):
                        win = c
                else:
                    win = c
                cards.append(c)
                history.append((s, c))
                played |= CARD_BIT[c]
                played_by[s] |= CARD_BIT[c]

        for t in v["tricks"]:
            scan(t["plays"])
            points[t["winner"] & 1] += t["points"]
        scan(v["trick"]["plays"])
        decl_used = [0, 0]
        decl_count = [0, 0]
        for d in v["declarations"]:
            pair = d["seat"] & 1
            points[pair] += d["points"]
            decl_used[pair] |= 1 << SUIT_LETTERS.index(d["suit"])
            decl_count[pair] += 1
            for code in d["cards"]:
                c = CODE_INDEX[code]
                if not played & CARD_BIT[c]:
                    known[d["seat"]] |= CARD_BIT[c]
        dealer = v["dealer"]
        if trump["dealer_holds"] and not played & CARD_BIT[trump_card]:
            known[dealer] |= CARD_BIT[trump_card]
        known[seat] = own
        # A known card is held by nobody else.
        for s in range(4):
            if s != seat:
                others = 0
                for o in range(4):
                    if o != s:
                        others |= known[o]
                forbidden[s] |= others | played
        declarer = v["declarer"] if v["declarer"] is not None else -1
        contract = BID_LEVEL[v["contract"]] if v["contract"] else 0
        out = v["sitting_out"] if v["sitting_out"] is not None else -1
        leader = v["trick"]["leader"]
        return cls(
            rules=rules,
            seat=seat,
            phase=v["phase"],
            dealer=dealer,
            mano=v["mano"],
            scores=(v["scores"][0], v["scores"][1]),
            trump_suit=trump_suit,
            trump_card=trump_card,
            dealer_holds_trump=bool(trump["dealer_holds"]),
            bids=[(b["seat"], BID_LEVEL[b["bid"]]) for b in v["bids"]],
            declarer=declarer,
            contract=contract,
            out=out,
            own=own,
            played=played,
            played_by=played_by,
            trick=[(p["seat"], CODE_INDEX[p["card"]]) for p in v["trick"]["plays"]],
            leader=leader if leader is not None else -1,
            hand_sizes=list(v["hand_sizes"]),
            tricks_won=list(v["tricks_won"]),
            forbidden=forbidden,
            known=known,
            points=points,
            decl_used=decl_used,
            decl_count=decl_count,
            legal=list(v["legal_actions"]),
            tricks_done=len(v["tricks"]),
            history=history,
        )

    @property
    def unseen(self) -> int:
        """Cards whose holder this seat does not know."""
        k = 0
        for s in range(4):
            if s != self.seat:
                k |= self.known[s]
        return FULL_DECK & ~self.own & ~self.played & ~k

    @property
    def points_decide(self) -> bool:
        return self.contract == 0 or (self.contract == 1 and self.rules.solo_by_points)

    def legal_mask(self) -> int:
        m = 0
        for a in self.legal:
            c = CODE_INDEX.get(a)
            if c is not None:
                m |= CARD_BIT[c]
        return m


def _infer(forbidden: list[int], s: int, c: int, lead: int, win: int, trump: int) -> None:
    """Record what playing `c` (not leading) tells about seat `s`'s hand."""
    cs = CARD_SUIT[c]
    ws = CARD_SUIT[win]
    if cs != lead:
        forbidden[s] |= SUIT_MASK[lead]  # failed to follow
        if lead == trump:
            return
        if ws != trump:
            if cs != trump:
                forbidden[s] |= SUIT_MASK[trump]  # failed to trump when obliged
        elif not (cs == trump and c < win):
            # A trump was in the trick and the seat did not over-trump.
            forbidden[s] |= SUIT_MASK[trump] & ((1 << win) - 1)
        return
    # Followed suit.
    if ws == lead and c > win:
        # Montar was obliged and the seat did not beat `win`.
        forbidden[s] |= SUIT_MASK[lead] & ((1 << win) - 1)
