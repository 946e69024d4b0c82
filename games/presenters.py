"""Shapes a seat's view (an engine view dict) into what the table templates show.

Only the view of the viewer's seat (or the public view) is used, so a page can
never show more than the socket would send.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import hooks
from games.cardnames import bid_label, card_label, suit_label
from games.engine import Hand
from games.engine import Match as EngineMatch
from games.errors import ENGINE_REASONS, engine_reason
from games.modes import mode_policy

# Bots' names: Spanish first names, a different one for each bot at a table.
BOT_NAMES = (
    "Lola", "Paco", "Carmen", "Manolo", "Pilar", "Curro", "Rocío", "Chema",
    "Nuria", "Andrés", "Elena", "Javi", "Marta", "Pepe", "Inés", "Luis",
    "Rosa", "Quique", "Amparo", "Toño", "Begoña", "Iker", "Merche", "Rafa",
)  # fmt: skip

__all__ = ["bid_label", "board_context", "card", "table_facts"]

BIDS = ("pass", "solo", "cuatrola", "quintola")


def card(code: str) -> dict[str, str]:
    return {"code": code, "name": card_label(code), "suit": code[-1], "number": code[:-1]}


def bot_names(*, seed: int, taken: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """Four distinct bot names, one per position, the same for every call with this
    seed (the match's seed, or the table's id before a match): a bot keeps its name
    for the whole match. Names a player at the table uses (any case) are skipped."""
    return list(_bot_names(seed, frozenset(taken)))


@functools.lru_cache(maxsize=4096)
def _bot_names(seed: int, taken: frozenset[str]) -> tuple[str, ...]:
    free = [name for name in BOT_NAMES if name.casefold() not in taken]
    return tuple(random.Random(f"bot-names-{seed}").sample(free, 4))


def player_names(*, seed: int, people: dict[int, str], bots: Iterable[int]) -> list[str | None]:
    """The one naming rule of a table's four positions, live or finished: a person is
    their username (`people`, by position), a bot (a position in `bots`) the name
    `bot_names` draws from `seed` (never a person's name there), an empty seat None.
    The table, the history list and the replay all name seats through it."""
    drawn = bot_names(seed=seed, taken={name.casefold() for name in people.values()})
    bot_positions = set(bots)
    return [
        people.get(position, drawn[position] if position in bot_positions else None)
        for position in range(4)
    ]


def seat_names(*, table: Any, seats: list[Any], match: Any | None) -> list[str | None]:
    """Each seat's name: the player's username, the bot's name, None for an empty seat."""
    return player_names(
        seed=match.seed if match is not None else table.pk,
        people={seat.position: seat.user.username for seat in seats if seat.user_id},
        bots=[seat.position for seat in seats if not seat.user_id and seat.kind == "bot"],
    )


def table_facts(*, table: Any, stakes: Any | None) -> str:
    """What is played at `table`, as the page title and the board say it: the mode,
    the rule set and, at a stake table, the stake and the pot (`games.modes.TableStakes`;
    the table renderer says the same from the frame's `table`)."""
    facts = [str(table.get_mode_display()), str(table.get_rules_display())]
    if stakes is not None:
        facts.append(_("Stake: {coins} coins").replace("{coins}", str(stakes.stake)))
        if stakes.pot:
            facts.append(_("Pot: {coins} coins").replace("{coins}", str(stakes.pot)))
    return " · ".join(facts)


def _trick(trick: Any, hand_no: int) -> dict[str, Any]:
    return {
        "hand_no": hand_no,
        "number": trick.number,
        "leader": trick.leader,
        "plays": [{"seat": s, "card": c} for s, c in trick.plays],
        "winner": trick.winner,
        "points": trick.points,
    }


def last_trick(engine: EngineMatch) -> dict[str, Any] | None:
    """The last completed trick, with its winner: the current hand's, else (no trick
    complete yet in this hand) the previous hand's last one."""
    hands = engine.hands
    for hand_no in (len(hands), len(hands) - 1):
        if hand_no >= 1 and hands[hand_no - 1].tricks:
            return _trick(hands[hand_no - 1].tricks[-1], hand_no)
    return None


def hand_summary(hand: Hand, hand_no: int, *, final: bool) -> dict[str, Any]:
    """What a finished hand came to, per pair (pair 0: seats 0 and 2)."""
    result = hand.result
    assert result is not None
    by_points = result.hand_points is not None
    last_seat = result.last_trick_seat
    tricks = result.tricks_per_seat
    return {
        "hand_no": hand_no,
        "final": final,
        "kind": result.kind,
        "contract": result.contract,
        "declarer": result.declarer,
        "sitting_out": result.sitting_out,
        "made": result.made,
        "tricks": [tricks[0] + tricks[2], tricks[1] + tricks[3]],
        "tricks_per_seat": list(tricks),
        "card_points": list(result.card_points),
        "declarations": [
            {"seat": d.seat, "suit": d.suit, "points": d.points, "cards": list(d.cards)}
            for d in result.declarations
        ],
        "last_trick_seat": last_seat,
        "last_trick_bonus": hand.rules.last_trick_bonus
        if by_points and last_seat is not None
        else 0,
        "hand_points": list(result.hand_points)
        if by_points and result.hand_points is not None
        else None,
        "tie": result.tie,
        "scoring_pair": result.scoring_pair,
        "match_points": result.match_points,
        "scores": [
            hand.scores[p] + (result.match_points if p == result.scoring_pair else 0)
            for p in (0, 1)
        ],
    }


def last_summary(engine: EngineMatch) -> dict[str, Any] | None:
    """The summary of the hand just finished: the deciding hand once the match is
    over, else the one before the hand in progress (None during the first hand)."""
    hands = engine.hands
    if engine.is_over:
        return hand_summary(hands[-1], len(hands), final=True)
    if len(hands) >= 2:
        return hand_summary(hands[-2], len(hands) - 1, final=False)
    return None


def _seat_name(seat: Any, names: list[str | None] | None = None) -> str:
    if names is not None and names[seat.position]:
        return names[seat.position]
    if seat.kind == "human":
        return seat.user.username
    if seat.kind == "bot":
        return _("Bot")
    return _("Empty seat")


#: A card's tooltip when it cannot be played, by the engine's refusal code; the rules'
#: obligations read as the websocket's refusals do (games/errors.ENGINE_REASONS).
CARD_REFUSAL_LABELS = {
    "not_your_turn": gettext_lazy("Not your turn"),
    "bidding_not_over": gettext_lazy("Bidding is not over"),
}


def _refusal(refusal: dict[str, Any] | None) -> str:
    """Why a card the seat holds cannot be played now, from the engine's refusal
    (`{"code": ..., "params": ...}` of the seat view's `refusals`)."""
    if refusal is None:
        return _("Not allowed by the rules")
    code, params = refusal["code"], refusal.get("params") or {}
    label = CARD_REFUSAL_LABELS.get(code)
    if label is not None:
        return str(label)
    if code in ENGINE_REASONS:
        return engine_reason(code, params)
    return _("Not allowed by the rules")


def seat_rating(*, table: Any, seat: Any) -> dict[str, Any] | None:
    """The rating shown beside a seat's name at a rated table: a person's (as when
    they sat down, `provisional` until their tenth rated match) or a bot level's
    fixed one (`bot`). None at unrated tables, for empty seats and unrated people."""
    if not mode_policy(table.mode).rated:
        return None
    if seat.kind == "bot":
        value = hooks.bot_rating(table.bot_level)
        return None if value is None else {"value": value, "provisional": False, "bot": True}
    if seat.kind != "human" or seat.rating is None:
        return None
    return {"value": seat.rating, "provisional": seat.rating_provisional, "bot": False}


def board_context(
    *,
    table: Any,
    seats: list[Any],
    match: Any | None,
    view: dict[str, Any] | None,
    position: int | None,
) -> dict[str, Any]:
    me = position if position is not None else 0
    names = seat_names(table=table, seats=seats, match=match)
    layout = {"bottom": me, "right": (me + 1) % 4, "top": (me + 2) % 4, "left": (me + 3) % 4}
    ctx: dict[str, Any] = {
        "table": table,
        "match": match,
        "position": position,
        "spectator": position is None,
        "view": view,
    }
    hand = (view or {}).get("hand") or {}
    trick_by_seat: dict[int, dict[str, str]] = {}
    for play in hand.get("trick", {}).get("plays", []):
        seat, code = (play[0], play[1]) if isinstance(play, list) else (play["seat"], play["card"])
        trick_by_seat[seat] = card(code)
    last_bid: dict[int, str] = {}
    for bid in hand.get("bids", []):
        seat, word = (bid[0], bid[1]) if isinstance(bid, list) else (bid["seat"], bid["bid"])
        last_bid[seat] = bid_label(word)
    places = {}
    if match is not None and match.status == "finished":
        places = {ms.position: ms for ms in match.match_seats.all()}
    seat_boxes = {}
    for where, pos in layout.items():
        seat = seats[pos]
        seat_boxes[where] = {
            "position": pos,
            "name": _seat_name(seat, names),
            "kind": seat.kind,
            "level": table.bot_level if seat.kind == "bot" else None,
            "is_me": pos == position,
            "partner": pos % 2 == me % 2,
            "to_play": view is not None and view.get("to_play") == pos,
            "hand_size": (hand.get("hand_sizes") or [0, 0, 0, 0])[pos],
            "tricks": (hand.get("tricks_won") or [0, 0, 0, 0])[pos],
            "bid": last_bid.get(pos),
            "played": trick_by_seat.get(pos),
            "dealer": hand.get("dealer") == pos,
            "declarer": hand.get("declarer") == pos,
            "sitting_out": hand.get("sitting_out") == pos,
            "absent": seat.absent_since is not None,
            "abandoned": seat.abandoned,
            "reliability": seat.reliability if seat.kind == "human" else None,
            "rating": seat_rating(table=table, seat=seat),
            "leads": hand.get("trick", {}).get("leader") == pos,
            "place": places.get(pos),
        }
    ctx["seats"] = seat_boxes
    ctx["seat_order"] = [seat_boxes[w] for w in ("bottom", "right", "top", "left")]
    if not view:
        return ctx
    legal = hand.get("legal_actions") or []
    refusals = hand.get("refusals") or {}
    my_cards = []
    for code in hand.get("hand") or []:
        playable = code in legal
        my_cards.append(
            {
                **card(code),
                "playable": playable,
                "reason": "" if playable else _refusal(refusals.get(code)),
            }
        )
    ctx["my_cards"] = my_cards
    ctx["bids"] = [{"word": w, "label": bid_label(w)} for w in legal if w in BIDS]
    trump = hand.get("trump") or {}
    ctx["trump"] = card(trump["card"]) if trump.get("card") else None
    ctx["trump_suit"] = suit_label(trump["suit"]) if trump.get("suit") else ""
    ctx["dealer_holds"] = trump.get("dealer_holds")
    ctx["contract"] = bid_label(hand["contract"]) if hand.get("contract") else None
    ctx["declarations"] = [
        {
            "seat": d["seat"],
            "name": _seat_name(seats[d["seat"]], names),
            "points": d["points"],
            "suit": suit_label(d["suit"]),
        }
        for d in hand.get("declarations", [])
    ]
    my_pair = me % 2
    scores = view["scores"]
    ctx["score_us"], ctx["score_them"] = scores[my_pair], scores[1 - my_pair]
    ctx["target"] = view["target"]
    ctx["hand_no"] = view["hand_no"]
    ctx["my_turn"] = position is not None and view.get("to_play") == position
    ctx["to_play_name"] = (
        _seat_name(seats[view["to_play"]], names) if view.get("to_play") is not None else ""
    )
    history = view.get("history") or []
    finished: tuple[int, dict[str, Any]] | None = None
    if view.get("winner") is not None and hand.get("result"):
        finished = (view["hand_no"], hand["result"])  # the deciding hand
    elif history:
        finished = (history[-1]["hand_no"], history[-1]["result"])
    if finished is not None:
        number, last = finished
        ctx["last_hand"] = {
            "number": number,
            "kind": last["kind"],
            "contract": bid_label(last["contract"]) if last.get("contract") else None,
            "made": last.get("made"),
            "we_scored": last["scoring_pair"] == my_pair,
            "points": last["match_points"],
            "declarer": _seat_name(seats[last["declarer"]], names)
            if last.get("declarer") is not None
            else None,
            "card_points_us": last["card_points"][my_pair],
            "card_points_them": last["card_points"][1 - my_pair],
        }
    if view.get("winner") is not None:
        # An abandoner lost, whatever their pair did.
        abandoned = position is not None and seats[position].abandoned
        ctx["we_won"] = view["winner"] == my_pair and not abandoned
    return ctx
