"""Exact search of a deal with every hand visible (double dummy), on bitmasks.

Built on `cuatrola.engine.core` so the trick rules live in one place. Two kinds:

- contracts decided on tricks: a win/lose search (does the declarer make it?);
- hands decided on points (pass hands, the classic solo): alpha-beta on the
  point difference (cards, last-trick 10 and declarations), with a
  transposition table at trick starts.

A `Position` is a full-information state; `Solver.values(pos)` scores every
legal move of the seat to play from that seat's pair's point of view.
"""

from __future__ import annotations

from dataclasses import dataclass

from cuatrola.engine.core import (
    CARD_POINTS,
    CARD_SUIT,
    PAIR_MASK,
    cards_of,
    legal_mask,
)
from cuatrola.engine.rules import RuleSet

INF = 10_000


@dataclass(slots=True)
class Position:
    """Every card known: the state a solver needs, mid-trick or at a trick start."""

    hands: list[int]  # per seat (the sitting-out hand is never played)
    trump: int
    out: int  # sitting-out seat or -1
    declarer: int  # -1 in a pass hand
    contract: int  # bid level, 0 = pass hand
    leader: int
    trick: list[tuple[int, int]]  # (seat, card) already in the current trick
    tricks_won: list[int]  # per seat
    points: list[int]  # per pair so far (cards + declarations)
    decl_used: list[int]  # per pair: bitmask of declared suits
    decl_count: list[int]
    mano: int = 0


def _next(seat: int, out: int) -> int:
    n = (seat + 1) & 3
    if n == out:
        n = (n + 1) & 3
    return n


