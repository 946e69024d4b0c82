"""One finished match for its page (every hand, the replay, each seat's result), and
what the players got from matches: coins and XP from the ledger, league points
from the mode that awards them."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from cuatrola.engine import Match as EngineMatch
from economy.selectors import match_rewards
from games import selectors as games
from games.hooks import match_points
from games.models import Match, MatchSeat


@dataclass
class StoredMatch:
    match: Match
    seats: list[MatchSeat]
    engine: EngineMatch
    record: dict[str, Any]
    #: Each seat's name by position, as the table named it.
    names: list[str]


def finished_match(match_id: int) -> StoredMatch | None:
    """A finished match rebuilt through the engine from its stored deals and action
    log; None for anything else (live, aborted, unknown): a live match's cards never
    leave games' selector."""
    found = games.finished_match(match_id)
    if found is None:
        return None
    names = [
        name or _("Seat %(n)s") % {"n": position + 1} for position, name in enumerate(found.names)
    ]
    return StoredMatch(
        match=found.match,
        seats=found.seats,
        engine=EngineMatch.from_dict(found.record),
        record=found.record,
        names=names,
    )


def rewards_by_match_and_user(
    match_ids: list[int], users: list[Any] | None = None
) -> dict[tuple[int, int], dict[str, int]]:
    """Coins and XP from the ledger entries carrying each match id, and the league
    points stored with the match, per (match id, user id): one query each."""
    rewards: dict[tuple[int, int], dict[str, int]] = {}
    if not match_ids:
        return rewards
    rewards.update(match_rewards(match_ids, users))
    # The league points stored with each match (registered by the online app).
    for (match_id, user_id), value in match_points(match_ids, users).items():
        rewards.setdefault((match_id, user_id), {})["league_points"] = value
    return rewards


def match_results(stored: StoredMatch) -> list[dict[str, Any]]:
    """Each seat of a finished match with its name, place, points and rewards, by place."""
    rewards = rewards_by_match_and_user([stored.match.pk])
    rows = [
        {
            "seat": seat,
            "name": stored.names[seat.position],
            "rewards": rewards.get((stored.match.pk, seat.user_id), {}) if seat.user_id else {},
        }
        for seat in stored.seats
    ]
    return sorted(rows, key=lambda row: (row["seat"].place or 5, row["seat"].position))


def match_talk(match_id: int) -> list[dict[str, Any]]:
    """What the players said at the match, in order, each line with the replay's
    `step` and `said` (a phrase in the reader's language, free text as written).
    Watchers' lines are left out: the players never saw them (docs/watching.md)."""
    return games.talk_said(match_id, watchers=False)
