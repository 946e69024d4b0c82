"""The only writers of achievements: the awards of a settled match's players (once),
of the results of a day, a league week or a tournament, and the recompute from history
(docs/achievements.md).

The settlement only notes its match as waiting (`PendingMatch`, in its own
transaction), and a close notes its results (`PendingEvent`); the beat's task reads
both after the commit.

Exactly once: a settled match is marked processed (`ProcessedMatch`, its primary key
the match) in the same transaction as its awards, so a redelivered task finds the mark
and grants nothing; the players' user rows are locked in pk order first, so two
readings of one player at once read and write one after the other; and an award is
unique per (user, code), the last guard.

Each player's progress (`Progress`, the rules' fold) is kept between readings, so a
reading reads only the matches settled since the last one: its cost does not grow
with the player's history.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from achievements import selectors
from achievements.cached import rarity_changed
from achievements.models import Award, PendingEvent, PendingMatch, ProcessedMatch, Progress
from achievements.rules import Earned, MatchFacts, earned_from_events, fold, found_in
from games.models import Match, MatchStatus
from history.models import PlayerMatch


def _progress(*, user_id: int, rebuild: bool) -> dict[str, Any]:
    """The player's progress brought up to their latest settled match and stored
    (inside a transaction, the user's row locked). Incremental: only the matches after
    the last one folded are read, with their engine records. Rebuilt from the whole
    history, every record read, when asked (the recompute), when there is none yet (a
    player's first reading), or when it no longer matches history (a match recorded
    before the last one folded): then it is what the recompute reaches."""
    row = selectors.progress_of(user_id)
    state: dict[str, Any] | None = None
    folded = 0
    last: MatchFacts | None = None
    if row is not None and not rebuild:
        if row.last_match_id is None or row.last_finished_at is None:
            current = row.folded == 0
        else:
            current = row.folded == selectors.history_count_through(
                user_id=user_id, finished_at=row.last_finished_at, match_id=row.last_match_id
            )
        if current:
            new = selectors.match_facts_after(
                user_id=user_id, finished_at=row.last_finished_at, match_id=row.last_match_id
            )
            if not new:
                return row.state
            state, folded = fold(row.state, new), row.folded + len(new)
            last = new[-1]
    if state is None:
        facts = selectors.player_match_facts(user_id=user_id, records_of=None)
        state, folded = fold(None, facts), len(facts)
        last = facts[-1] if facts else None
    values = {
        "state": state,
        "folded": folded,
        "last_finished_at": last.finished_at if last else None,
        "last_match_id": last.match_id if last else None,
    }
    if row is None:
        Progress.objects.create(user_id=user_id, **values)
    else:  # one UPDATE (the row is the locked user's: nobody else writes it)
        Progress.objects.filter(user_id=user_id).update(**values, updated_at=timezone.now())
    return state


def _awards(user_id: int, found: dict[str, Earned], held: set[str]) -> list[Award]:
    """The awards of `found` the player does not hold (a match deleted meanwhile: the
    award without its link)."""
    missing = {code: moment for code, moment in found.items() if code not in held}
    linked = {m.match_id for m in missing.values() if m.match_id is not None}
    existing = (
        set(Match.objects.filter(pk__in=linked).values_list("pk", flat=True)) if linked else set()
    )
    return [
        Award(
            user_id=user_id,
            code=code,
            achieved_at=moment.at,
            match_id=moment.match_id if moment.match_id in existing else None,
        )
        for code, moment in missing.items()
    ]


def _grant(*, user_id: int, rebuild: bool = False) -> list[Award]:
    """The achievements the player's settled matches hold and the player does not
    (inside a transaction, the user's row locked): the progress read incrementally,
    whatever the length of the history (docs/achievements.md, "Cost"). The recompute
    (`rebuild`) reads the whole history, and the results outside a match too."""
    found = found_in(_progress(user_id=user_id, rebuild=rebuild))
    if rebuild:
        found.update(earned_from_events(selectors.player_event_facts(user_id=user_id)))
    new = _awards(user_id, found, selectors.held_codes(user_id=user_id))
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
            awards += _grant(user_id=user_id)
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
            awards += _grant(user_id=user_id, rebuild=True)
    rarity_changed()
    return awards


# --- results outside a match: a day, a league week, a tournament ----------------------

#: Players read a transaction when the results of a day, week or tournament are read.
EVENT_CHUNK = 500


def achievements_results_pending(*, event: str, ref_id: int) -> None:
    """Inside the transaction that closed a day or a league week or finished a
    tournament: its results wait to be read (one INSERT; a second signal for the same
    results adds nothing)."""
    PendingEvent.objects.bulk_create(
        [PendingEvent(event=event, ref_id=ref_id)], ignore_conflicts=True
    )


def _grant_events(user_ids: list[int]) -> list[Award]:
    """The achievements of results outside a match these players hold and do not
    have (their rows locked in pk order: a match of one of them read at the same time
    waits, and then finds the award held)."""
    users = _lock_users(user_ids)
    facts = selectors.event_facts_of(users)
    held = selectors.held_codes_of(users)
    new = [
        award
        for user_id in users
        for award in _awards(user_id, earned_from_events(facts[user_id]), held[user_id])
    ]
    Award.objects.bulk_create(new)
    return new


def achievements_read_events(*, limit: int = 20_000) -> list[Award]:
    """Reads the waiting results, oldest first: the players of each who may have
    earned something (a day's top tenth, a week's promoted, a tournament's podium),
    EVENT_CHUNK a transaction, the cursor kept in the row (SKIP LOCKED: two workers
    never read the same results), the row deleted with its last chunk. Reading the
    same results again grants nothing (awards held, unique per player and code)."""
    awards: list[Award] = []
    read = 0
    while read < limit:
        with transaction.atomic():
            pending = (
                PendingEvent.objects.select_for_update(skip_locked=True).order_by("pk").first()
            )
            if pending is None:
                break
            ids = selectors.event_players(
                event=pending.event,
                ref_id=pending.ref_id,
                after_user_id=pending.after_user_id,
                limit=EVENT_CHUNK,
            )
            if ids:
                awards += _grant_events(ids)
            if len(ids) < EVENT_CHUNK:
                pending.delete()
            else:
                pending.after_user_id = ids[-1]
                pending.save(update_fields=["after_user_id"])
        read += max(1, len(ids))
    if awards:
        rarity_changed()
    return awards
