"""Reading achievements: a player's facts for the rules, what a player holds, and
the player page's panel (the rarity comes from achievements/cached.py)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils import timezone

from achievements.cached import rarity
from achievements.models import Award
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


def player_match_facts(*, user_id: int, records_of: set[int] | None = None) -> list[MatchFacts]:
    """The player's settled matches in the order they finished. The engine record is
    read for the matches in `records_of` only (None: every match, the recompute)."""
    rows = list(
        PlayerMatch.objects.filter(user_id=user_id)
        .order_by("finished_at", "match_id")
        .values(*_FIELDS, "position")
    )
    wanted = [r["match_id"] for r in rows] if records_of is None else list(records_of)
    records = (
        dict(Match.objects.filter(pk__in=wanted).values_list("pk", "record")) if wanted else {}
    )
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


def _moments(rows: Any) -> tuple[datetime, ...]:
    return tuple(moment for moment in rows if moment is not None)


def player_event_facts(*, user_id: int) -> EventFacts:
    """The player's daily deals, league weeks and tournaments that count (four queries)."""
    days = list(
        DailyEntry.objects.filter(
            user_id=user_id,
            voided_at__isnull=True,
            rank__isnull=False,
            day__status=DayStatus.CLOSED,
            day__closed_at__isnull=False,
        ).values_list("rank", "day__players", "day__closed_at")
    )
    # The top tenth: rank ≤ players / 10 rounded up (the winner of a 5-player day is in it).
    top = _moments(at for rank, players, at in days if rank and (rank - 1) * 10 < players)
    first = _moments(at for rank, _players, at in days if rank == 1)
    ups = list(
        LeagueStanding.objects.filter(user_id=user_id, movement=Movement.UP).values_list(
            "division", "week__closed_at"
        )
    )
    entries = list(
        Entry.objects.filter(
            Q(player_a_id=user_id) | Q(player_b_id=user_id),
            tournament__state=TournamentState.FINISHED,
            rank__isnull=False,
            rank__lte=3,
        ).values_list("rank", "tournament__finished_at")
    )
    return EventFacts(
        daily_top_tenth=top,
        daily_first=first,
        league_promotions=_moments(at for _d, at in ups),
        league_diamond=_moments(at for d, at in ups if d == Division.GOLD),
        tournament_wins=_moments(at for rank, at in entries if rank == 1),
        tournament_podiums=_moments(at for _rank, at in entries),
    )


def held_codes(*, user_id: int) -> set[str]:
    return set(Award.objects.filter(user_id=user_id).values_list("code", flat=True))


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
