"""Shapes a seat's view (an engine view dict) into what the table templates show.

Only the view of the viewer's seat (or the public view) is used, so a page can
never show more than the socket would send.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.selectors import linked_pairs
from games import hooks
from games.engine import BIDS
from games.frames.builder import player_names
from games.modes import mode_policy
from games.words.translated import bid_label, card_label, game_words, refusal_label, suit_label

__all__ = ["bid_label", "board_context", "card", "linked_at_table", "table_facts"]


def card(code: str) -> dict[str, str]:
    return {"code": code, "name": card_label(code), "suit": code[-1], "number": code[:-1]}


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


# The linked pairs among a table's players, by the set of their user ids: read once per
# set and process, again after LINKED_TABLE_MEMO_SECONDS, so that the frames of a move
# ask no query for them (a move is two statements: docs/benchmarks.md).
_links_memo: dict[frozenset[int], tuple[float, frozenset[frozenset[int]]]] = {}
_links_memo_lock = threading.Lock()
_LINKS_MEMO_SIZE = 10_000


def _linked_among(user_ids: frozenset[int]) -> frozenset[frozenset[int]]:
    if len(user_ids) < 2:
        return frozenset()
    now = time.monotonic()
    found = _links_memo.get(user_ids)
    if found is not None and now - found[0] < settings.LINKED_TABLE_MEMO_SECONDS:
        return found[1]
    pairs = linked_pairs(user_ids)
    with _links_memo_lock:
        if len(_links_memo) >= _LINKS_MEMO_SIZE:
            _links_memo.clear()
        _links_memo[user_ids] = (now, pairs)
    return pairs


def linked_memo_clear() -> None:
    """Forgets every table's linked pairs (tests)."""
    with _links_memo_lock:
        _links_memo.clear()


def linked_at_table(
    *, seats: Sequence[Any], names: Sequence[str | None] | None = None
) -> list[list[str]]:
    """Each pair of linked accounts seated at the table (docs/moderation.md, "Linked
    accounts"), as their names in seat order (`names` by position, else the
    usernames), the pairs in seat order: what every reader of the table is shown."""
    position_of = {seat.user_id: seat.position for seat in seats if seat.user_id is not None}
    pairs = _linked_among(frozenset(position_of))

    def name(position: int) -> str:
        if names is not None and names[position]:
            return str(names[position])
        return str(next(s.user.username for s in seats if s.position == position))

    seated = sorted(sorted(position_of[user] for user in pair) for pair in pairs)
    return [[name(a), name(b)] for a, b in seated]


def linked_text(pair: Sequence[str]) -> str:
    """The marker of one linked pair, as the table's renderer writes it (table_strings)."""
    return _("Linked accounts: {a} and {b}").replace("{a}", pair[0]).replace("{b}", pair[1])


def _seat_name(seat: Any, names: list[str | None] | None = None) -> str:
    if names is not None and names[seat.position]:
        return names[seat.position]
    if seat.kind == "human":
        return seat.user.username
    if seat.kind == "bot":
        return _("Bot")
    return _("Empty seat")


def _refusal(refusal: dict[str, Any] | None) -> str:
    """Why a card the seat holds cannot be played now, from the engine's refusal
    (`{"code": ..., "params": ...}` of the seat view's `refusals`), in the game
    words of that code (games/words/catalogue.py)."""
    if refusal is None:
        return str(game_words()["refusal_default"])
    return refusal_label(refusal["code"], refusal.get("params"))


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
            "on_time": seat.on_time if seat.kind == "human" else None,
            "rating": seat_rating(table=table, seat=seat),
            "leads": hand.get("trick", {}).get("leader") == pos,
            "place": places.get(pos),
        }
    ctx["seats"] = seat_boxes
    # The legend of the reputation badges, shown while a seat has one (games/table.html).
    ctx["reputation_shown"] = any(box["reliability"] is not None for box in seat_boxes.values())
    ctx["seat_order"] = [seat_boxes[w] for w in ("bottom", "right", "top", "left")]
    ctx["linked"] = [linked_text(pair) for pair in linked_at_table(seats=seats, names=names)]
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
