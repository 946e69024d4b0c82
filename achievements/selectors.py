"""Reading achievements: a player's facts for the rules, what a player holds, and
the player page's panel (the rarity comes from achievements/cached.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import F, Q
from django.utils import timezone

from achievements.cached import rarity
from achievements.models import Award, Progress
from achievements.rules import ACHIEVEMENTS, EventFacts, MatchFacts, record_facts
from achievements.texts import condition, name
from daily.models import DailyEntry, DayStatus
from games.models import Match
from history.hooks import PlayerSection
from history.models import PlayerMatch
from leagues.models import Division, LeagueStanding, Movement
from tournaments.models import Entry, TournamentState

_FIELDS = (
    "match_id",
    "finished_at",
    "mode",
    "rules",
    "outcome",
    "own_score",
    "other_score",
    "partner_id",
    "hands",
    "solo_bids",
    "cuatrola_bids",
    "quintola_bids",
    "solo_made",
    "cuatrola_made",
    "quintola_made",
    "broken",
    "declared_40",
)


def _facts(rows: list[dict[str, Any]], records: dict[int, Any]) -> list[MatchFacts]:
    facts = []
    for row in rows:
        extra = record_facts(records.get(row["match_id"]) or {}, row["position"])
        facts.append(
            MatchFacts(
                match_id=row["match_id"],
                finished_at=row["finished_at"],
                day=timezone.localdate(row["finished_at"]),
                mode=row["mode"],
                rules=row["rules"],
                outcome=row["outcome"],
                own_score=row["own_score"],
                other_score=row["other_score"],
                partner_id=row["partner_id"],
                hands=row["hands"],
                bids=row["solo_bids"] + row["cuatrola_bids"] + row["quintola_bids"],
                solo_made=row["solo_made"],
                cuatrola_made=row["cuatrola_made"],
                quintola_made=row["quintola_made"],
                broken=row["broken"],
                declared_40=row["declared_40"],
                **extra,
            )
        )
    return facts


def _records(match_ids: list[int]) -> dict[int, Any]:
    if not match_ids:
        return {}
    return dict(Match.objects.filter(pk__in=match_ids).values_list("pk", "record"))


def player_match_facts(*, user_id: int, records_of: set[int] | None = None) -> list[MatchFacts]:
    """The player's settled matches in the order they finished. The engine record is
    read for the matches in `records_of` only (None: every match, the recompute)."""
    rows = list(
        PlayerMatch.objects.filter(user_id=user_id)
        .order_by("finished_at", "match_id")
        .values(*_FIELDS, "position")
    )
    wanted = [r["match_id"] for r in rows] if records_of is None else list(records_of)
    return _facts(rows, _records(wanted))


def _after(finished_at: datetime, match_id: int) -> Q:
    return Q(finished_at__gt=finished_at) | Q(finished_at=finished_at, match_id__gt=match_id)


def match_facts_after(
    *, user_id: int, finished_at: datetime | None, match_id: int | None
) -> list[MatchFacts]:
    """The player's settled matches after (`finished_at`, `match_id`) in history's
    order (all of them when None), each with its engine record read: what the live
    path folds (usually the one match being read; history's index on the player and
    the finish)."""
    rows = PlayerMatch.objects.filter(user_id=user_id)
    if finished_at is not None and match_id is not None:
        rows = rows.filter(_after(finished_at, match_id))
    found = list(rows.order_by("finished_at", "match_id").values(*_FIELDS, "position"))
    return _facts(found, _records([r["match_id"] for r in found]))


def history_count_through(*, user_id: int, finished_at: datetime, match_id: int) -> int:
    """How many of the player's settled matches come up to (`finished_at`,
    `match_id`) in history's order (the check that a progress still matches history)."""
    return (
        PlayerMatch.objects.filter(user_id=user_id).exclude(_after(finished_at, match_id)).count()
    )


def _moments(rows: Any) -> tuple[datetime, ...]:
    return tuple(moment for moment in rows if moment is not None)


