"""Turns engine states of a finished match into plain data for the templates.

Everything here is derived from the engine rebuilt from the stored deals and
actions; nothing is read from a cache.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from django.conf import settings
from django.urls import reverse
from django.utils import dateformat, formats, timezone
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from coach.judge import SYMBOLS
from coach.presentation import decision_info, mark_label
from coach.selectors import Coaching
from cuatrola.engine import Hand
from cuatrola.engine import Match as EngineMatch
from games.words.translated import bid_label, card_label, suit_label


@dataclass(frozen=True)
class Card:
    code: str
    name: str

    @property
    def suit(self) -> str:
        return self.code[-1]


def card(code: str) -> Card:
    return Card(code=code, name=card_label(code))


def hand_summaries(engine: EngineMatch, names: list[str]) -> list[dict[str, Any]]:
    """Every hand of a finished match, all cards face up."""
    hands = engine.hands
    summaries = []
    for index, hand in enumerate(hands):
        after = hands[index + 1].scores if index + 1 < len(hands) else engine.scores
        result = hand.result
        summaries.append(
            {
                "number": index + 1,
                "dealer": names[hand.dealer],
                "trump": card(hand.trump_card),
                "deal": [
                    {"name": names[seat], "cards": [card(c) for c in cards]}
                    for seat, cards in enumerate(hand.dealt_hands)
                ],
                "bids": [{"name": names[seat], "bid": bid_label(word)} for seat, word in hand.bids],
                "contract": bid_label(hand.contract) if hand.contract else None,
                "declarer": names[hand.declarer] if hand.declarer is not None else None,
                "sitting_out": names[hand.sitting_out] if hand.sitting_out is not None else None,
                "declarations": [
                    {
                        "name": names[d.seat],
                        "suit": suit_label(d.suit),
                        "points": d.points,
                    }
                    for d in hand.declarations
                ],
                "tricks": [
                    {
                        "number": trick.number,
                        "plays": [{"name": names[s], "card": card(c)} for s, c in trick.plays],
                        "winner": names[trick.winner],
                        "points": trick.points,
                    }
                    for trick in hand.tricks
                ],
                "result": result,
                "scoring_pair": result.scoring_pair if result else None,
                "match_points": result.match_points if result else 0,
                "score_after": after,
            }
        )
    return summaries


def _event_text(event: dict[str, Any], names: list[str]) -> str | None:
    kind = event["type"]
    if kind == "bid_made":
        return _("%(name)s: %(bid)s") % {
            "name": names[event["seat"]],
            "bid": bid_label(event["bid"]),
        }
    if kind == "card_played":
        return _("%(name)s plays %(card)s") % {
            "name": names[event["seat"]],
            "card": card(event["card"]).name,
        }
    if kind == "trick_won":
        return _("%(name)s wins the trick (%(points)s points)") % {
            "name": names[event["seat"]],
            "points": event["points"],
        }
    if kind == "declaration_made":
        return _("%(name)s declares %(points)s in %(suit)s") % {
            "name": names[event["seat"]],
            "points": event["points"],
            "suit": suit_label(event["suit"]),
        }
    if kind == "contract_made":
        return _("%(name)s makes the %(contract)s") % {
            "name": names[event["declarer"]],
            "contract": bid_label(event["contract"]),
        }
    if kind == "contract_failed":
        return _("%(name)s fails the %(contract)s") % {
            "name": names[event["declarer"]],
            "contract": bid_label(event["contract"]),
        }
    if kind == "hand_started":
        return _("Hand %(n)s is dealt") % {"n": event["hand_no"]}
    if kind == "match_over":
        return _("The match is over")
    return None


class Replay:
    """Every state of a finished match, addressable by step (0 = the first deal)."""

    def __init__(self, record: dict[str, Any], names: list[str]) -> None:
        self.steps = EngineMatch.replay(record)
        self.names = names
        self.last = len(self.steps) - 1
        # Each action (by its number, the step it leads to): its hand, seat and word.
        self.moves: dict[int, tuple[int, int, str]] = {}
        for number in range(1, len(self.steps)):
            before = self.steps[number - 1][0]
            seat = before.to_play
            if seat is None:
                continue
            hand = self.steps[number][0].hands[before.hand_no - 1]
            self.moves[number] = (before.hand_no, seat, hand.actions[len(before.hand.actions)])
        # Steps that end a trick, the bidding or a hand: where "next trick" stops.
        self.boundaries = [
            index
            for index, (_state, events) in enumerate(self.steps)
            if any(
                e.to_dict()["type"] in {"trick_won", "bidding_over", "hand_started"} for e in events
            )
        ]

    def next_trick(self, step: int) -> int:
        return next((b for b in self.boundaries if b > step), self.last)

    def previous_trick(self, step: int) -> int:
        return next((b for b in reversed(self.boundaries) if b < step), 0)

    def hand_moves(self, hand_no: int) -> list[dict[str, Any]]:
        """Every action of hand `hand_no` with the step it leads to, named."""
        return [
            {
                "step": number,
                "seat": seat,
                "name": self.names[seat],
                "action": action,
                "label": card(action).name if action[0].isdigit() else bid_label(action),
            }
            for number, (hand, seat, action) in self.moves.items()
            if hand == hand_no
        ]

    def frame(self, step: int) -> dict[str, Any]:
        state, events = self.steps[step]
        hand: Hand = state.hand
        names = self.names
        trick = hand.current_trick
        last_trick = None
        if not trick and hand.tricks:
            done = hand.tricks[-1]
            last_trick = {
                "plays": [
                    {"seat": s, "name": names[s], "card": card(c), "won": s == done.winner}
                    for s, c in done.plays
                ],
                "winner": names[done.winner],
                "points": done.points,
            }
        return {
            "step": step,
            "last": self.last,
            "first_step": 0,
            "previous": max(0, step - 1),
            "next": min(self.last, step + 1),
            "previous_trick": self.previous_trick(step),
            "next_trick": self.next_trick(step),
            "hand_no": state.hand_no,
            "scores": state.scores,
            "dealer": names[hand.dealer],
            "trump": card(hand.trump_card),
            "bids": [{"name": names[s], "bid": bid_label(w)} for s, w in hand.bids],
            "contract": bid_label(hand.contract) if hand.contract else None,
            "declarer": names[hand.declarer] if hand.declarer is not None else None,
            "seats": [
                {
                    "seat": seat,
                    "name": names[seat],
                    "cards": [card(c) for c in hand.hand_of(seat)],
                    "tricks": hand.tricks_won[seat],
                    "to_play": hand.to_play == seat,
                    "sitting_out": hand.sitting_out == seat,
                }
                for seat in range(4)
            ],
            "trick": [{"seat": s, "name": names[s], "card": card(c)} for s, c in trick],
            "last_trick": last_trick,
            "events": [
                text for e in events if (text := _event_text(e.to_dict(), names)) is not None
            ],
            "is_over": step == self.last,
        }


def replay_moves(
    frame: dict[str, Any], replay: Replay, coaching: Coaching, names: list[str], user: Any
) -> None:
    """The coach's part of a replay frame: the moves of the hand on screen, each
    judged one with its mark, and the judgement of the move that led to this step
    (with a way to practise it for the player who made it)."""
    step = frame["step"]
    decisions = coaching.decisions
    hand_no = replay.moves[step][0] if step in replay.moves else frame["hand_no"]
    moves = replay.hand_moves(hand_no)
    for move in moves:
        decision = decisions.get(move["step"])
        move["current"] = move["step"] == step
        move["judged"] = decision is not None
        move["mark"] = decision.mark if decision else ""
        move["symbol"] = (SYMBOLS[decision.mark] or "✓") if decision else ""
        move["mark_label"] = mark_label(decision.mark) if decision else ""
    frame["moves"] = moves
    frame["moves_hand"] = hand_no
    decision = decisions.get(step)
    frame["coach"] = decision_info(decision, names[decision.seat]) if decision else None
    frame["analysed"] = coaching.analysis is not None
    if decision is not None:
        seat = replay_seat_user(coaching, decision.seat)
        frame["coach"]["practise"] = (
            coaching.done and user.is_authenticated and seat is not None and seat == user.pk
        )


def replay_seat_user(coaching: Coaching, position: int) -> int | None:
    """The person in a seat of an analysed match (None: a bot, or not analysed yet)."""
    for row in coaching.seats:
        if row.position == position:
            return row.user_id
    return None


def _seat_html(seat: Any, profile_prefix: str) -> str:
    """A listed seat as the history shows it: the person's name linked to their
    profile, the bot's name (as the table and the replay name it), or a dash for a
    seat nobody had."""
    if seat is None:
        return "—"
    if seat.user_id is None:
        return html.escape(seat.name or _("Bot"))
    # What reverse("profile", args=[name]) gives, without resolving it per name.
    url = f"{profile_prefix}{quote(seat.name)}/"
    return f'<a href="{html.escape(url)}">{html.escape(seat.name)}</a>'


def history_cells(rows: list[Any], replay_text: str) -> None:
    """What each row of the history page shows, worked out once here rather than
    tag by tag in the template (the page lists 25 of them): its date, mode and rule
    set, the partner and opponents linked, the result, and its replay link."""
    modes: dict[str, str] = {}
    rule_sets: dict[str, str] = {}
    results = {
        "won": _("Won"),
        "abandoned": _("Abandoned"),
        "lost": _("Lost"),
    }
    # The two URLs every row links to, resolved once: "/u/_/" and "/history/matches/0/".
    profile_prefix = reverse("profile", args=["_"])[:-2]
    replay_prefix = reverse("history_match", args=[0])[:-2]
    replay_html = html.escape(replay_text)
    # What formats.date_format(when, "SHORT_DATETIME_FORMAT") does, the format read once.
    when_format = formats.get_format("SHORT_DATETIME_FORMAT")
    for row in rows:
        match = row.match
        when = timezone.localtime(match.finished_at) if match.finished_at else None
        row.when_iso = when.isoformat() if when else ""
        row.when_text = dateformat.format(when, when_format) if when else ""
        mode = match.table.mode
        if mode not in modes:
            modes[mode] = str(match.table.get_mode_display())
        if match.rules not in rule_sets:
            rule_sets[match.rules] = str(match.get_rules_display())
        row.mode_label, row.rules_label = modes[mode], rule_sets[match.rules]
        row.partner_html = mark_safe(_seat_html(row.partner, profile_prefix))  # escaped
        row.opponents_html = mark_safe(  # escaped
            ", ".join(_seat_html(seat, profile_prefix) for seat in row.opponents)
        )
        row.result_label = results.get(row.outcome, results["lost"])
        row.replay_url = f"{replay_prefix}{match.pk}/"
        rewards = row.rewards
        row.html = mark_safe(  # every text in it is escaped
            f'<tr class="outcome-{html.escape(row.outcome)}">'
            f'<td><time datetime="{row.when_iso}">{html.escape(row.when_text)}</time></td>'
            f"<td>{html.escape(row.mode_label)}<br>"
            f'<small class="muted">{html.escape(row.rules_label)}</small></td>'
            f"<td>{row.partner_html}</td><td>{row.opponents_html}</td>"
            f"<td>{_score(row.own_score)}–{_score(row.other_score)}</td>"
            f"<td>{html.escape(row.result_label)}</td>"
            f"<td>{_number(rewards.get('coins'))}</td><td>{_number(rewards.get('xp'))}</td>"
            f"<td>{_number(rewards.get('league_points'))}</td>"
            f'<td class="nowrap"><a href="{html.escape(row.replay_url)}">{replay_html}</a></td>'
            "</tr>"
        )


def _score(value: int) -> str:
    """A match score as it is: 0 is 0 (a dash would say there was none)."""
    if not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return html.escape(str(formats.localize(value)))


def _number(value: Any) -> str:
    """A figure as the template showed it (`|default:"—"`): a dash for none or 0."""
    if not value:
        return "—"
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return html.escape(str(formats.localize(value)))
