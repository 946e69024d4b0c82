"""What the queue and the stake tables share: seating a player through games' life
cycle, refused when they already sit at a live table."""

from __future__ import annotations

import random
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import User
from games import services as games
from games.models import Seat
from online import errors as err

SEATS = 4
#: Where players sit is drawn at random (the queue's pairs, a stake table's free seat).
rng = random.SystemRandom()


def now_or(now: datetime | None) -> datetime:
    return now or timezone.now()


def at_live_table(user_id: int) -> bool:
    return Seat.objects.filter(user_id=user_id, live=True).exists()


#: What a player looking for a table is told when they already sit at a live one.
ALREADY_AT_TABLE = gettext_lazy(
    "You are already at a live table: finish or leave it before looking for another."
)


def already_at_table() -> err.AlreadyAtTable:
    return err.AlreadyAtTable(ALREADY_AT_TABLE)


def take_seat(seat: Seat, user: User, *, forbids_watchers: bool = False) -> None:
    try:
        games.seat_take(seat=seat, user=user, forbids_watchers=forbids_watchers)
    except err.AlreadyAtTable:
        raise already_at_table() from None