def event_facts_of(user_ids: list[int]) -> dict[int, EventFacts]:
    """The daily deals, league weeks and tournaments that count, for each of the
    players (three queries, whatever their number)."""
    ids = list(set(user_ids))
    days: dict[int, list[tuple[Any, Any, Any]]] = {u: [] for u in ids}
    for user_id, rank, players, at in DailyEntry.objects.filter(
        user_id__in=ids,
        voided_at__isnull=True,
        rank__isnull=False,
        day__status=DayStatus.CLOSED,
        day__closed_at__isnull=False,
    ).values_list("user_id", "rank", "day__players", "day__closed_at"):
        days[user_id].append((rank, players, at))
    ups: dict[int, list[tuple[Any, Any]]] = {u: [] for u in ids}
    for user_id, division, at in LeagueStanding.objects.filter(
        user_id__in=ids, movement=Movement.UP
    ).values_list("user_id", "division", "week__closed_at"):
        ups[user_id].append((division, at))
    entries: dict[int, list[tuple[Any, Any]]] = {u: [] for u in ids}
    for a, b, rank, at in Entry.objects.filter(
        Q(player_a_id__in=ids) | Q(player_b_id__in=ids),
        tournament__state=TournamentState.FINISHED,
        rank__isnull=False,
        rank__lte=3,
    ).values_list("player_a_id", "player_b_id", "rank", "tournament__finished_at"):
        for user_id in {a, b} & set(ids):
            entries[user_id].append((rank, at))
    return {
        user_id: EventFacts(
            # The top tenth: rank ≤ players / 10 rounded up (a 5-player day's winner is in).
            daily_top_tenth=_moments(
                at for rank, players, at in days[user_id] if rank and (rank - 1) * 10 < players
            ),
            daily_first=_moments(at for rank, _players, at in days[user_id] if rank == 1),
            league_promotions=_moments(at for _d, at in ups[user_id]),
            league_diamond=_moments(at for d, at in ups[user_id] if d == Division.GOLD),
            tournament_wins=_moments(at for rank, at in entries[user_id] if rank == 1),
            tournament_podiums=_moments(at for _rank, at in entries[user_id]),
        )
        for user_id in ids
    }


def player_event_facts(*, user_id: int) -> EventFacts:
    """The player's daily deals, league weeks and tournaments that count."""
    return event_facts_of([user_id])[user_id]


DAILY, LEAGUE, TOURNAMENT = "daily", "league", "tournament"


def event_players(*, event: str, ref_id: int, after_user_id: int, limit: int) -> list[int]:
    """The players of one closed day, league week or finished tournament who may have
    earned an achievement by it (a day's top tenth, a week's promoted, a tournament's
    podium), after `after_user_id`, by id, at most `limit` (one query)."""
    if event == DAILY:
        players = Q(voided_at__isnull=True, rank__isnull=False)
        rows: Any = (
            DailyEntry.objects.filter(players, day_id=ref_id, user_id__gt=after_user_id)
            .filter(Q(rank=1) | Q(rank__lte=(F("day__players") + 9) / 10))
            .values_list("user_id", flat=True)
        )
    elif event == LEAGUE:
        rows = LeagueStanding.objects.filter(
            week_id=ref_id, movement=Movement.UP, user_id__gt=after_user_id
        ).values_list("user_id", flat=True)
    elif event == TOURNAMENT:
        ids: set[int] = set()
        for a, b in Entry.objects.filter(
            tournament_id=ref_id, rank__isnull=False, rank__lte=3
        ).values_list("player_a_id", "player_b_id"):
            ids |= {u for u in (a, b) if u is not None and u > after_user_id}
        return sorted(ids)[:limit]
    else:
        return []
    return list(rows.order_by("user_id").distinct()[:limit])


def held_codes(*, user_id: int) -> set[str]:
    return set(Award.objects.filter(user_id=user_id).values_list("code", flat=True))


def held_codes_of(user_ids: list[int]) -> dict[int, set[str]]:
    held: dict[int, set[str]] = {user_id: set() for user_id in user_ids}
    for user_id, code in Award.objects.filter(user_id__in=user_ids).values_list("user_id", "code"):
        held[user_id].add(code)
    return held


def progress_of(user_id: int) -> Progress | None:
    return Progress.objects.filter(user_id=user_id).first()


@dataclass(frozen=True)
class AchievementLine:
    code: str
    name: str
    condition: str
    held: bool
    achieved_at: datetime | None
    share: float | None  # percent of players holding it
    rare: bool


def player_achievements(*, user_id: int) -> list[AchievementLine]:
    """Every achievement for the player page: those held first (newest first), then
    the locked ones in the catalogue's order. Two queries (one when rarity is cached)."""
    awards = dict(Award.objects.filter(user_id=user_id).values_list("code", "achieved_at"))
    counts = rarity()
    players = counts["players"] or 0
    lines = []
    for achievement in ACHIEVEMENTS:
        holders = counts["holders"].get(achievement.code, 0)
        lines.append(
            AchievementLine(
                code=achievement.code,
                name=name(achievement.code),
                condition=condition(achievement.code),
                held=achievement.code in awards,
                achieved_at=awards.get(achievement.code),
                share=(100.0 * holders / players) if players else None,
                rare=achievement.rare,
            )
        )
    held = sorted(
        (line for line in lines if line.achieved_at is not None),
        key=lambda line: line.achieved_at or timezone.now(),
        reverse=True,
    )
    return held + [line for line in lines if not line.held]


def player_section(*, player: Any, viewer: Any) -> PlayerSection:
    lines = player_achievements(user_id=player.pk)
    held = sum(1 for line in lines if line.held)
    return PlayerSection(
        template="achievements/player_section.html",
        context={"lines": lines, "held": held, "total": len(lines)},
    )