class Solver:
    """Exact search for one rule set; keeps no state between calls but node counts."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.nodes = 0
        self._tt: dict[tuple[int, int, int, int, int], bool] | None = None

    # ------------------------------------------------------------------ public

    def by_points(self, pos: Position) -> bool:
        return pos.contract == 0 or (pos.contract == 1 and self.rules.solo_by_points)

    def values(self, pos: Position, moves: list[int], *, margin: bool = False) -> list[float]:
        """Value of each move for the pair of the seat to play.

        +1 if that pair wins the hand (the contract's outcome, or the most hand
        points with the tie rule), -1 if not. With `margin`, hands decided on
        points give the final point difference instead (that pair minus the other).
        """
        to_play = self.to_play(pos)
        pair = to_play & 1
        if self.by_points(pos):
            vals = self._points_solve(pos, to_play, moves, margin)
            return [float(v if pair == 0 else -v) for v in vals]
        self._tt = {}  # shared by the moves: same deal, same contract
        try:
            return [1.0 if self._tricks_after(pos, to_play, m, pair) else -1.0 for m in moves]
        finally:
            self._tt = None

    def to_play(self, pos: Position) -> int:
        seat = pos.leader
        for _ in pos.trick:
            seat = _next(seat, pos.out)
        return seat

    def declarer_makes(self, pos: Position) -> bool:
        """Trick contracts only: whether the declarer makes it with best play by all."""
        return self._tricks_solve(pos, None)

    # ------------------------------------------------------------------ tricks

    def _tricks_after(self, pos: Position, seat: int, move: int, pair: int) -> bool:
        made = self._tricks_solve(pos, (seat, move))
        return made if pos.declarer & 1 == pair else not made

    def _tricks_solve(self, pos: Position, first: tuple[int, int] | None) -> bool:
        trump = pos.trump
        out = pos.out
        declarer = pos.declarer
        need = self.rules.tricks_needed[pos.contract]
        fail_at = 6 - need
        nplayers = 3 if out >= 0 else 4
        hands = list(pos.hands)
        tt: dict[tuple[int, int, int, int, int], bool] = self._tt if self._tt is not None else {}
        dpair = declarer & 1
        # Cards that can no longer matter for who wins: those already played and the
        # sitting-out hand. "live" = cards still to be played.
        live_all = 0
        for s in range(4):
            if s != out:
                live_all |= hands[s]
        solver = self

        def rec(
            seat: int, n: int, lead: int, win: int, winseat: int, dt: int, ot: int, live: int
        ) -> bool:
            solver.nodes += 1
            if n == nplayers:
                if winseat & 1 == dpair:
                    dt += 1
                    if dt >= need:
                        return True
                else:
                    ot += 1
                    if ot >= fail_at:
                        return False
                key = (hands[0], hands[1], hands[2], hands[3], winseat * 8 + dt)
                hit = tt.get(key)
                if hit is not None:
                    return hit
                r = rec(winseat, 0, -1, -1, -1, dt, ot, live)
                tt[key] = r
                return r
            hand = hands[seat]
            legal = legal_mask(hand, lead, win, trump)
            maximizing = seat & 1 == dpair
            others = live & ~hand
            nxt = _next(seat, out)
            for c in _ordered(
                legal, lead, win, trump, others | (1 << win if win >= 0 else 0), winseat, seat
            ):
                bit = 1 << c
                hands[seat] = hand ^ bit
                if n == 0:
                    r = rec(nxt, 1, CARD_SUIT[c], c, seat, dt, ot, live ^ bit)
                else:
                    cs = CARD_SUIT[c]
                    ws = CARD_SUIT[win]
                    if (c < win) if cs == ws else (cs == trump):
                        r = rec(nxt, n + 1, lead, c, seat, dt, ot, live ^ bit)
                    else:
                        r = rec(nxt, n + 1, lead, win, winseat, dt, ot, live ^ bit)
                hands[seat] = hand
                if r == maximizing:
                    return r
            return not maximizing

        dt = 0
        ot = 0
        for s in range(4):
            if s & 1 == dpair:
                dt += pos.tricks_won[s]
            else:
                ot += pos.tricks_won[s]
        trick = list(pos.trick)
        if first is not None:
            trick.append(first)
            hands[first[0]] ^= 1 << first[1]
            live_all ^= 1 << first[1]
        # Replay the partial trick to get its state.
        lead = -1
        win = -1
        winseat = -1
        for s, c in trick:
            if lead < 0:
                lead, win, winseat = CARD_SUIT[c], c, s
            else:
                cs = CARD_SUIT[c]
                if (c < win) if cs == CARD_SUIT[win] else (cs == trump):
                    win, winseat = c, s
        seat = pos.leader
        for _ in trick:
            seat = _next(seat, out)
        if not trick:
            seat = pos.leader
        return rec(seat, len(trick), lead, win, winseat, dt, ot, live_all)

    # ------------------------------------------------------------------ points

    def _points_solve(self, pos: Position, seat: int, moves: list[int], margin: bool) -> list[int]:
        """Per move: the final point difference pair 0 minus pair 1 (`margin`), else
        +1 when pair 0 wins the hand and -1 when pair 1 does, with best play by all.

        The win/lose search doubles every point and adds 1 to the pair that takes
        the last trick (or to the mano's pair at the root), so no final value is 0
        and its sign names the winner under the tie rule.
        """
        rules = self.rules
        scale = 1 if margin else 2
        tie_rule = rules.pass_tie if pos.contract == 0 else rules.solo_tie
        tiebit = 1 if (not margin and tie_rule == "last_trick") else 0
        pts_table = tuple(p * scale for p in CARD_POINTS)
        trump = pos.trump
        out = pos.out
        nplayers = 3 if out >= 0 else 4
        hands = list(pos.hands)
        declare = pos.contract == 0 or rules.declarations_in_solo
        limit = rules.max_declarations_per_pair
        if limit is None:
            limit = 99
        d40 = rules.declaration_trumps * scale
        d20 = rules.declaration_plain * scale
        last_bonus = rules.last_trick_bonus * scale + tiebit
        tt: dict[tuple[int, int, int, int, int], tuple[int, int]] = {}
        solver = self
        pair_trump = PAIR_MASK[trump]

        def declaration(winner: int, dstate: int) -> tuple[int, int]:
            """(points, new dstate) of the automatic declaration after a trick won."""
            pair = winner & 1
            used = dstate >> (4 * pair) & 15
            count = dstate >> (8 + 4 * pair) & 15
            if count >= limit:
                return 0, dstate
            partner = winner ^ 2
            h1 = hands[winner]
            h2 = hands[partner] if partner != out else 0
            suit = -1
            if not used >> trump & 1 and (
                h1 & pair_trump == pair_trump or h2 & pair_trump == pair_trump
            ):
                suit = trump
            else:
                for h in (h1, h2):
                    for s in range(4):
                        if s != trump and not used >> s & 1:
                            pm = PAIR_MASK[s]
                            if h & pm == pm:
                                suit = s
                                break
                    if suit >= 0:
                        break
            if suit < 0:
                return 0, dstate
            dstate |= 1 << (4 * pair + suit)
            dstate += 1 << (8 + 4 * pair)
            return (d40 if suit == trump else d20), dstate

        def start(leader: int, dstate: int, alpha: int, beta: int, left: int) -> int:
            """Value (pair 0 minus pair 1) of the tricks still to play."""
            if left == 0:
                return 0
            key = (hands[0], hands[1], hands[2], hands[3], leader * 65536 + dstate)
            hit = tt.get(key)
            a0 = alpha
            b0 = beta
            if hit is not None:
                lo, hi = hit
                if lo >= beta:
                    return lo
                if hi <= alpha:
                    return hi
                if lo == hi:
                    return lo
                if lo > alpha:
                    alpha = lo
                if hi < beta:
                    beta = hi
            v = rec(leader, 0, -1, -1, -1, 0, dstate, alpha, beta, left)
            lo, hi = hit if hit is not None else (-INF, INF)
            if v <= a0:
                hi = min(hi, v)
            elif v >= b0:
                lo = max(lo, v)
            else:
                lo = hi = v
            tt[key] = (lo, hi)
            return v

        def rec(
            seat: int,
            n: int,
            lead: int,
            win: int,
            winseat: int,
            tpts: int,
            dstate: int,
            alpha: int,
            beta: int,
            left: int,
        ) -> int:
            solver.nodes += 1
            if n == nplayers:
                left -= 1
                pts = tpts + (last_bonus if left == 0 else 0)
                if declare and left:
                    dp, dstate = declaration(winseat, dstate)
                    pts += dp
                if winseat & 1:
                    pts = -pts
                return pts + start(winseat, dstate, alpha - pts, beta - pts, left)
            hand = hands[seat]
            legal = legal_mask(hand, lead, win, trump)
            maximizing = not seat & 1
            nxt = _next(seat, out)
            best = -INF if maximizing else INF
            for c in _ordered_points(legal, lead, win, trump, winseat, seat):
                bit = 1 << c
                hands[seat] = hand ^ bit
                p = tpts + pts_table[c]
                if n == 0:
                    v = rec(nxt, 1, CARD_SUIT[c], c, seat, p, dstate, alpha, beta, left)
                else:
                    cs = CARD_SUIT[c]
                    ws = CARD_SUIT[win]
                    if (c < win) if cs == ws else (cs == trump):
                        v = rec(nxt, n + 1, lead, c, seat, p, dstate, alpha, beta, left)
                    else:
                        v = rec(nxt, n + 1, lead, win, winseat, p, dstate, alpha, beta, left)
                hands[seat] = hand
                if maximizing:
                    if v > best:
                        best = v
                        if v > alpha:
                            alpha = v
                            if alpha >= beta:
                                break
                else:
                    if v < best:
                        best = v
                        if v < beta:
                            beta = v
                            if alpha >= beta:
                                break
            return best

        base = (pos.points[0] - pos.points[1]) * scale
        if not margin and tie_rule == "mano":
            base += 1 if pos.mano & 1 == 0 else -1
        dstate = (
            pos.decl_used[0]
            | pos.decl_used[1] << 4
            | min(pos.decl_count[0], 15) << 8
            | min(pos.decl_count[1], 15) << 12
        )
        left = 5 - sum(pos.tricks_won)
        nxt = _next(seat, out)
        results = []
        for move in moves:
            trick = [*pos.trick, (seat, move)]
            lead = -1
            win = -1
            winseat = -1
            tpts = 0
            for s, c in trick:
                tpts += pts_table[c]
                if lead < 0:
                    lead, win, winseat = CARD_SUIT[c], c, s
                else:
                    cs = CARD_SUIT[c]
                    if (c < win) if cs == CARD_SUIT[win] else (cs == trump):
                        win, winseat = c, s
            hand = hands[seat]
            hands[seat] = hand ^ (1 << move)
            if margin:
                v = rec(nxt, len(trick), lead, win, winseat, tpts, dstate, -INF, INF, left)
                results.append(base + v)
            else:
                v = rec(nxt, len(trick), lead, win, winseat, tpts, dstate, -base, 1 - base, left)
                results.append(1 if base + v > 0 else -1)
            hands[seat] = hand
        return results


def _ordered(
    legal: int, lead: int, win: int, trump: int, others: int, winseat: int, seat: int
) -> list[int]:
    """Moves for the win/lose search: one card per run of equivalent cards, good ones first.

    Two cards of one suit in the same hand are equivalent when no card still
    to be played by anyone else lies between them.
    """
    cards = cards_of(legal)
    if len(cards) > 1:
        reduced = []
        prev = -1
        for c in cards:
            if (
                prev >= 0
                and CARD_SUIT[prev] == CARD_SUIT[c]
                and not others & ((1 << c) - (1 << (prev + 1)))
            ):
                prev = c
                continue
            reduced.append(c)
            prev = c
        cards = tuple(reduced)
    if lead < 0:
        return list(cards)
    # Following: cards that take the trick first (cheapest first), then the rest low first.
    winners = []
    losers = []
    for c in cards:
        cs = CARD_SUIT[c]
        if (c < win) if cs == CARD_SUIT[win] else (cs == trump):
            winners.append(c)
        else:
            losers.append(c)
    if (winseat ^ seat) & 1 == 0:
        return losers[::-1] + winners[::-1]
    return winners[::-1] + losers[::-1]


def _ordered_points(
    legal: int, lead: int, win: int, trump: int, winseat: int, seat: int
) -> list[int]:
    cards = cards_of(legal)
    if len(cards) == 1:
        return list(cards)
    if lead < 0:
        # Lead the strongest cards first, then the cheap ones.
        return sorted(cards, key=lambda c: (CARD_SUIT[c] == trump, c % 5))
    partner_wins = (winseat ^ seat) & 1 == 0
    winners = []
    losers = []
    for c in cards:
        cs = CARD_SUIT[c]
        if (c < win) if cs == CARD_SUIT[win] else (cs == trump):
            winners.append(c)
        else:
            losers.append(c)
    if partner_wins:
        # Give points (non-trumps first), keep winners for later.
        losers.sort(key=lambda c: (CARD_SUIT[c] == trump, -CARD_POINTS[c]))
        winners.sort(key=lambda c: CARD_POINTS[c])
        return losers + winners
    winners.sort(key=lambda c: (CARD_SUIT[c] == trump, CARD_POINTS[c] if c % 5 > 1 else -1))
    losers.sort(key=lambda c: CARD_POINTS[c])
    return winners + losers
