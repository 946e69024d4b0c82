"""The server-rendered board, drawn from the same frame as the live table's renderer
(static/js/table-view.js): the page's first load, a browser without JavaScript (its
play forms are the websocket's fallback) and a room's seats before its match.

It works nothing out again from the rules or the rows: the frame (docs/protocol.md,
built by games/frames/builder.py) says whose turn it is, the trick, the hand just
finished, the result and every seat's name; this puts them in the page's words.
Only the frame of the viewer's seat (or the spectators') is used, so a page never
shows more than the socket sends.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from cuatrola.engine import BIDS
from games.models import Mode, RuleSetName
from games.words.translated import bid_label, card_label, game_words, refusal_label, suit_label


def card(code: str) -> dict[str, str]:
    return {"code": code, "name": card_label(code), "suit": code[-1], "number": code[:-1]}


def table_facts(table: dict[str, Any]) -> str:
    """What is played at a frame's `table`, as the page title and the board say it: the
    mode, the rule set and, at a stake table, the stake and the pot (the table renderer
    says the same from the same fields)."""
    facts = [str(Mode(table["mode"]).label), str(RuleSetName(table["rules"]).label)]
    if table["stake"] is not None:
        facts.append(_("Stake: {coins} coins").replace("{coins}", str(table["stake"])))
        if table["pot"]:
            facts.append(_("Pot: {coins} coins").replace("{coins}", str(table["pot"])))
    return " · ".join(facts)


def linked_text(pair: Sequence[str]) -> str:
    """The marker of one linked pair, as the table's renderer writes it (table_texts)."""
    return _("Linked accounts: {a} and {b}").replace("{a}", pair[0]).replace("{b}", pair[1])


def seat_label(seat: dict[str, Any]) -> str:
    """A frame's seat as the board names it: its name, else what sits there."""
    if seat["name"]:
        return str(seat["name"])
    return _("Bot") if seat["kind"] == "bot" else _("Empty seat")


def _refusal(refusal: dict[str, Any] | None) -> str:
    """Why a card the seat holds cannot be played now, from the engine's refusal
    (`{"code": ..., "params": ...}` of the seat view's `refusals`), in the game
    words of that code (games/words/catalogue.py)."""
    if refusal is None:
        return str(game_words()["refusal_default"])
    return refusal_label(refusal["code"], refusal.get("params"))


def _plays(hand: dict[str, Any], key: str, field: str) -> dict[int, str]:
    """A view's plays or bids by seat (`{seat, card}` objects, or [seat, card] pairs)."""
    found: dict[int, str] = {}
    for play in hand.get(key, []):
        seat, what = (play[0], play[1]) if isinstance(play, list) else (play["seat"], play[field])
        found[seat] = what
    return found


def board_context(frame: dict[str, Any]) -> dict[str, Any]:
    """What games/table.html's board draws of `frame` (a `state` frame)."""
    position = frame["seat"]
    me = position if position is not None else 0
    info = frame["table"]
    seats = {seat["position"]: seat for seat in info["seats"]}
    view = frame["view"]
    hand = (view or {}).get("hand") or {}
    result = frame["result"]
    deadline = info["deadline_ms"]
    ctx: dict[str, Any] = {
        "position": position,
        "spectator": position is None,
        "view": view,
        "version": frame["version"],
        "deadline": deadline // 1000 if deadline is not None else None,
        "my_seat": seats.get(position) if position is not None else None,
    }
    played = _plays(hand.get("trick") or {}, "plays", "card")
    bids = _plays(hand, "bids", "bid")
    places = {place["position"]: place for place in result["places"]} if result else {}
    layout = {"bottom": me, "right": (me + 1) % 4, "top": (me + 2) % 4, "left": (me + 3) % 4}
    boxes = {}
    for where, pos in layout.items():
        seat = seats[pos]
        human = seat["kind"] == "human"
        boxes[where] = {
            "position": pos,
            "name": seat_label(seat),
            "kind": seat["kind"],
            "level": seat["level"],
            "is_me": pos == position,
            "partner": pos % 2 == me % 2,
            "to_play": view is not None and view.get("to_play") == pos,
            "hand_size": (hand.get("hand_sizes") or [0, 0, 0, 0])[pos],
            "tricks": (hand.get("tricks_won") or [0, 0, 0, 0])[pos],
            "bid": bid_label(bids[pos]) if pos in bids else None,
            "played": card(played[pos]) if pos in played else None,
            "dealer": hand.get("dealer") == pos,
            "declarer": hand.get("declarer") == pos,
            "sitting_out": hand.get("sitting_out") == pos,
            "absent": seat["absent"],
            "abandoned": seat["abandoned"],
            "reliability": seat["reliability"] if human else None,
            "on_time": seat["on_time"] if human else None,
            "rating": seat["rating"],
            "leads": (hand.get("trick") or {}).get("leader") == pos,
            "place": places.get(pos),
        }
    ctx["seats"] = boxes
    # The legend of the reputation badges, shown while a seat has one (games/table.html).
    ctx["reputation_shown"] = any(box["reliability"] is not None for box in boxes.values())
    ctx["rating_shown"] = any(box["rating"] is not None for box in boxes.values())
    ctx["seat_order"] = [boxes[where] for where in ("bottom", "right", "top", "left")]
    ctx["linked"] = [linked_text(pair) for pair in info["linked"]]
    if not view:
        return ctx
    legal = hand.get("legal_actions") or []
    refusals = hand.get("refusals") or {}
    ctx["my_cards"] = [
        {
            **card(code),
            "playable": code in legal,
            "reason": "" if code in legal else _refusal(refusals.get(code)),
        }
        for code in hand.get("hand") or []
    ]
    ctx["bids"] = [{"word": w, "label": bid_label(w)} for w in legal if w in BIDS]
    trump = hand.get("trump") or {}
    ctx["trump"] = card(trump["card"]) if trump.get("card") else None
    ctx["trump_suit"] = suit_label(trump["suit"]) if trump.get("suit") else ""
    ctx["dealer_holds"] = trump.get("dealer_holds")
    ctx["contract"] = bid_label(hand["contract"]) if hand.get("contract") else None
    ctx["declarations"] = [
        {
            "seat": d["seat"],
            "name": seat_label(seats[d["seat"]]),
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
    to_play = view.get("to_play")
    ctx["to_play_name"] = seat_label(seats[to_play]) if to_play is not None else ""
    summary = frame["summary"]  # the hand just finished (the deciding one once over)
    if summary is not None:
        declarer = summary["declarer"]
        ctx["last_hand"] = {
            "number": summary["hand_no"],
            "kind": summary["kind"],
            "contract": bid_label(summary["contract"]) if summary["contract"] else None,
            "made": summary["made"],
            "we_scored": summary["scoring_pair"] == my_pair,
            "points": summary["match_points"],
            "declarer": seat_label(seats[declarer]) if declarer is not None else None,
            "card_points_us": summary["card_points"][my_pair],
            "card_points_them": summary["card_points"][1 - my_pair],
        }
    if result is not None and result["you"] is not None:
        # An abandoner lost, whatever their pair did.
        ctx["we_won"] = result["you"]["won"] and not result["you"]["abandoned"]
    return ctx
