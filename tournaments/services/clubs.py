"""Club tournaments (docs/tournaments.md, "Club tournaments"): a club's owner or admins
schedule a tournament open to the club's members only. Registration opens at once and
closes `registration_close_minutes` before the start; the tick runs it as any other.
The club's row is locked first (clubs' lock order, `clubs.services.club_admin_lock`),
so the cap on tournaments to come holds when two admins schedule at once."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db import transaction

from accounts.models import User
from clubs import errors as club_errors
from clubs.services import club_admin_lock
from clubs.validators import contains_link
from games.models import RuleSetName
from tournaments import errors
from tournaments.models import LIVE_STATES, Format, Tournament, TournamentState
from tournaments.services.common import changed, now_or
from tournaments.services.lifecycle import tournament_create

#: Tournaments to come (not finished nor cancelled) a club may have at once.
CLUB_TOURNAMENTS_MAX = 5


@dataclass(frozen=True)
class Bounds:
    """What a club may choose (the form's limits; the service checks them again)."""

    name_length: tuple[int, int] = (3, 80)
    #: The start: at least this long after now (registration needs time), at most that.
    start_after: timedelta = timedelta(minutes=30)
    start_within: timedelta = timedelta(days=60)
    rounds: tuple[int, int] = (1, 11)
    round_minutes: tuple[int, int] = (10, 120)
    pause_minutes: tuple[int, int] = (1, 30)
    entry_fee: tuple[int, int] = (0, 1000)
    entries: tuple[int, int] = (2, 64)
    registration_close_minutes: tuple[int, int] = (0, 120)


BOUNDS = Bounds()


def _within(field: str, value: int, limits: tuple[int, int]) -> None:
    low, high = limits
    if not low <= value <= high:
        raise errors.InvalidTournament(field=field, low=low, high=high)


def club_tournament_create(
    *,
    user: User,
    club_id: int,
    name: str,
    format: str,
    rules: str,
    starts_at: datetime,
    rounds: int,
    best_of: int,
    round_minutes: int,
    pause_minutes: int,
    entry_fee: int,
    min_entries: int,
    max_entries: int,
    registration_close_minutes: int,
    now: datetime | None = None,
) -> Tournament:
    """Schedule a tournament of the club, open to its members only, registration open
    from now. One transaction: refused, nothing is written. Refusals: NotClubAdmin
    (not its owner or an admin; also an unknown or closed club), InvalidTournament
    (a field out of BOUNDS, `params["field"]`), TooManyClubTournaments."""
    now = now_or(now)
    name = " ".join(name.split())
    if not BOUNDS.name_length[0] <= len(name) <= BOUNDS.name_length[1] or contains_link(name):
        raise errors.InvalidTournament(field="name")
    if format not in Format.values:
        raise errors.InvalidTournament(field="format")
    if rules not in RuleSetName.values:
        raise errors.InvalidTournament(field="rules")
    if best_of not in (1, 3):
        raise errors.InvalidTournament(field="best_of")
    if not now + BOUNDS.start_after <= starts_at <= now + BOUNDS.start_within:
        raise errors.InvalidTournament(field="starts_at")
    _within("rounds", rounds, BOUNDS.rounds)
    _within("round_minutes", round_minutes, BOUNDS.round_minutes)
    _within("pause_minutes", pause_minutes, BOUNDS.pause_minutes)
    _within("entry_fee", entry_fee, BOUNDS.entry_fee)
    _within("min_entries", min_entries, BOUNDS.entries)
    _within("max_entries", max_entries, BOUNDS.entries)
    _within(
        "registration_close_minutes",
        registration_close_minutes,
        BOUNDS.registration_close_minutes,
    )
    if min_entries > max_entries:
        raise errors.InvalidTournament(field="max_entries")
    if starts_at - timedelta(minutes=registration_close_minutes) <= now:
        raise errors.InvalidTournament(field="registration_close_minutes")
    with transaction.atomic():
        try:
            club = club_admin_lock(club_id=club_id, user=user)
        except club_errors.ClubError:
            raise errors.NotClubAdmin() from None
        coming = Tournament.objects.filter(club_id=club.pk, state__in=LIVE_STATES).count()
        if coming >= CLUB_TOURNAMENTS_MAX:
            raise errors.TooManyClubTournaments()
        tournament = tournament_create(
            name=name,
            format=format,
            rules=rules,
            rounds=rounds,
            best_of=best_of,
            round_minutes=round_minutes,
            pause_minutes=pause_minutes,
            entry_fee=entry_fee,
            xp_pool=0,
            min_entries=min_entries,
            max_entries=max_entries,
            club_id=club.pk,
            state=TournamentState.REGISTRATION_OPEN,
            registration_opens_at=now,
            registration_closes_at=starts_at - timedelta(minutes=registration_close_minutes),
            starts_at=starts_at,
        )
        changed(tournament.pk, "state")
    return tournament
