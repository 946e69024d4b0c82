"""The only writers of achievements: the awards of a settled match's players (once),
and the recompute from history (docs/achievements.md).

The settlement only notes its match as waiting (`PendingMatch`, in its own
transaction); the beat's task reads the waiting matches after the commit.

Exactly once: a settled match is marked processed (`ProcessedMatch`, its primary key
the match) in the same transaction as its awards, so a redelivered task finds the mark
and grants nothing; the players' user rows are locked in pk order first, so two
settlements of one player at once read and write one after the other; and an award is
unique per (user, code), the last guard.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction

from achievements import selectors
from achievements.cached import rarity_changed
from achievements.models import Award, PendingMatch, ProcessedMatch
from achievements.rules import earned
from games.models import Match, MatchStatus
from history.models import PlayerMatch


def _grant(*, user_id: int, records_of: set[int] | None) -> list[Award]:
    """The achievements the player's history holds and the player does not (inside a
    transaction, the user's row locked)."""
    facts = selectors.player_match_facts(user_id=user_id, records_of=records_of)
    found = earned(facts, selectors.player_event_facts(user_id=user_id))
    held = selectors.held_codes(user_id=user_id)
    known = {f.match_id for f in facts}
    new = [
        Award(
            user_id=user_id,
            code=code,
            achieved_at=moment.at,
            match_id=moment.match_id if moment.match_id in known else None,
        )
        for code, moment in found.items()
        if code not in held
    ]
    Award.objects.bulk_create(new)
    return new


def _lock_users(user_ids: list[int]) -> list[int]:
    """Locks the users' rows in pk order; the ids of those that still exist."""
    User = get_user_model()
    return list(
        User.objects.select_for_update()
        .filter(pk__in=user_ids)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def achievements_match_pending(*, match_id: int) -> None:
    """Inside the settlement's transaction: the match waits to be read (one INSERT; a
    second signal for the same match adds nothing)."""
    PendingMatch.objects.bulk_create([PendingMatch(match_id=match_id)], ignore_conflicts=True)


def achievements_read_pending(*, limit: int = 500) -> int:
    """Reads up to `limit` waiting matches, oldest first, one transaction each; a match
    another worker is reading is skipped (SKIP LOCKED). The number read."""
    done = 0
    while done < limit:
        with transaction.atomic():
            pending = (
                PendingMatch.objects.select_for_update(skip_locked=True).order_by("pk").first()
            )
            if pending is None:
                break
            achievements_for_match(match_id=pending.match_id)
            pending.delete()
        done += 1
    return done


def achievements_for_match(*, match_id: int) -> list[Award]:
    """The awards earned by the players of the settled match `match_id` (run after its
    settlement committed). A match already processed, deleted, or not finished grants
    nothing; a deleted player is skipped."""
    with transaction.atomic():
        if not Match.objects.filter(pk=match_id, status=MatchStatus.FINISHED).exists():
            return []
        user_ids = sorted(
            set(PlayerMatch.objects.filter(match_id=match_id).values_list("user_id", flat=True))
        )
        users = _lock_users(user_ids)
        # The mark: a second delivery waits on this row's insert and then finds it.
        _mark, created = ProcessedMatch.objects.get_or_create(match_id=match_id)
        if not created:
            return []
        awards = []
        for user_id in users:
            awards += _grant(user_id=user_id, records_of={match_id})
    if awards:
        transaction.on_commit(rarity_changed)
    return awards


def achievements_recompute(*, user_ids: list[int] | None = None) -> list[Award]:
    """Grants, from history alone, every achievement the players (all players with a
    settled match when None) hold and lack, reading every engine record. Idempotent: a
    second run grants nothing, and a live task after it grants nothing more. Awards are
    never taken back (a deleted match keeps the award, without its link)."""
    if user_ids is None:
        user_ids = list(PlayerMatch.objects.values_list("user_id", flat=True).distinct())
    awards: list[Award] = []
    for user_id in sorted(set(user_ids)):
        with transaction.atomic():
            if not _lock_users([user_id]):
                continue
            awards += _grant(user_id=user_id, records_of=None)
    rarity_changed()
    return awards
