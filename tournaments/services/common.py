"""What the tournaments services share: the tournament row's lock, the clock, and the
after-commit notices."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments import errors
from tournaments.models import Entry, EntryState, Tournament
from tournaments.signals import tournament_changed


def now_or(now: datetime | None) -> datetime:
    return now or timezone.now()


def tournament_lock(tournament_id: Any, *, skip_locked: bool = False) -> Tournament | None:
    """The tournament row, locked until the caller's transaction ends: every change of a
    tournament's state, entries and rounds holds it first (the one lock order: the
    tournament, then its entries, pairings and games, then games' tables, then the
    ledger's accounts). `skip_locked`: None when another worker holds it."""
    try:
        pk = int(tournament_id)
    except (TypeError, ValueError, OverflowError):
        raise errors.TournamentNotFound() from None
    rows = Tournament.objects.select_for_update(skip_locked=skip_locked).filter(pk=pk)
    found = rows.first()
    if found is None and not skip_locked:
        raise errors.TournamentNotFound()
    return found


def tournament_locked(tournament_id: Any) -> Tournament:
    found = tournament_lock(tournament_id)
    assert found is not None  # raised otherwise
    return found


def live_entries(tournament: Tournament) -> list[Entry]:
    """The entries still in the tournament (pairs and, before the close, singles), by pk."""
    return list(
        Entry.objects.filter(tournament=tournament, state=EntryState.REGISTERED).order_by("pk")
    )


def changed(tournament_id: int, what: str) -> None:
    """After commit: the tournament's pages hear that `what` changed."""
    transaction.on_commit(
        lambda: tournament_changed.send(sender=Tournament, tournament_id=tournament_id, what=what)
    )
